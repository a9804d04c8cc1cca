import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createActor, fromPromise, waitFor } from 'xstate';
import { dockMachine, dockStateName, retryDelay, type DockMachineEmitted } from '../../machines/dockMachine.js';
import { mintUuid } from '../../protocol/ids.js';
import type {
  CallId,
  DismissTaskSurfaceResult,
  GetActiveTaskSurfaceResult,
  MessageId,
  SessionId,
  SubmitTaskSurfaceResult,
  TaskSurfaceId,
  TaskSurfaceModelV1,
  TaskSurfacePendingSubmission,
  TaskSurfaceSubmissionId,
} from '../../protocol/index.js';

const model: TaskSurfaceModelV1 = { version: 1, title: 'T', sections: [], submit: { label: 'Go' } };
const active = { callId: 'c1' as CallId, surfaceId: 'sf1' as TaskSurfaceId };

function start(
  opts: {
    getActive?: () => Promise<GetActiveTaskSurfaceResult>;
    submit?: () => Promise<SubmitTaskSurfaceResult>;
    dismiss?: () => Promise<DismissTaskSurfaceResult>;
  } = {},
) {
  const calls = { getActive: 0, submit: [] as string[], dismiss: [] as string[] };
  const actor = createActor(
    dockMachine.provide({
      actors: {
        getActive: fromPromise(async () => {
          calls.getActive++;
          return (opts.getActive ?? (async () => ({ active: true as const, ...active, model, pending: null })))();
        }),
        submit: fromPromise(async ({ input }) => {
          calls.submit.push(input.submissionId);
          return (opts.submit ?? (async () => ({ accepted: true as const, messageId: 'm1' as never, phase: 'queued' as const })))();
        }),
        dismiss: fromPromise(async ({ input }) => {
          calls.dismiss.push(input.dismissalId);
          return (opts.dismiss ?? (async () => ({ dismissed: true as const, eventSeq: 3 })))();
        }),
      },
    }),
    { input: { sessionId: 's1' as SessionId } },
  );
  const emitted: DockMachineEmitted[] = [];
  actor.on('*', (e) => emitted.push(e));
  actor.start();
  return { actor, calls, emitted };
}
const stateOf = (s: { value: string | Record<string, unknown> }) => dockStateName(s.value);
/** A pushed view of the open surface, carrying the Host's pending submission for it (none by default). */
const open = (pending: TaskSurfacePendingSubmission | null = null) => ({ type: 'projection.changed' as const, active, pending });
const held = (submissionId: string, phase: 'queued' | 'claiming') => ({
  submissionId: submissionId as TaskSurfaceSubmissionId,
  messageId: 'm1' as MessageId,
  phase,
});
const closed = { type: 'projection.changed' as const, active: null, pending: null };

describe('dockMachine', () => {
  it('loads the active surface and edits it', async () => {
    const { actor, calls } = start();
    assert.equal(stateOf(actor.getSnapshot()), 'hidden');
    actor.send(open());
    assert.equal(stateOf(actor.getSnapshot()), 'loading');
    await waitFor(actor, (s) => stateOf(s) === 'editing');
    assert.equal(calls.getActive, 1);
    actor.send(open()); // the same identity again: nothing to do
    assert.equal(calls.getActive, 1);
  });

  it('submits once per attempt, then follows the phase the view carries', async () => {
    const { actor, calls, emitted } = start();
    actor.send(open());
    await waitFor(actor, (s) => stateOf(s) === 'editing');
    actor.send({ type: 'user.submit', values: { a: 'x' } });
    actor.send({ type: 'user.submit', values: { a: 'x' } });
    await waitFor(actor, (s) => stateOf(s) === 'pending');
    assert.equal(calls.submit.length, 1);
    assert.equal(emitted.filter((e) => e.type === 'submitted').length, 1);
    const id = calls.submit[0]!;
    const reads = calls.getActive;
    actor.send(open(held(id, 'queued')));
    assert.equal(stateOf(actor.getSnapshot()), 'pending');
    // The view carries the claim: the Dock follows it without asking getActive.
    actor.send(open(held(id, 'claiming')));
    assert.equal(stateOf(actor.getSnapshot()), 'pending');
    assert.equal(actor.getSnapshot().context.phase, 'claiming');
    assert.equal(calls.getActive, reads, 'no getActive round trip per claim');
    actor.send(closed);
    assert.equal(stateOf(actor.getSnapshot()), 'hidden');
    assert.deepEqual(emitted.at(-1), { type: 'closed', surfaceId: 'sf1' });
  });

  it('a claim the view reports before the submit answer arrives is not lost', async () => {
    let answer!: (result: SubmitTaskSurfaceResult) => void;
    const { actor, calls } = start({
      submit: () =>
        new Promise((resolve) => {
          answer = resolve;
        }),
    });
    actor.send(open());
    await waitFor(actor, (s) => stateOf(s) === 'editing');
    actor.send({ type: 'user.submit', values: {} });
    await waitFor(actor, (s) => stateOf(s) === 'submitting' && answer !== undefined);
    actor.send(open(held(calls.submit[0]!, 'claiming')));
    answer({ accepted: true, messageId: 'm1' as MessageId, phase: 'queued' });
    await waitFor(actor, (s) => stateOf(s) === 'pending');
    assert.equal(actor.getSnapshot().context.phase, 'claiming');
    assert.equal(calls.getActive, 1);
  });

  it('a view that closes the surface before the submit answer arrives: submitted, then closed', async () => {
    // In-process, the Host can claim the submission and close the surface before submit resolves.
    let answer!: (result: SubmitTaskSurfaceResult) => void;
    const { actor, calls, emitted } = start({ submit: () => new Promise((resolve) => (answer = resolve)) });
    actor.send(open());
    await waitFor(actor, (s) => stateOf(s) === 'editing');
    actor.send({ type: 'user.submit', values: {} });
    await waitFor(actor, (s) => stateOf(s) === 'submitting' && answer !== undefined);
    actor.send({ type: 'projection.changed', active: null, pending: null });
    assert.equal(stateOf(actor.getSnapshot()), 'submitting', 'the closing view waits for the answer');
    answer({ accepted: true, messageId: 'm1' as MessageId, phase: 'queued' });
    await waitFor(actor, (s) => stateOf(s) === 'hidden');
    assert.deepEqual(
      emitted.map((e) => e.type),
      ['submitted', 'closed'],
    );
    assert.deepEqual(emitted[0], { type: 'submitted', surfaceId: active.surfaceId, submissionId: calls.submit[0], messageId: 'm1' });
  });

  it('a view that closes the surface before the dismiss answer arrives: dismissed, then closed', async () => {
    let answer!: (result: DismissTaskSurfaceResult) => void;
    const { actor, emitted } = start({ dismiss: () => new Promise((resolve) => (answer = resolve)) });
    actor.send(open());
    await waitFor(actor, (s) => stateOf(s) === 'editing');
    actor.send({ type: 'user.dismiss' });
    await waitFor(actor, (s) => stateOf(s) === 'dismissing' && answer !== undefined);
    actor.send({ type: 'projection.changed', active: null, pending: null });
    answer({ dismissed: true, eventSeq: 3 });
    await waitFor(actor, (s) => stateOf(s) === 'hidden');
    assert.deepEqual(
      emitted.map((e) => e.type),
      ['dismissed', 'closed'],
    );
  });

  it('a newer surface shown while a submit was out opens once the answer is in', async () => {
    let answer!: (result: SubmitTaskSurfaceResult) => void;
    const { actor, emitted } = start({ submit: () => new Promise((resolve) => (answer = resolve)) });
    actor.send(open());
    await waitFor(actor, (s) => stateOf(s) === 'editing');
    actor.send({ type: 'user.submit', values: {} });
    await waitFor(actor, (s) => stateOf(s) === 'submitting' && answer !== undefined);
    const next = { callId: 'c2' as CallId, surfaceId: 'sf2' as TaskSurfaceId };
    actor.send({ type: 'projection.changed', active: next, pending: null });
    answer({ accepted: true, messageId: 'm1' as MessageId, phase: 'queued' });
    await waitFor(actor, (s) => stateOf(s) === 'editing' && s.context.active?.surfaceId === next.surfaceId);
    assert.deepEqual(
      emitted.map((e) => e.type),
      ['submitted'],
    );
  });

  it("locks when the view carries another tab's submission: re-reads getActive, then follows it", async () => {
    let result: GetActiveTaskSurfaceResult = { active: true, ...active, model, pending: null };
    const { actor, calls } = start({ getActive: async () => result });
    actor.send(open());
    await waitFor(actor, (s) => stateOf(s) === 'editing');
    actor.send(open()); // a view without a submission changes nothing
    assert.equal(stateOf(actor.getSnapshot()), 'editing');
    result = { active: true, ...active, model, pending: held('elsewhere', 'queued') };
    actor.send(open(held('elsewhere', 'queued')));
    await waitFor(actor, (s) => stateOf(s) === 'pending');
    assert.equal(calls.getActive, 2);
    actor.send(open(held('elsewhere', 'claiming')));
    assert.equal(actor.getSnapshot().context.phase, 'claiming');
    assert.equal(calls.getActive, 2);
    assert.equal(calls.submit.length, 0);
  });

  it('restores editing with a fresh id after a discard', async () => {
    let result: GetActiveTaskSurfaceResult = { active: true, ...active, model, pending: null };
    const { actor, calls } = start({ getActive: async () => result });
    actor.send(open());
    await waitFor(actor, (s) => stateOf(s) === 'editing');
    actor.send({ type: 'user.submit', values: {} });
    await waitFor(actor, (s) => stateOf(s) === 'pending');
    result = { active: true, ...active, model, pending: null };
    actor.send(open());
    await waitFor(actor, (s) => stateOf(s) === 'editing');
    actor.send({ type: 'user.submit', values: {} });
    await waitFor(actor, (s) => stateOf(s) === 'pending');
    assert.notEqual(calls.submit[0], calls.submit[1]);
  });

  it('keeps the submission id after a transport error and shows the rejection', async () => {
    let fail = true;
    const { actor, calls } = start({
      submit: async () => {
        if (fail) throw new Error('offline');
        return { accepted: false, reason: 'invalid-submission' };
      },
    });
    actor.send(open());
    await waitFor(actor, (s) => stateOf(s) === 'editing');
    actor.send({ type: 'user.submit', values: {} });
    await waitFor(actor, (s) => stateOf(s) === 'rejected');
    assert.deepEqual(actor.getSnapshot().context.rejection, { action: 'submit', reason: 'transport' });
    fail = false;
    actor.send({ type: 'user.submit', values: {} });
    await waitFor(actor, (s) => stateOf(s) === 'rejected' && s.context.rejection?.reason === 'invalid-submission');
    assert.equal(calls.submit[0], calls.submit[1]);
    assert.equal(actor.getSnapshot().context.submissionId, null);
  });

  it('dismisses, reusing the dismissal id on retry; collapse changes only local context', async () => {
    let fail = true;
    const { actor, calls, emitted } = start({
      dismiss: async () => {
        if (fail) throw new Error('offline');
        return { dismissed: true, eventSeq: 4 };
      },
    });
    actor.send(open());
    await waitFor(actor, (s) => stateOf(s) === 'editing');
    actor.send({ type: 'user.collapse' });
    assert.equal(actor.getSnapshot().context.collapsed, true);
    assert.equal(stateOf(actor.getSnapshot()), 'editing');
    actor.send({ type: 'user.dismiss' });
    await waitFor(actor, (s) => stateOf(s) === 'rejected');
    fail = false;
    actor.send({ type: 'user.dismiss' });
    await waitFor(actor, (s) => stateOf(s) === 'hidden');
    assert.equal(calls.dismiss[0], calls.dismiss[1]);
    assert.deepEqual(
      emitted.slice(-2).map((e) => e.type),
      ['dismissed', 'closed'],
    );
  });

  it('re-reads on submission-pending and closes on not-open', async () => {
    let result: GetActiveTaskSurfaceResult = { active: true, ...active, model, pending: null };
    const { actor } = start({ getActive: async () => result, submit: async () => ({ accepted: false, reason: 'submission-pending' }) });
    actor.send(open());
    await waitFor(actor, (s) => stateOf(s) === 'editing');
    result = { active: true, ...active, model, pending: { submissionId: 'other' as never, messageId: 'm' as never, phase: 'queued' } };
    actor.send({ type: 'user.submit', values: {} });
    await waitFor(actor, (s) => stateOf(s) === 'pending');
    assert.equal(actor.getSnapshot().context.submissionId, 'other');
    result = { active: false, reason: 'not-open' };
    actor.send(open());
    await waitFor(actor, (s) => stateOf(s) === 'hidden');
  });

  it('a submit whose answer is lost stays locked and re-reads getActive (with back-off) until it knows', async () => {
    // The Host accepted it; the answer is lost, then the first re-read fails too.
    let reads = 0;
    let submissionId = '';
    const { actor, calls, emitted } = start({
      submit: async () => {
        throw new Error('connection dropped');
      },
      getActive: async () => {
        reads++;
        if (reads === 2) throw new Error('still offline');
        return {
          active: true,
          ...active,
          model,
          pending: reads === 1 ? null : { submissionId: submissionId as never, messageId: 'm9' as never, phase: 'queued' },
        };
      },
    });
    const seen: string[] = [];
    actor.subscribe((s) => seen.push(`${stateOf(s)}:${s.hasTag('locked') ? 'locked' : 'editable'}`));
    actor.send(open());
    await waitFor(actor, (s) => stateOf(s) === 'editing');
    seen.length = 0;
    actor.send({ type: 'user.submit', values: { a: 'x' } });
    submissionId = calls.submit[0]!;
    await waitFor(actor, (s) => stateOf(s) === 'pending', { timeout: 3000 });
    assert.deepEqual([...new Set(seen)], ['submitting:locked', 'loading:locked', 'retrying:locked', 'pending:locked']);
    assert.equal(calls.submit.length, 1);
    assert.deepEqual(
      emitted.filter((e) => e.type !== 'closed'),
      [{ type: 'submitted', surfaceId: 'sf1', submissionId, messageId: 'm9' }],
    );
    assert.equal(actor.getSnapshot().can({ type: 'user.submit', values: {} }), false);
  });

  it('a submit whose answer is lost and that the Host never got becomes editable again, with the same id for the retry', async () => {
    let fail = true;
    const { actor, calls, emitted } = start({
      submit: async () => {
        if (fail) throw new Error('offline');
        return { accepted: true, messageId: 'm2' as never, phase: 'queued' };
      },
    });
    actor.send(open());
    await waitFor(actor, (s) => stateOf(s) === 'editing');
    actor.send({ type: 'user.submit', values: {} });
    await waitFor(actor, (s) => stateOf(s) === 'rejected');
    assert.equal(calls.getActive, 2, 'it asked the Host before unlocking');
    assert.deepEqual(emitted.at(-1), { type: 'rejected', surfaceId: 'sf1', action: 'submit', reason: 'transport' });
    assert.equal(actor.getSnapshot().hasTag('locked'), false);
    fail = false;
    actor.send({ type: 'user.submit', values: {} });
    await waitFor(actor, (s) => stateOf(s) === 'pending');
    assert.equal(calls.submit[1], calls.submit[0]);
  });

  it('a failed getActive retries with back-off and the surface comes back by itself', async () => {
    let failures = 2;
    const { actor, calls } = start({
      getActive: async () => {
        if (failures-- > 0) throw new Error('offline');
        return { active: true, ...active, model, pending: null };
      },
    });
    actor.send(open());
    await waitFor(actor, (s) => stateOf(s) === 'retrying');
    assert.equal(actor.getSnapshot().context.failures, 1);
    actor.send(open()); // a view of the same surface: the connection is back, try at once
    await waitFor(actor, (s) => stateOf(s) === 'retrying' && s.context.failures === 2);
    await waitFor(actor, (s) => stateOf(s) === 'editing', { timeout: 3000 });
    assert.equal(calls.getActive, 3);
    assert.equal(actor.getSnapshot().context.failures, 0);
    assert.equal(actor.getSnapshot().context.model, model);
  });

  it('back-off doubles from 250 ms to at most 8 s, with jitter', () => {
    for (let i = 0; i < 50; i++) {
      const first = retryDelay(1);
      assert.ok(first >= 200 && first <= 300, `first delay ${first}`);
      const third = retryDelay(3);
      assert.ok(third >= 800 && third <= 1200, `third delay ${third}`);
      assert.ok(retryDelay(30) <= 9600);
    }
  });

  it('closes while retrying when the surface closes', async () => {
    const { actor, emitted } = start({
      getActive: async () => {
        throw new Error('offline');
      },
    });
    actor.send(open());
    await waitFor(actor, (s) => stateOf(s) === 'retrying');
    actor.send(closed);
    assert.equal(stateOf(actor.getSnapshot()), 'hidden');
    assert.deepEqual(emitted, [{ type: 'closed', surfaceId: 'sf1' }]);
  });

  it('mints UUIDs without randomUUID (pages served over plain http)', () => {
    const original = globalThis.crypto.randomUUID;
    Object.defineProperty(globalThis.crypto, 'randomUUID', { value: undefined, configurable: true });
    try {
      const a = mintUuid();
      assert.match(a, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      assert.notEqual(a, mintUuid());
    } finally {
      Object.defineProperty(globalThis.crypto, 'randomUUID', { value: original, configurable: true });
    }
  });
});
