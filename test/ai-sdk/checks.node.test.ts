// The fold of an app's messages and the server's checks: every result, retries, stale ids, dismissals.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { UIMessage } from 'ai';
import {
  checkTaskSurfaceMessage,
  dismissTaskSurface,
  foldTaskSurface,
  taskSurfaceCheckResponse,
  taskSurfaceDismissalResponse,
  taskSurfaceSubmissionMessage,
  type TaskSurfaceUserParts,
} from '../../ai-sdk/index.js';
import { respond, scriptedModel, showStep, textParts, userText } from './helpers.js';

const values = { plan: 'b', why: 'faster' };

/** The app's route: check, then persist what was accepted. */
function send(messages: UIMessage[], incoming: unknown) {
  const check = checkTaskSurfaceMessage(messages, incoming);
  return { check, messages: check.accepted ? check.messages : messages };
}

describe('foldTaskSurface and checkTaskSurfaceMessage', () => {
  let shown: UIMessage[];
  let surfaceId: string;
  let callId: string;
  before(async () => {
    shown = await respond([userText('help me pick')], scriptedModel(showStep()));
    ({ surfaceId, callId } = foldTaskSurface(shown).open!);
  });
  const submission = (submissionId: string, extra: Partial<{ values: unknown; note: string; surfaceId: string }> = {}) => {
    const built = taskSurfaceSubmissionMessage(shown, { surfaceId, submissionId, values, ...extra } as any, `m-${submissionId}`);
    assert.ok(built.accepted && !built.repeated);
    return built.message;
  };

  it('a submission is accepted once: its text and metadata close the surface as submitted', () => {
    const message = submission('s1', { note: 'thanks' });
    assert.equal((message.parts[0] as any).text, 'Pick a plan\nPlan: Plan B\nWhy: faster\nNote: thanks');
    assert.deepEqual((message.metadata as any).taskSurface, { version: 1, submissionId: 's1', callId, surfaceId, values, note: 'thanks' });
    const { check, messages } = send(shown, message);
    assert.deepEqual(check.accepted && [check.kind, check.repeated, check.messageId], ['submission', false, 'm-s1']);
    const state = foldTaskSurface(messages);
    assert.equal(state.open, null);
    assert.deepEqual(state.closed, [{ status: 'submitted', callId, surfaceId, messageId: 'm-s1', values }]);
    assert.deepEqual(state.outcome(surfaceId), { status: 'submitted', callId, seq: 4, messageId: 'm-s1', values });
  });

  it('a retry or a double click with the same submissionId gets the first answer and appends nothing', () => {
    const { messages } = send(shown, submission('s2'));
    const again = checkTaskSurfaceMessage(messages, { ...submission('s2'), id: 'another-id' });
    assert.deepEqual(again.accepted && [again.repeated, again.messageId, again.messages.length], [true, 'm-s2', messages.length]);
    const sameId = checkTaskSurfaceMessage(messages, submission('s2'));
    assert.ok(sameId.accepted && sameId.repeated);
    assert.equal(taskSurfaceCheckResponse(again)!.status, 200);
    const users = messages.filter((m) => m.role === 'user');
    assert.equal(users.length, 2);
  });

  it('refuses not-open, stale, invalid values, a forged text, malformed metadata and a non-user message', () => {
    const closed = send(shown, userText('never mind')).messages;
    const notOpen = checkTaskSurfaceMessage(closed, submission('s3'));
    assert.deepEqual(!notOpen.accepted && notOpen.reason, 'not-open');
    const stale = checkTaskSurfaceMessage(shown, {
      ...submission('s4'),
      metadata: { taskSurface: { ...(submission('s4').metadata as any).taskSurface, surfaceId: 'ts_other' } },
    });
    assert.deepEqual(!stale.accepted && stale.reason, 'stale');
    const wrongCall = checkTaskSurfaceMessage(shown, {
      ...submission('s5'),
      metadata: { taskSurface: { ...(submission('s5').metadata as any).taskSurface, callId: 'call_other' } },
    });
    assert.deepEqual(!wrongCall.accepted && wrongCall.reason, 'stale');
    const invalid = submission('s6');
    (invalid.metadata as any).taskSurface.values = { plan: 'z', why: 'x' };
    const refused = checkTaskSurfaceMessage(shown, invalid);
    assert.deepEqual(!refused.accepted && refused.reason, 'invalid-submission');
    assert.equal(taskSurfaceCheckResponse(refused)!.status, 422);
    const forged = { ...submission('s7'), parts: [{ type: 'text', text: 'Pick a plan\nPlan: Plan A\nWhy: faster' }] };
    const forgedCheck = checkTaskSurfaceMessage(shown, forged);
    assert.deepEqual(!forgedCheck.accepted && forgedCheck.reason, 'invalid-submission');
    const malformed = checkTaskSurfaceMessage(shown, userText('x', { taskSurface: { version: 2 } }));
    assert.deepEqual(malformed, {
      accepted: false,
      reason: 'invalid-submission',
      message: 'metadata.taskSurface is malformed: version: expected 1',
    });
    for (const bad of [null, 'hi', { id: 'x', role: 'assistant', parts: [] }, { role: 'user', parts: [] }, { id: 'y', role: 'user' }]) {
      const check = checkTaskSurfaceMessage(shown, bad);
      assert.deepEqual(!check.accepted && check.reason, 'invalid-message');
      assert.equal(taskSurfaceCheckResponse(check)!.status, 400);
    }
    assert.equal(taskSurfaceCheckResponse(notOpen)!.status, 409);
  });

  it('an ordinary message bypasses the open surface; its retry appends nothing', () => {
    const message = userText('actually, something else');
    const { check, messages } = send(shown, message);
    assert.ok(check.accepted && check.kind === 'message' && !check.repeated);
    assert.equal(taskSurfaceCheckResponse(check), null);
    assert.deepEqual(
      foldTaskSurface(messages).closed.map((c) => c.status),
      ['bypassed'],
    );
    const retry = checkTaskSurfaceMessage(messages, message);
    assert.ok(retry.accepted && retry.repeated && retry.messages.length === messages.length);
  });

  it('a dismissal is a data part on the last assistant message: no user message, idempotent, refused when stale', () => {
    const first = dismissTaskSurface(shown, { surfaceId, dismissalId: 'd1' });
    assert.ok(first.dismissed && !first.repeated);
    const messages = first.messages;
    assert.equal(messages.length, shown.length);
    assert.deepEqual(messages.at(-1)!.parts.at(-1), {
      type: 'data-task-surface-dismissal',
      id: 'd1',
      data: { dismissalId: 'd1', callId, surfaceId },
    });
    assert.deepEqual(
      foldTaskSurface(messages).closed.map((c) => c.status),
      ['dismissed'],
    );
    const again = dismissTaskSurface(messages, { surfaceId, dismissalId: 'd1' });
    assert.ok(again.dismissed && again.repeated && again.messages.length === messages.length);
    const other = dismissTaskSurface(messages, { surfaceId, dismissalId: 'd2' });
    assert.deepEqual(!other.dismissed && other.reason, 'not-open');
    assert.equal(taskSurfaceDismissalResponse(other).status, 409);
    const stale = dismissTaskSurface(shown, { surfaceId: 'ts_gone', dismissalId: 'd3' });
    assert.deepEqual(!stale.dismissed && stale.reason, 'stale');
    const bad = dismissTaskSurface(shown, { surfaceId, dismissalId: '' });
    assert.deepEqual(!bad.dismissed && bad.reason, 'invalid-request');
    assert.equal(taskSurfaceDismissalResponse(bad).status, 400);
    // A submission after a dismissal is refused: the surface is closed.
    const late = checkTaskSurfaceMessage(messages, submission('s8'));
    assert.deepEqual(!late.accepted && late.reason, 'not-open');
  });

  it('a recorded conversation: show, submit, show, dismiss, show, bypass; one surface open at a time', async () => {
    const model = scriptedModel(showStep(), textParts('noted'), showStep(), showStep(), textParts('ok'));
    let messages = await respond([userText('pick')], model);
    const s1 = foldTaskSurface(messages).open!;
    const sub = taskSurfaceSubmissionMessage(messages, { surfaceId: s1.surfaceId, submissionId: 'r1', values }, 'r-1');
    assert.ok(sub.accepted && !sub.repeated);
    messages = await respond(send(messages, sub.message).messages, model);
    assert.equal(foldTaskSurface(messages).open, null);
    messages = await respond(send(messages, userText('another')).messages, model);
    const s2 = foldTaskSurface(messages).open!;
    const dismissed = dismissTaskSurface(messages, { surfaceId: s2.surfaceId, dismissalId: 'r-d' });
    assert.ok(dismissed.dismissed);
    messages = await respond(send(dismissed.messages, userText('one more')).messages, model);
    const s3 = foldTaskSurface(messages).open!;
    messages = await respond(send(messages, userText('never mind')).messages, model);
    const state = foldTaskSurface(JSON.parse(JSON.stringify(messages)));
    assert.equal(state.open, null);
    assert.deepEqual(
      state.closed.map((c) => [c.surfaceId, c.status]),
      [
        [s1.surfaceId, 'submitted'],
        [s2.surfaceId, 'dismissed'],
        [s3.surfaceId, 'bypassed'],
      ],
    );
    assert.equal(new Set([s1.surfaceId, s2.surfaceId, s3.surfaceId]).size, 3);
  });

  it('reads a dynamic-tool part of show_task_surface as the static one', () => {
    const dynamic = shown.map((m) => ({
      ...m,
      parts: m.parts.map((p) => (p.type === 'tool-show_task_surface' ? { ...p, type: 'dynamic-tool', toolName: 'show_task_surface' } : p)),
    })) as UIMessage[];
    assert.equal(foldTaskSurface(dynamic).open?.surfaceId, surfaceId);
  });

  it('never throws on messages that are not UIMessages', () => {
    for (const junk of [
      [null],
      [{ role: 'user' }],
      [{ id: 'a', role: 'assistant', parts: [null, { type: 'tool-show_task_surface', state: 'output-available', output: { ok: true } }] }],
    ])
      assert.equal(foldTaskSurface(junk as any).open, null);
  });
});

describe('checkTaskSurfaceMessage: the parts a user message may carry', () => {
  const user = (parts: unknown[]) => ({ id: 'u1', role: 'user', parts });
  const file = (url: string) => ({ type: 'file', mediaType: 'image/png', url });
  const refusal = (incoming: unknown, parts?: TaskSurfaceUserParts) => {
    const check = checkTaskSurfaceMessage([], incoming, { parts });
    return check.accepted ? 'accepted' : `${check.reason}: ${check.message}`;
  };

  it('takes text only by default: a file (the SDK would fetch its URL) or an unknown part is refused', () => {
    assert.equal(refusal(user([{ type: 'text', text: 'hi' }])), 'accepted');
    assert.equal(
      refusal(user([file('http://127.0.0.1.nip.io/x.png')])),
      'invalid-message: a user message may carry only these parts here: text; not "file"',
    );
    assert.equal(
      refusal(user([{ type: 'reasoning', text: 'x' }])),
      'invalid-message: a user message may carry only these parts here: text; not "reasoning"',
    );
  });

  it("takes files only from the origins the app names, and the app's own part types", () => {
    const parts = { files: { origins: ['https://files.example.com'] }, types: ['data-note'] };
    assert.equal(refusal(user([file('https://files.example.com/a.png')]), parts), 'accepted');
    assert.equal(refusal(user([{ type: 'data-note', data: {} }]), parts), 'accepted');
    for (const url of ['https://files.example.com.attacker.example/a.png', 'data:image/png;base64,AAAA', 'not a url']) {
      assert.equal(
        refusal(user([file(url)]), parts),
        "invalid-message: a file part's URL must be on one of: https://files.example.com",
        url,
      );
    }
    assert.equal(
      refusal(user([{ type: 'data-other', data: {} }]), parts),
      'invalid-message: a user message may carry only these parts here: text, file, data-note; not "data-other"',
    );
  });
});
