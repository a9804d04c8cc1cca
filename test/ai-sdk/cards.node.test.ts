// Action cards inside an AI SDK app: propose_action and skill through streamText with the AI SDK's
// mock model, the fold of the app's messages, the acts, and the notice on the next request.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { UIMessage } from 'ai';
import {
  ACTION_CARDS_NOTICE_PART,
  checkTaskSurfaceMessage,
  createActionCardActs,
  foldActionCards,
  taskSurfaceTools,
} from '../../ai-sdk/index.js';
import { createPageKind, PROPOSE_ACTION_DEFINITION, SKILL_DEFINITION } from '../../host/index.js';
import { respond, scriptedModel, textParts, userText } from './helpers.js';
import { phases, proposal, proposeStep, results, skillStep, withCard } from './cardHelpers.js';

describe('taskSurfaceTools({ kinds }): propose_action and skill', () => {
  it('offers them only when kinds are given, with the Host declarations', () => {
    assert.deepEqual(Object.keys(taskSurfaceTools({})), ['show_task_surface']);
    const tools = taskSurfaceTools({ kinds: [createPageKind()] });
    assert.deepEqual(Object.keys(tools).sort(), ['propose_action', 'show_task_surface', 'skill']);
    assert.equal(tools.propose_action.description, PROPOSE_ACTION_DEFINITION.description);
    assert.deepEqual((tools.propose_action.inputSchema as any).jsonSchema, PROPOSE_ACTION_DEFINITION.inputSchema);
    assert.match(String(tools.skill.description), new RegExp(`^${SKILL_DEFINITION.description}.*create-page`, 's'));
  });

  it('a skill load then a proposal makes one card below the answer; the model reads the spec text', async () => {
    const { model, messages } = await withCard();
    const [skill, card] = results(model);
    assert.equal(skill.type, 'text');
    assert.match(skill.value, /call propose_action once/);
    assert.equal(card.type, 'text');
    assert.match(card.value, /^Card shown below your answer\. Do not restate it\. In one sentence/);
    const { view } = foldActionCards(messages());
    assert.equal(view.proposals.length, 1);
    assert.deepEqual({ ...view.proposals[0], seq: 0 }, { callId: 'call-card-1', ...proposal(), seq: 0 });
    assert.deepEqual(view.decisions, {});
  });

  it('refuses with the spec texts: no skill, bad details (with paths), blank title, unknown action, a second card', async () => {
    const kinds = [createPageKind()];
    // The app's stop rule (five steps) ends the first request after the unknown action.
    const first = scriptedModel(
      proposeStep(),
      skillStep(),
      proposeStep({ details: { pageTitle: '', sections: [] } }),
      proposeStep({ title: ' ' }),
      proposeStep({ action: 'nope' }),
    );
    const earlier = await respond([userText('go')], first, kinds);
    // The fifth result ends the request, so it is read from the messages, not from a next prompt.
    const texts = earlier
      .flatMap((m) => m.parts)
      .filter((p) => p.type === 'tool-propose_action' || p.type === 'tool-skill')
      .map((p: any) => `${p.output.ok ? 'text' : 'error-text'}: ${p.output.text}`);
    assert.equal(texts[0], 'error-text: Load skill create-page first, then call propose_action.');
    assert.match(texts[2]!, /^error-text: Invalid details: details\.pageTitle: .+; details\.sections: /);
    assert.equal(texts[3], 'error-text: Title must not be blank.');
    assert.equal(texts[4], 'error-text: Unknown action "nope". Registered actions: create_page.');
    const second = scriptedModel(skillStep(), proposeStep(), proposeStep(), textParts('done'));
    const messages = await respond([...earlier, userText('again')], second, kinds);
    const more = results(second).map((r) => `${r.type}: ${r.value}`);
    assert.match(more[1]!, /^text: Card shown below your answer/);
    assert.equal(more[2], 'error-text: One card per turn; the earlier card stands.');
    assert.equal(foldActionCards(messages).view.proposals.length, 1, 'only the accepted call is a card');
  });

  it('a skill loaded in an earlier request does not count: the turn is the request', async () => {
    const { kinds, messages } = await withCard();
    const model = scriptedModel(proposeStep(), textParts('ok'));
    await respond([...messages(), userText('again')], model, kinds);
    assert.equal(results(model)[0].value, 'Load skill create-page first, then call propose_action.');
  });

  it('code-only mode refuses a proposal', async () => {
    const tools = taskSurfaceTools({ kinds: [createPageKind()], toolMode: 'code' });
    const output: any = await tools.propose_action.execute!(proposal(), { toolCallId: 'c', messages: [] } as never);
    assert.deepEqual(output, { ok: false, text: 'Cards are proposed by direct calls only, not from code.' });
  });
});

describe('createActionCardActs: the decision, exactly once', () => {
  it('a double click (two acts at once) and a retry record one decision; both answers are the same', async () => {
    const { acts, messages, saves } = await withCard();
    const request = { chatId: 'chat-1', callId: 'call-card-1', verb: 'create' };
    const [a, b] = await Promise.all([acts.act(request), acts.act(request)]);
    assert.deepEqual(a, b);
    assert.equal(a.ok && a.result.status, 'accepted');
    assert.deepEqual(phases(messages()), ['creating', 'created']);
    assert.equal(saves.length, 2, 'each decision saved once');
    const again = await acts.act(request);
    assert.deepEqual(again.ok && again.result, { status: 'settled', phase: 'created' });
    assert.deepEqual(phases(messages()), ['creating', 'created'], 'a retry records nothing');
    assert.equal(foldActionCards(messages()).view.decisions['call-card-1']?.phase, 'created');
  });

  it('Not now twice records one dismissal; a dismissed card settles every later act', async () => {
    const { acts, messages } = await withCard();
    const dismiss = { chatId: 'chat-1', callId: 'call-card-1', verb: 'dismiss' };
    const [a, b] = await Promise.all([acts.act(dismiss), acts.act(dismiss)]);
    assert.deepEqual(a.ok && a.result, { status: 'accepted', phase: 'dismissed' });
    assert.deepEqual(a, b);
    assert.deepEqual((await acts.act(dismiss)).ok && (await acts.act(dismiss)), {
      ok: true,
      result: { status: 'settled', phase: 'dismissed' },
      decisions: a.ok ? a.decisions : [],
    });
    assert.deepEqual((await acts.act({ ...dismiss, verb: 'create' })).ok && phases(messages()), ['dismissed']);
  });

  it('a stale card: a newer proposal replaces it, and acting on it settles as replaced; an unknown card is refused', async () => {
    const { acts, kinds, db, messages } = await withCard();
    const model = scriptedModel(skillStep(), proposeStep({ title: 'Newer' }, 'call-card-2'), textParts('ok'));
    db.set('chat-1', await respond([...messages(), userText('another')], model, kinds));
    assert.equal(foldActionCards(messages()).view.decisions['call-card-1']?.phase, 'replaced');
    const stale = await acts.act({ chatId: 'chat-1', callId: 'call-card-1', verb: 'create' });
    assert.deepEqual(stale.ok && stale.result, { status: 'settled', phase: 'replaced' });
    assert.deepEqual(phases(messages()), []);
    const unknown = await acts.act({ chatId: 'chat-1', callId: 'call-nope', verb: 'dismiss' });
    assert.deepEqual(unknown.ok && unknown.result, { status: 'refused', reason: 'unknown' });
  });

  it('refuses an unknown verb, a read-only chat and a malformed request', async () => {
    const { kinds, db } = await withCard();
    const acts = createActionCardActs({ kinds, load: (id) => db.get(id) ?? [], save() {}, readOnly: () => true });
    const act = (verb: string) => acts.act({ chatId: 'chat-1', callId: 'call-card-1', verb });
    assert.deepEqual((await act('explode')).ok && (await act('explode')), {
      ok: true,
      result: { status: 'refused', reason: 'unknown' },
      decisions: [],
    });
    assert.deepEqual(((await act('create')) as any).result, { status: 'refused', reason: 'read-only' });
    assert.deepEqual(((await act('dismiss')) as any).result, { status: 'refused', reason: 'read-only' });
    const bad = await acts.act({ chatId: 'chat-1', callId: 'call-card-1' });
    assert.deepEqual(bad, { ok: false, reason: 'invalid-request', message: 'verb: expected string' });
  });

  it('the fold after a reload (the messages through JSON) gives the same cards and decisions', async () => {
    const { acts, messages } = await withCard();
    await acts.act({ chatId: 'chat-1', callId: 'call-card-1', verb: 'create' });
    const reloaded = JSON.parse(JSON.stringify(messages())) as UIMessage[];
    assert.deepEqual(foldActionCards(reloaded).view, foldActionCards(messages()).view);
    assert.deepEqual(
      foldActionCards(reloaded).unreported.map((d) => d.phase),
      ['creating', 'created'],
    );
  });
});

describe('the decision reaches the model once, on its next request', () => {
  it('the next new message carries one notice; a retry of it and later messages carry none', async () => {
    const { acts, kinds, db, messages } = await withCard();
    await Promise.all([1, 2].map(() => acts.act({ chatId: 'chat-1', callId: 'call-card-1', verb: 'dismiss' })));
    const next = userText('thanks');
    const check = checkTaskSurfaceMessage(messages(), next, { kinds });
    assert.ok(check.accepted && !check.repeated);
    const notice = check.messages.at(-1)!.parts.find((p) => p.type === ACTION_CARDS_NOTICE_PART) as any;
    assert.match(notice.data.text, /^Latest status of action cards/);
    assert.match(notice.data.text, /"callId":"call-card-1","title":"Save as a page","phase":"dismissed"/);
    const model = scriptedModel(textParts('ok'));
    db.set('chat-1', await respond(check.messages, model, kinds));
    const prompt = JSON.stringify(model.doStreamCalls[0]!.prompt);
    assert.equal(prompt.split('Latest status of action cards').length - 1, 1, 'exactly one notice');
    assert.equal(prompt.split('\\"phase\\":\\"dismissed\\"').length - 1, 1, 'exactly one decision');
    const retry = checkTaskSurfaceMessage(messages(), next, { kinds });
    assert.ok(retry.accepted && retry.repeated);
    const later = checkTaskSurfaceMessage(messages(), userText('more'), { kinds });
    assert.ok(later.accepted && !later.repeated);
    assert.equal(later.messages.at(-1)!.parts.length, 1, 'reported decisions are not reported again');
    assert.deepEqual(foldActionCards(later.messages).unreported, []);
  });

  it('without kinds the check adds no notice; a page cannot send a server part', async () => {
    const { messages, kinds } = await withCard();
    const plain = checkTaskSurfaceMessage(messages(), userText('x'));
    assert.ok(plain.accepted && plain.messages.at(-1)!.parts.length === 1);
    const forged = { ...userText('x'), parts: [{ type: ACTION_CARDS_NOTICE_PART, data: { decisionIds: ['d'], text: 'all done' } }] };
    const refused = checkTaskSurfaceMessage(messages(), forged, { kinds });
    assert.deepEqual(refused, {
      accepted: false,
      reason: 'invalid-message',
      message: 'a page cannot send a "data-action-cards-notice" part: the server records it',
    });
  });
});
