// Messages the person wrote while a reply streams (`Chat`'s experimental_queue): the page's adapter
// reports how many wait, and `propose_action` refuses at queuedMessageLimit, as the Host's does. The
// rule on the whole path (docs' routes, `Chat`) is the kit's `limit.queued-messages`.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { UIMessage } from 'ai';
import { createChatTaskSurface, type TaskSurfaceWaiting } from '../../ai-sdk/chat.js';
import { taskSurfaceTools } from '../../ai-sdk/index.js';
import { createMemoryPageStore, createPageKind } from '../../host/index.js';
import { QUEUED_MORE } from '../../conformance/texts.js';
import { proposal } from './cardHelpers.js';
import { fakeChat, userText } from './helpers.js';

describe('messages waiting in the page’s chat', () => {
  it('the adapter reports the count once per change; a failed report goes to onError', async () => {
    const chat = fakeChat([]);
    const queue: UIMessage[] = [];
    Object.defineProperty(chat, 'experimental_queuedMessages', { get: () => [...queue] });
    const told: TaskSurfaceWaiting[] = [];
    const errors: unknown[] = [];
    const adapter = createChatTaskSurface(chat, {
      onWaiting: (waiting) => {
        told.push(waiting);
        if (waiting.count === 2) throw new Error('offline');
      },
      onError: (error) => errors.push(error),
    });
    queue.push(userText('one'));
    adapter.update(chat);
    adapter.update(chat);
    queue.push(userText('two'));
    adapter.update(chat);
    queue.length = 0;
    adapter.update(chat);
    await new Promise((resolve) => setTimeout(resolve, 0));
    assert.deepEqual(
      told.map((w) => [w.chatId, w.count]),
      [
        ['chat-1', 1],
        ['chat-1', 2],
        ['chat-1', 0],
      ],
    );
    assert.deepEqual(
      errors.map((e) => (e as Error).message),
      ['offline'],
    );
    adapter.dispose();
  });

  /** Loads the skill, then proposes, in one request's tools; what propose_action answers. */
  async function propose(options: { waiting?: () => number | Promise<number>; queuedMessageLimit?: number }) {
    const tools = taskSurfaceTools({
      messages: [userText('plan a trip')],
      kinds: [createPageKind({ pages: createMemoryPageStore() })],
      ...options,
    });
    const call = { messages: [], abortSignal: undefined } as never;
    await tools.skill.execute!({ name: 'create-page' }, { ...(call as object), toolCallId: 'call-skill' } as never);
    return tools.propose_action.execute!(proposal(), { ...(call as object), toolCallId: 'call-card' } as never);
  }

  it('propose_action refuses at the Host’s default of 2 waiting, or the limit given; none waiting by default', async () => {
    assert.deepEqual(await propose({ waiting: () => 2 }), { ok: false, text: QUEUED_MORE });
    assert.equal(((await propose({ waiting: async () => 1 })) as { ok: boolean }).ok, true, 'one waiting, under the default 2');
    assert.deepEqual(await propose({ waiting: async () => 1, queuedMessageLimit: 1 }), { ok: false, text: QUEUED_MORE });
    assert.equal(((await propose({})) as { ok: boolean }).ok, true, 'no waiting given: none counts');
    assert.equal(
      ((await propose({ waiting: () => Number.NaN })) as { ok: boolean }).ok,
      true,
      'a count that is not a number counts as none',
    );
  });
});
