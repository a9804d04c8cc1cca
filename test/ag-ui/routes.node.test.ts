// The AG-UI adapter's routes over a Host: the events of a turn, the panel as an activity, the
// answer through the Host's submit decision (a doubled or retried run adds nothing), dismissal with
// no run, and bad input refused with a specific reason.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type { BaseEvent, Message } from '@ag-ui/core';
import { PANEL_ACTIVITY, PREVIEW_ACTIVITY, panelActivityId, startRun, type PanelActivityContent } from '../../ag-ui/index.js';
import { answer, show } from '../../conformance/fixtures.js';
import { PERSON, STRANGER, runInput, setup, userMessage, type Setup } from './helpers.js';

let s: Setup;
afterEach(() => s.close());

const types = (events: readonly BaseEvent[]) => events.map((e) => e.type);
const of = <T>(events: readonly BaseEvent[], type: string) => events.filter((e) => e.type === type) as unknown as T[];
const userMessages = async () => (await s.log()).filter((e) => e.type === 'user/message');

/** Shows the panel: the run's events and the client's messages after it (the user message, the activity). */
async function showPanel() {
  s.script.push([{ calls: [show()] }]);
  const asked = userMessage('Help me plan');
  const { events } = await s.run(runInput(s.threadId, [asked]));
  const snapshot = of<{ messageId: string; content: PanelActivityContent }>(events, 'ACTIVITY_SNAPSHOT')[0]!;
  const activity = { id: snapshot.messageId, role: 'activity', activityType: PANEL_ACTIVITY, content: snapshot.content } as Message;
  return { events, content: snapshot.content, messages: [asked, activity] };
}

const answerMessage = (surfaceId: string, submissionId = `sub-${crypto.randomUUID()}`) =>
  userMessage('Plan the trip', { taskSurface: { surfaceId, submissionId, values: answer() } });

describe('ag-ui routes', () => {
  it('a run that shows the panel: tool call without a result, the activity open, pendingToolCallIds', async () => {
    s = setup();
    const { events, content } = await showPanel();
    assert.equal(events[0]!.type, 'RUN_STARTED');
    assert.deepEqual(types(events).slice(1, 4), ['TOOL_CALL_START', 'TOOL_CALL_ARGS', 'TOOL_CALL_END']);
    assert.deepEqual(of(events, 'TOOL_CALL_RESULT'), [], 'the panel call is left for the person to answer');
    assert.equal(content.status, 'open');
    assert.equal((content.model as { title: string }).title, 'Plan the trip');
    const finished = events.at(-1) as unknown as { type: string; outcome: unknown };
    assert.equal(finished.type, 'RUN_FINISHED');
    assert.deepEqual(finished.outcome, { type: 'success', pendingToolCallIds: [content.callId] });
  });

  it('a call the model streams: the preview activity while it is written, emptied once the panel opens', async () => {
    s = setup();
    // Half written, the model pauses a moment: the run sends what the page would show then.
    const pause = () => new Promise<void>((resolve) => setTimeout(resolve, 20));
    s.script.push([{ calls: [{ ...show(), streamed: { midway: pause } }] }]);
    const { events } = await s.run(runInput(s.threadId, [userMessage('Help me plan')]));
    const preview = of<{ messageId: string; activityType: string; content: { model: { title: string } | null } }>(
      events,
      'ACTIVITY_SNAPSHOT',
    ).find((e) => e.activityType === PREVIEW_ACTIVITY);
    assert.equal(preview?.content.model?.title, 'Plan the trip', 'the preview shows the title while the call is written');
    const emptied = of<{ messageId: string; patch: { path: string; value: unknown }[] }>(events, 'ACTIVITY_DELTA').filter(
      (d) => d.messageId === preview!.messageId,
    );
    assert.deepEqual(emptied.at(-1)?.patch.find((p) => p.path === '/model')?.value, null, 'emptied once the call is complete');
    const snapshots = types(events).filter((t) => t === 'ACTIVITY_SNAPSHOT').length;
    assert.equal(snapshots, 2, 'the preview, then the panel');
  });

  it("a run that did not start the open panel's call does not name it pending; a failing Host ends the run as RUN_ERROR", async () => {
    s = setup();
    const { messages } = await showPanel();
    const again = await s.run(runInput(s.threadId, messages));
    assert.deepEqual((again.events.at(-1) as unknown as { outcome: unknown }).outcome, { type: 'success' });
    const broken = { ...s.host.as(PERSON), readLog: () => Promise.reject(new Error('the store is gone')) };
    const run = await startRun(broken, runInput(s.threadId, messages));
    const events: BaseEvent[] = [];
    for await (const event of run.events()) events.push(event);
    assert.deepEqual(types(events), ['RUN_STARTED', 'RUN_ERROR']);
    assert.equal((events[1] as unknown as { code: string }).code, 'server-error');
  });

  it('pendingToolCallIds: false leaves the outcome bare for a client from before AG-UI 1.1; the call still has no result', async () => {
    s = setup({ pendingToolCallIds: false });
    const { events } = await showPanel();
    assert.deepEqual((events.at(-1) as unknown as { outcome: unknown }).outcome, { type: 'success' });
    assert.deepEqual(of(events, 'TOOL_CALL_RESULT'), []);
  });

  it('the answer is one user message; a doubled and a retried run add nothing', async () => {
    s = setup();
    const { content, messages } = await showPanel();
    const input = runInput(s.threadId, [...messages, answerMessage(content.surfaceId)]);
    const before = (await userMessages()).length;
    const [first, second] = await Promise.all([s.run(input), s.run(input)]);
    assert.equal(first.status, 200);
    assert.equal(second.status, 200);
    assert.equal((await userMessages()).length, before + 1, 'one user message for two runs of one answer');
    const deltas = of<{ messageId: string; patch: { path: string; value: unknown }[] }>(first.events, 'ACTIVITY_DELTA');
    const statuses = deltas.flatMap((d) => d.patch.filter((p) => p.path === '/status').map((p) => p.value));
    assert.equal(deltas[0]!.messageId, panelActivityId(content.surfaceId));
    assert.equal(statuses.at(-1), 'submitted');
    const requests = s.script.requests.length;
    const retried = await s.run({ ...input, runId: crypto.randomUUID() });
    assert.deepEqual(
      types(retried.events),
      ['RUN_STARTED', 'ACTIVITY_DELTA', 'RUN_FINISHED'],
      'the retry only brings the client up to date',
    );
    assert.equal(s.script.requests.length, requests, 'no model request for the retry');
    assert.equal((await userMessages()).length, before + 1);
  });

  it('a dismissal starts no run and is answered the same when retried; an ordinary message bypasses', async () => {
    s = setup();
    const { content, messages } = await showPanel();
    const requests = s.script.requests.length;
    const dismissal = { threadId: s.threadId, surfaceId: content.surfaceId, dismissalId: 'dis-1' };
    const first = await s.post('dismiss', dismissal);
    assert.equal(first.status, 200);
    assert.deepEqual((first.body['result'] as { dismissed: boolean }).dismissed, true);
    const panel = (first.body['activities'] as { content: PanelActivityContent }[])[0]!.content;
    assert.equal(panel.status, 'dismissed');
    assert.deepEqual((await s.post('dismiss', dismissal)).body['result'], first.body['result']);
    assert.equal(s.script.requests.length, requests, 'no model request for a dismissal');
    assert.equal((await userMessages()).length, 1, 'no user message for a dismissal');

    s.script.push([{ calls: [show('Second')] }]);
    const next = await s.run(runInput(s.threadId, [...messages, userMessage('Another one')]));
    const second = of<{ content: PanelActivityContent }>(next.events, 'ACTIVITY_SNAPSHOT').at(-1)!.content;
    const bypass = await s.run(runInput(s.threadId, [userMessage('Never mind, just pick one')]));
    const patches = of<{ messageId: string; patch: { path: string; value: unknown }[] }>(bypass.events, 'ACTIVITY_DELTA');
    const bypassed = patches.find((d) => d.messageId === panelActivityId(second.surfaceId));
    assert.deepEqual(bypassed?.patch.find((p) => p.path === '/status')?.value, 'bypassed');
  });

  it('a forged or stale correlation is refused by the Host, as RUN_ERROR with its reason; nothing is written', async () => {
    s = setup();
    const { content, messages } = await showPanel();
    const before = (await s.log()).length;
    const forged = await s.run(runInput(s.threadId, [...messages, answerMessage('ts_not_this_one')]));
    assert.deepEqual(types(forged.events).at(-1), 'RUN_ERROR');
    assert.equal((forged.events.at(-1) as unknown as { code: string }).code, 'stale');
    const bad = await s.run(
      runInput(s.threadId, [
        ...messages,
        userMessage('x', { taskSurface: { surfaceId: content.surfaceId, submissionId: 'a', values: { place: 'moon' } } }),
      ]),
    );
    assert.equal((bad.events.at(-1) as unknown as { code: string }).code, 'invalid-submission');
    assert.equal((await s.log()).length, before, 'nothing written for a refused answer');
  });

  it('bad input is answered 4xx with a specific reason before anything is written', async () => {
    s = setup();
    const cases: [unknown, number, string][] = [
      ['{not json', 400, 'invalid-json'],
      [{ threadId: s.threadId }, 400, 'invalid-input'],
      [runInput('no such thread!', [userMessage('hi')]), 400, 'invalid-thread'],
      [runInput('ses_unknown', [userMessage('hi')]), 404, 'unknown-thread'],
      [runInput(s.threadId, [userMessage('hi', { taskSurface: { surfaceId: 'ts_1' } })]), 400, 'invalid-answer'],
      [runInput(s.threadId, [userMessage('   ')]), 400, 'empty-message'],
      [runInput(s.threadId, [{ id: 'bad id!', role: 'user', content: 'hi' } as Message]), 400, 'invalid-input'],
    ];
    for (const [input, status, error] of cases) {
      const answer = await s.run(input);
      assert.equal(answer.status, status, JSON.stringify(input));
      assert.equal(answer.error?.error, error);
    }
    assert.equal(
      (await s.run(runInput(s.threadId, [userMessage('hi')]), STRANGER)).error?.error,
      'unknown-thread',
      "another person's thread",
    );
    const dismissal = { threadId: s.threadId, surfaceId: 'ts_1', dismissalId: 'not an id' };
    assert.equal((await s.post('dismiss', dismissal)).body['error'], 'invalid-dismissal');
    assert.equal((await s.post('act', { threadId: s.threadId, callId: 'c1', verb: 'create' }, STRANGER)).status, 404);
    assert.deepEqual((await s.log()).filter((e) => e.type !== 'session/opened').length, 0, 'nothing written');
  });
});
