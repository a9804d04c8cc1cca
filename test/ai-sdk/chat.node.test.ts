// The page's adapter without a browser: a fake useChat, the elements' calls made directly.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { UIMessage } from 'ai';
import { createChatTaskSurface } from '../../ai-sdk/chat.js';
import { foldTaskSurface } from '../../ai-sdk/index.js';
import type { SessionId, SessionView, TaskSurfaceDismissalId, TaskSurfaceId, TaskSurfaceSubmissionId } from '../../protocol/index.js';
import { fakeChat, respond, scriptedModel, showStep, userText } from './helpers.js';

describe('createChatTaskSurface (the page side, framework-neutral)', () => {
  let shown: UIMessage[];
  before(async () => {
    shown = await respond([userText('pick')], scriptedModel(showStep()));
  });
  const sessionId = 'chat-1' as SessionId;
  const ids = { sub: (s: string) => s as TaskSurfaceSubmissionId, dis: (s: string) => s as TaskSurfaceDismissalId };

  it('shows the open surface to the Dock and submits one user message for a double click', async () => {
    const chat = fakeChat(shown);
    const adapter = createChatTaskSurface(chat);
    const views: SessionView[] = [];
    adapter.transport.watchSession(sessionId, (v) => views.push(v));
    const surfaceId = views[0]!.taskSurface.active!.surfaceId;
    const active = await adapter.transport.taskSurface.getActive({ sessionId, surfaceId });
    assert.ok(active.active && active.model.title === 'Pick a plan');
    const request = { sessionId, surfaceId, submissionId: ids.sub('s1'), values: { plan: 'a', why: 'x' }, locale: 'zh' as const };
    const [first, second] = await Promise.all([
      adapter.transport.taskSurface.submit(request),
      adapter.transport.taskSurface.submit(request),
    ]);
    assert.deepEqual(first, second);
    assert.equal(chat.sent.length, 1);
    assert.equal((chat.sent[0]!.parts[0] as { text: string }).text, 'Pick a plan\nPlan：Plan A\nWhy：x');
    assert.ok(
      views.some((v) => v.taskSurface.active?.pending?.submissionId === 's1'),
      'pending while its request runs (the kit checks the outcome: surface.submit, limit.submission-bytes)',
    );
    adapter.update(chat);
    assert.equal(views.at(-1)!.taskSurface.active, null);
    assert.equal((await adapter.transport.taskSurface.getOutcome({ sessionId, surfaceId })).status, 'submitted');
    const again = await adapter.transport.taskSurface.submit({ ...request, submissionId: ids.sub('s2') });
    assert.deepEqual(again, { accepted: false, reason: 'not-open' });
  });

  it('refuses invalid values and stale ids with the Host reasons, and waits while the chat streams', async () => {
    const chat = fakeChat(shown);
    const adapter = createChatTaskSurface(chat);
    const surfaceId = foldTaskSurface(shown).open!.surfaceId;
    const submit = (over: object) =>
      adapter.transport.taskSurface.submit({ sessionId, surfaceId, submissionId: ids.sub('s9'), values: { plan: 'a', why: 'x' }, ...over });
    assert.deepEqual(await submit({ values: { plan: 'zz' } }), { accepted: false, reason: 'invalid-submission' });
    assert.deepEqual(await submit({ surfaceId: 'ts_old' as TaskSurfaceId }), { accepted: false, reason: 'stale' });
    (chat as { status: string }).status = 'streaming';
    assert.deepEqual(await submit({}), { accepted: false, reason: 'submission-pending' });
    let view: SessionView | undefined;
    adapter.transport.watchSession(sessionId, (v) => (view = v));
    assert.equal(view!.taskSurface.active, null, 'the panel waits for the reply to finish streaming');
    assert.equal(view!.turn, 'running');
    assert.equal(chat.sent.length, 0);
    assert.throws(() => adapter.transport.watchSession('other' as SessionId, () => {}), /serves chat chat-1/);
  });

  it('dismisses without sending: the app persists it first, then the messages gain the dismissal', async () => {
    const chat = fakeChat(shown);
    const persisted: unknown[] = [];
    const adapter = createChatTaskSurface(chat, { onDismiss: async (d) => void persisted.push(d) });
    const surfaceId = foldTaskSurface(shown).open!.surfaceId;
    const result = await adapter.transport.taskSurface.dismiss({ sessionId, surfaceId, dismissalId: ids.dis('d1') });
    assert.equal(result.dismissed, true);
    assert.equal(chat.sent.length, 0, 'no message, no request to the model');
    assert.deepEqual(persisted, [{ chatId: 'chat-1', surfaceId, dismissalId: 'd1' }]);
    assert.deepEqual(
      foldTaskSurface(chat.messages).closed.map((c) => c.status),
      ['dismissed'],
    );

    const failing = fakeChat(shown);
    const refused = createChatTaskSurface(failing, { onDismiss: () => Promise.reject(new Error('offline')) });
    await assert.rejects(refused.transport.taskSurface.dismiss({ sessionId, surfaceId, dismissalId: ids.dis('d2') }), /offline/);
    assert.ok(foldTaskSurface(failing.messages).open, 'the panel stays open when the server did not record it');
  });
});
