import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createActor, initialTransition, transition, type InspectionEvent } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { surfaceMachine, type SurfaceEvent } from '../../machines/surfaceMachine.js';
import type { CallId, MessageId, TaskSurfaceId, TaskSurfaceSubmissionId } from '../../protocol/index.js';

const input = { callId: 'c1' as CallId, surfaceId: 's1' as TaskSurfaceId };
const submissionId = 'sub1' as TaskSurfaceSubmissionId;
const events: SurfaceEvent[] = [
  { type: 'submission.accepted', submissionId, messageId: 'm1' as MessageId },
  { type: 'queue.claimed' },
  { type: 'submission.discarded', reason: 'removed' },
  { type: 'log.submitted', submissionId },
  { type: 'log.dismissed' },
  { type: 'log.bypassed' },
  // The host names the occurrence: a free actor takes another occurrence's submission too.
  { type: 'submission.accepted', callId: 'c2' as CallId, surfaceId: 's2' as TaskSurfaceId, submissionId, messageId: 'm2' as MessageId },
];

const expectedPending = (value: unknown, hadPending: boolean) =>
  value === 'queued' || value === 'claiming' || (hadPending && JSON.stringify(value) === '{"closed":"bypassed"}');

describe('surfaceMachine', () => {
  const model = createTestModel(surfaceMachine, { events, input } as never);
  const paths = model.getShortestPaths({ allowDuplicatePaths: true });

  it('reaches every state by a shortest path', () => {
    const reached = new Set(paths.map((p) => JSON.stringify(p.state.value)));
    for (const state of ['"open"', '"queued"', '"claiming"', '{"closed":"submitted"}', '{"closed":"dismissed"}', '{"closed":"bypassed"}']) {
      assert.ok(reached.has(state), `no path to ${state}`);
    }
  });

  for (const path of paths) {
    it(`path: ${path.description}`, async () => {
      const inspected: InspectionEvent[] = [];
      const actor = createActor(surfaceMachine, { input, inspect: (e) => inspected.push(e) }).start();
      let hadPending = false;
      await path.test({
        events: Object.fromEntries(
          events.map((e) => [
            e.type,
            ({ event }: { event: SurfaceEvent }) => {
              const before = actor.getSnapshot();
              actor.send(event);
              // A submission never replaces a held record.
              if (event.type === 'submission.accepted' && before.context.pending !== null) assert.equal(actor.getSnapshot(), before);
              if (event.type === 'submission.accepted' && before.context.pending === null) hadPending = false;
            },
          ]),
        ),
        states: {
          '*': (state: { value: unknown }) => {
            const snapshot = actor.getSnapshot();
            assert.deepEqual(snapshot.value, state.value);
            if (snapshot.value === 'queued') hadPending = true;
            // A pending record exists exactly while a submission is queued or claiming (or was
            // overtaken by a bypass and still awaits its outcome).
            assert.equal(
              snapshot.context.pending !== null,
              expectedPending(snapshot.value, hadPending) && snapshot.context.pending !== null,
            );
            if (snapshot.value === 'queued' || snapshot.value === 'claiming') assert.ok(snapshot.context.pending);
            if (snapshot.value === 'open') assert.equal(snapshot.context.pending, null);
          },
        },
      } as never);
      assert.equal(inspected[0]?.type, '@xstate.actor');
      actor.stop();
    });
  }

  it('replays durable log events as a pure fold with transition()', () => {
    const [open] = initialTransition(surfaceMachine, input);
    assert.equal(open.value, 'open');
    for (const [event, state] of [
      ['log.submitted', 'submitted'],
      ['log.dismissed', 'dismissed'],
      ['log.bypassed', 'bypassed'],
    ] as const) {
      const [next, actions] = transition(surfaceMachine, open, event === 'log.submitted' ? { type: event, submissionId } : { type: event });
      assert.deepEqual(next.value, { closed: state });
      // The fold runs no effects: transition() only returns actions, nothing was sent or spawned.
      assert.ok(actions.every((a) => !String(a.type).startsWith('xstate.spawn')));
    }
    // A closed occurrence ignores everything durable that follows.
    const [closed] = transition(surfaceMachine, open, { type: 'log.dismissed' });
    assert.deepEqual(transition(surfaceMachine, closed, { type: 'log.bypassed' })[0].value, { closed: 'dismissed' });
  });

  it("an actor holding no record takes the next occurrence's submission; one holding a record refuses it", () => {
    const next = {
      type: 'submission.accepted',
      callId: 'c2' as CallId,
      surfaceId: 's2' as TaskSurfaceId,
      submissionId: 'sub2' as TaskSurfaceSubmissionId,
      messageId: 'm2' as MessageId,
    } as const;
    const actor = createActor(surfaceMachine, { input }).start();
    actor.send(events[0]!);
    assert.equal(actor.getSnapshot().can(next), false, 'queued');
    actor.send({ type: 'queue.claimed' });
    assert.equal(actor.getSnapshot().can(next), false, 'claiming');
    actor.send({ type: 'log.bypassed' });
    assert.equal(actor.getSnapshot().can(next), false, 'bypassed, its row still pending');
    actor.send({ type: 'submission.discarded', reason: 'rejected' });
    assert.deepEqual(actor.getSnapshot().value, { closed: 'bypassed' });
    actor.send(next);
    assert.equal(actor.getSnapshot().value, 'queued');
    assert.deepEqual(actor.getSnapshot().context, { callId: 'c2', surfaceId: 's2', pending: { submissionId: 'sub2', messageId: 'm2' } });
    actor.send({ type: 'log.submitted', submissionId: 'sub2' as TaskSurfaceSubmissionId });
    assert.deepEqual(actor.getSnapshot().value, { closed: 'submitted' });
    assert.equal(actor.getSnapshot().context.pending, null);
    actor.send({ ...next, callId: 'c3' as CallId, surfaceId: 's3' as TaskSurfaceId });
    assert.equal(actor.getSnapshot().value, 'queued');
    assert.equal(actor.getSnapshot().context.surfaceId, 's3');
  });

  it('a discard returns to open; a bypass keeps the record until its outcome arrives', () => {
    const actor = createActor(surfaceMachine, { input }).start();
    actor.send(events[0]!);
    actor.send({ type: 'queue.claimed' });
    actor.send({ type: 'submission.discarded', reason: 'cancelled' });
    assert.equal(actor.getSnapshot().value, 'open');
    assert.equal(actor.getSnapshot().context.pending, null);
    actor.send(events[0]!);
    actor.send({ type: 'log.bypassed' });
    assert.deepEqual(actor.getSnapshot().value, { closed: 'bypassed' });
    assert.ok(actor.getSnapshot().context.pending);
    actor.send({ type: 'log.submitted', submissionId });
    assert.equal(actor.getSnapshot().context.pending, null);
  });
});
