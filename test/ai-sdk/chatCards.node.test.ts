// The page's adapter for cards without a browser: the element's view and act, the app's route
// (createActionCardActs) behind onAct, the decisions added to the chat's messages.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createActionCardActs, createChatTaskSurface, foldActionCards, type ActionCardActRequest } from '../../ai-sdk/index.js';
import { createPageKind } from '../../host/index.js';
import type { CallId, SessionId, SessionView } from '../../protocol/index.js';
import { fakeChat, respond, scriptedModel, textParts, toolCallParts, userText } from './helpers.js';

const kinds = [createPageKind()];
const sessionId = 'chat-1' as SessionId;
const callId = 'call-card-1' as CallId;

async function cardChat() {
  const proposal = { action: 'create_page', title: 'Save', brief: 'Keeps it.', details: { pageTitle: 'Plan', sections: ['A'] } };
  const model = scriptedModel(
    toolCallParts('skill', { name: 'create-page' }),
    toolCallParts('propose_action', proposal, callId),
    textParts('ok'),
  );
  let server = await respond([userText('plan')], model, kinds);
  const acts = createActionCardActs({ kinds, load: () => server, save: (_id, messages) => void (server = messages) });
  const requests: ActionCardActRequest[] = [];
  const onAct = async (request: ActionCardActRequest) => {
    requests.push(request);
    const answer = await acts.act(request);
    if (!answer.ok) throw new Error(answer.message);
    return answer;
  };
  return { chat: fakeChat(structuredClone(server)), onAct, requests, server: () => server };
}

describe('createChatTaskSurface: action cards', () => {
  it('shows the card to the element, acts through onAct, and adds the decisions to the chat', async () => {
    const { chat, onAct, requests, server } = await cardChat();
    const adapter = createChatTaskSurface(chat, { onAct });
    let view: SessionView | undefined;
    adapter.transport.watchSession(sessionId, (v) => (view = v));
    assert.deepEqual(
      view!.actionCards.proposals.map((p) => [p.callId, p.title]),
      [[callId, 'Save']],
    );
    const result = await adapter.transport.actionCards.act({ sessionId, callId, verb: 'create' });
    assert.equal(result.status, 'accepted');
    assert.deepEqual(requests, [{ chatId: 'chat-1', callId, verb: 'create' }]);
    assert.equal(view!.actionCards.decisions[callId]?.phase, 'created');
    assert.deepEqual(foldActionCards(chat.messages).view, foldActionCards(server()).view, 'the page folds what the server saved');
    assert.equal(chat.sent.length, 0, 'an act starts no chat request');
  });

  it('holds an act while a reply streams, sends it once the reply ended, and adds its decisions', async () => {
    const { chat, onAct, requests } = await cardChat();
    const adapter = createChatTaskSurface(chat, { onAct });
    (chat as { status: string }).status = 'streaming';
    const before = chat.messages;
    let settled = false;
    const acting = adapter.transport.actionCards.act({ sessionId, callId, verb: 'dismiss' }).finally(() => (settled = true));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(settled, false, 'the act waits while the reply streams');
    assert.deepEqual(requests, [], 'nothing is sent to the server while the reply streams');
    assert.equal(chat.messages, before, 'the streaming reply is not disturbed');
    (chat as { status: string }).status = 'ready';
    adapter.update(chat);
    assert.equal((await acting).status, 'accepted');
    assert.deepEqual(requests, [{ chatId: 'chat-1', callId, verb: 'dismiss' }]);
    assert.equal(foldActionCards(chat.messages).view.decisions[callId]?.phase, 'dismissed');
  });

  it('without onAct a card action is an error, not a silent no-op', async () => {
    const { chat } = await cardChat();
    const adapter = createChatTaskSurface(chat);
    await assert.rejects(adapter.transport.actionCards.act({ sessionId, callId, verb: 'dismiss' }), /card actions need onAct/);
  });
});
