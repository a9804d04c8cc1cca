// A fast-check model-based test: random sequences of every host operation, against both stores,
// with the invariants checked after every step.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { effectiveLog } from '../../host/projection.js';
import { foldTaskSurface } from '../../host/taskSurface/projection.js';
import type { TaskSurfaceHostService } from '../../host/taskSurface/index.js';
import type { AgentDriver, AgentTurn, ClaimHandle, Host } from '../../host/types.js';
import type { MessageId, SessionId, TaskSurfaceDismissalId, TaskSurfaceId, TaskSurfaceSubmissionId } from '../../protocol/index.js';
import { counterIds, goodValues, ids, makeHost, sampleModel } from './helpers.js';
import { storeFactories, type StoreHandle } from './stores.js';

const SHOW = 'please show a surface';
const stats = new Map<string, number>();

/** Shows a surface in every turn whose input asks for one; otherwise replies. */
class ShowDriver implements AgentDriver {
  async runTurn(turn: AgentTurn) {
    turn.step();
    if (turn.input.some((m) => m.text === SHOW)) await turn.callTool('show_task_surface', { model: sampleModel() });
    else turn.reply('ok');
  }
}

interface Real {
  host: Host;
  handle: StoreHandle;
  /** Shared by every host of one run, like random ids would be. */
  ids: ReturnType<typeof counterIds>;
}

interface Model {
  sessions: SessionId[];
  claims: { sessionId: SessionId; handle: ClaimHandle }[];
  /** Accepted submissions not discarded: submissionId → first messageId. */
  submissions: Map<TaskSurfaceSubmissionId, { sessionId: SessionId; messageId: MessageId }>;
  submissionIds: { sessionId: SessionId; id: TaskSurfaceSubmissionId }[];
  dismissals: Map<TaskSurfaceDismissalId, { sessionId: SessionId; eventSeq: number }>;
  /** Ordinary messages sent and not discarded, in send order (durable ones are dropped at a restart). */
  messages: Map<MessageId, { sessionId: SessionId; text: string }>;
}

type Command = fc.AsyncCommand<Model, Real>;
const pick = <T>(list: readonly T[], n: number): T | undefined => (list.length ? list[n % list.length] : undefined);
const active = (r: Real, s: SessionId) => r.host.getView(s).taskSurface.active;

async function checkInvariants(m: Model, r: Real) {
  for (const sessionId of m.sessions) {
    const effective = effectiveLog(r.handle.store.read(sessionId));
    // At most one durable user message per submissionId and per surface.
    const bySubmission = new Map<string, number>();
    const bySurface = new Map<string, number>();
    for (const e of effective) {
      if (e.type !== 'user/message' || !e.source.taskSurface) continue;
      const c = e.source.taskSurface;
      bySubmission.set(c.submissionId, (bySubmission.get(c.submissionId) ?? 0) + 1);
      bySurface.set(`${c.callId}/${c.surfaceId}`, (bySurface.get(`${c.callId}/${c.surfaceId}`) ?? 0) + 1);
    }
    for (const [key, n] of [...bySubmission, ...bySurface]) assert.ok(n <= 1, `${n} durable messages for ${key}`);
    // No message (ordinary or not) is durable twice.
    const messageIds = effective.flatMap((e) => (e.type === 'user/message' ? [e.messageId] : []));
    assert.equal(new Set(messageIds).size, messageIds.length, 'a message is durable twice');
    // The projection equals a fresh fold.
    const { active } = r.host.getView(sessionId).taskSurface;
    assert.deepEqual(active && { callId: active.callId, surfaceId: active.surfaceId }, foldTaskSurface(effective).active);
    // No pending record without a queue row or a claim, and no correlated row without a record.
    const rows = [...r.host.getView(sessionId).queue, ...r.host.inbox.claimed(sessionId)];
    const records = (r.host.taskSurface as TaskSurfaceHostService).pendingRecords(sessionId);
    // The pushed view carries the open surface's pending record, and only that one.
    const own = active && records.find((record) => record.callId === active.callId);
    assert.equal(active?.pending?.messageId, own?.messageId);
    for (const record of records)
      assert.ok(
        rows.some((row) => row.messageId === record.messageId),
        'pending record without a row',
      );
    for (const row of rows.filter((row) => row.source.taskSurface)) {
      assert.ok(
        records.some((record) => record.messageId === row.messageId),
        'correlated row without a pending record',
      );
    }
  }
}

const cmd = (name: string, check: (m: Model) => boolean, run: (m: Model, r: Real) => Promise<void>): Command => ({
  check,
  async run(m, r) {
    const kind = name.replace(/\(.*/, '');
    stats.set(`ran ${kind}`, (stats.get(`ran ${kind}`) ?? 0) + 1);
    await run(m, r);
    await checkInvariants(m, r);
  },
  toString: () => name,
});

/** fc.commands picks arbitraries uniformly: repeat the ones that make later steps meaningful. */
const weighted = (list: fc.Arbitrary<Command>[], weights: number[]) => list.flatMap((a, i) => Array(weights[i] ?? 1).fill(a));

const session = (n: number) => (m: Model) => pick(m.sessions, n)!;

function commands(): fc.Arbitrary<Command>[] {
  const n = fc.nat(1000);
  return [
    n.map((i) =>
      cmd(
        `show(${i})`,
        (m) => m.claims.every((c) => c.sessionId !== session(i)(m)),
        async (m, r) => {
          const sessionId = session(i)(m);
          const sent = await r.host.session.send({ sessionId, messageId: ids.message(), rpcId: ids.rpc(), text: SHOW });
          assert.ok(sent.accepted);
          await r.host.session.updateQueue({ sessionId, op: 'steer', itemId: sent.itemId });
          // Claim every steering row first (steering rows go first), so that one turn admits them all.
          const handles: ClaimHandle[] = [];
          while (r.host.getView(sessionId).queue.some((row) => row.placement === 'steering'))
            handles.push(r.host.inbox.claimNext(sessionId)!);
          for (const handle of handles) handle.commit();
          await r.host.whenIdle(sessionId);
          assert.ok(active(r, sessionId), 'the turn showed a surface');
        },
      ),
    ),
    fc.tuple(n, fc.constantFrom('new', 'same', 'other' as const)).map(([i, kind]) =>
      cmd(
        `submit(${i}, ${kind})`,
        () => true,
        async (m, r) => {
          const sessionId = session(i)(m);
          const open = active(r, sessionId);
          const earlier = m.submissionIds.filter((s) => s.sessionId === sessionId);
          const submissionId = kind === 'same' && earlier.length ? pick(earlier, i)!.id : ids.submission();
          const surfaceId = (kind === 'other' ? 'not-the-surface' : (open?.surfaceId ?? 'none')) as TaskSurfaceId;
          const result = await r.host.taskSurface.submit({ sessionId, surfaceId, submissionId, values: goodValues });
          const first = m.submissions.get(submissionId);
          if (first) assert.deepEqual(result, { accepted: true, messageId: first.messageId, phase: 'queued' });
          else if (!open) assert.deepEqual(result, { accepted: false, reason: 'not-open' });
          else if (kind === 'other') assert.deepEqual(result, { accepted: false, reason: 'stale' });
          stats.set(
            `submit ${kind} ${result.accepted ? 'accepted' : result.reason}`,
            (stats.get(`submit ${kind} ${result.accepted ? 'accepted' : result.reason}`) ?? 0) + 1,
          );
          if (result.accepted) {
            m.submissions.set(submissionId, { sessionId, messageId: result.messageId });
            m.submissionIds.push({ sessionId, id: submissionId });
          }
        },
      ),
    ),
    fc.tuple(n, fc.boolean()).map(([i, same]) =>
      cmd(
        `dismiss(${i}, ${same ? 'same' : 'new'})`,
        () => true,
        async (m, r) => {
          const sessionId = session(i)(m);
          const earlier = [...m.dismissals].filter(([, d]) => d.sessionId === sessionId);
          const dismissalId = same && earlier.length ? pick(earlier, i)![0] : ids.dismissal();
          const open = active(r, sessionId);
          const before = r.host.getView(sessionId).lastSeq;
          const result = await r.host.taskSurface.dismiss({
            sessionId,
            surfaceId: (open?.surfaceId ?? 'none') as TaskSurfaceId,
            dismissalId,
          });
          const first = m.dismissals.get(dismissalId);
          if (first && result.dismissed) assert.equal(r.host.getView(sessionId).lastSeq, before, 'a retry appends nothing');
          if (result.dismissed) m.dismissals.set(dismissalId, { sessionId, eventSeq: result.eventSeq });
          if (result.dismissed && !first) {
            assert.equal(r.host.getView(sessionId).lastSeq, before + 1, 'a dismissal appends one event');
            assert.equal(r.handle.store.get(sessionId, before + 1)?.type, 'task-surface/dismissed', 'and starts no turn');
          }
        },
      ),
    ),
    n.map((i) =>
      cmd(
        `claim(${i})`,
        () => true,
        async (m, r) => {
          const sessionId = session(i)(m);
          const handle = r.host.inbox.claimNext(sessionId);
          if (handle) m.claims.push({ sessionId, handle });
        },
      ),
    ),
    n.map((i) =>
      cmd(
        `commit(${i})`,
        (m) => m.claims.length > 0,
        async (m, r) => {
          const [claim] = m.claims.splice(i % m.claims.length, 1);
          claim!.handle.commit();
          await r.host.whenIdle(claim!.sessionId);
        },
      ),
    ),
    n.map((i) =>
      cmd(
        `reject(${i})`,
        (m) => m.claims.length > 0,
        async (m, r) => {
          const [claim] = m.claims.splice(i % m.claims.length, 1);
          await discard(m, r, claim!.sessionId, claim!.handle.row, () => claim!.handle.discard('rejected'));
        },
      ),
    ),
    n.map((i) =>
      cmd(
        `remove(${i})`,
        () => true,
        async (m, r) => {
          const sessionId = session(i)(m);
          const row = pick(r.host.getView(sessionId).queue, i);
          if (!row) return;
          await discard(m, r, sessionId, row, async () => {
            assert.deepEqual(await r.host.session.updateQueue({ sessionId, op: 'remove', itemId: row.id }), { ok: true });
          });
        },
      ),
    ),
    fc.tuple(n, fc.constantFrom('edit', 'steer' as const)).map(([i, op]) =>
      cmd(
        `${op}(${i})`,
        () => true,
        async (m, r) => {
          const sessionId = session(i)(m);
          const row = pick(r.host.getView(sessionId).queue, i);
          if (!row) return;
          const request = op === 'edit' ? { sessionId, op, itemId: row.id, text: 'edited' } : { sessionId, op, itemId: row.id };
          const result = await r.host.session.updateQueue(request);
          assert.deepEqual(result, row.source.taskSurface ? { ok: false, reason: 'task-surface-row' } : { ok: true });
          const message = m.messages.get(row.messageId);
          if (message && op === 'edit') message.text = 'edited';
        },
      ),
    ),
    n.map((i) =>
      cmd(
        `message(${i})`,
        () => true,
        async (m, r) => {
          const sessionId = session(i)(m);
          const messageId = ids.message();
          const sent = await r.host.session.send({ sessionId, messageId, rpcId: ids.rpc(), text: `note ${i}` });
          assert.ok(sent.accepted);
          m.messages.set(messageId, { sessionId, text: `note ${i}` });
        },
      ),
    ),
    fc.constant(
      cmd(
        'restart',
        () => true,
        async (m, r) => {
          await r.host.dispose();
          await r.handle.reopen();
          r.host = makeHost(r.handle, { driver: new ShowDriver(), autoAdmit: false, ids: r.ids });
          m.claims = [];
          // Ordinary messages not yet durable (queued or claimed) come back queued, in send order, once.
          for (const [id, message] of m.messages) {
            if (r.handle.store.read(message.sessionId).some((e) => e.type === 'user/message' && e.messageId === id)) m.messages.delete(id);
          }
          for (const sessionId of m.sessions) {
            const ordinary = r.host
              .getView(sessionId)
              .queue.filter((row) => !row.source.taskSurface)
              .map((row) => [row.messageId, row.text]);
            const expected = [...m.messages]
              .filter(([, message]) => message.sessionId === sessionId)
              .map(([id, message]) => [id, message.text]);
            assert.deepEqual(ordinary, expected, 'queued ordinary messages survive the restart');
            stats.set('restart restored rows', (stats.get('restart restored rows') ?? 0) + ordinary.length);
          }
          // Process-local acceptances vanish; durable ones stay answerable.
          for (const [id, s] of m.submissions) {
            const durable = effectiveLog(r.handle.store.read(s.sessionId)).some(
              (e) => e.type === 'user/message' && e.source.taskSurface?.submissionId === id,
            );
            if (!durable) m.submissions.delete(id);
          }
          for (const sessionId of m.sessions) {
            const open = active(r, sessionId);
            if (open) {
              const got = await r.host.taskSurface.getActive({ sessionId, surfaceId: open.surfaceId as TaskSurfaceId });
              assert.ok(got.active && got.pending === null, 'an open surface is editable after a restart');
            }
          }
        },
      ),
    ),
    n.map((i) =>
      cmd(
        `fork(${i})`,
        (m) => m.sessions.length < 4,
        async (m, r) => {
          const source = session(i)(m);
          const throughSeq = i % (r.host.getView(source).lastSeq + 1);
          m.sessions.push(r.host.fork(source, { throughSeq }));
        },
      ),
    ),
    n.map((i) =>
      cmd(
        `rewind(${i})`,
        () => true,
        async (m, r) => {
          const sessionId = session(i)(m);
          r.host.rewind(sessionId, i % (r.host.getView(sessionId).lastSeq + 1));
          m.claims = m.claims.filter((c) => c.sessionId !== sessionId);
          forgetNonDurable(m, r, sessionId);
          // A rewind discards the waiting messages, also from the store.
          for (const [id, message] of m.messages) if (message.sessionId === sessionId) m.messages.delete(id);
          await r.host.whenIdle(sessionId);
        },
      ),
    ),
  ];
}

/** Runs a discard and checks the surface it concerned stays open and editable. */
async function discard(
  m: Model,
  r: Real,
  sessionId: SessionId,
  row: { messageId: MessageId; source: { taskSurface?: { surfaceId: string; submissionId: TaskSurfaceSubmissionId } } },
  act: () => unknown,
) {
  const correlation = row.source.taskSurface;
  const wasOpen = correlation && active(r, sessionId)?.surfaceId === correlation.surfaceId;
  await act();
  m.messages.delete(row.messageId);
  if (correlation) m.submissions.delete(correlation.submissionId);
  if (wasOpen) {
    const got = await r.host.taskSurface.getActive({ sessionId, surfaceId: correlation.surfaceId as TaskSurfaceId });
    assert.ok(got.active, 'a discard leaves the surface open');
    assert.equal(got.pending, null, 'a discard leaves the surface editable');
  }
  await r.host.whenIdle(sessionId);
}

function forgetNonDurable(m: Model, r: Real, sessionId: SessionId) {
  const effective = effectiveLog(r.handle.store.read(sessionId));
  for (const [id, s] of m.submissions) {
    if (s.sessionId !== sessionId) continue;
    if (!effective.some((e) => e.type === 'user/message' && e.source.taskSurface?.submissionId === id)) m.submissions.delete(id);
  }
  for (const [id, d] of m.dismissals) {
    if (d.sessionId === sessionId && !effective.some((e) => e.type === 'task-surface/dismissed' && e.dismissalId === id))
      m.dismissals.delete(id);
  }
}

for (const factory of storeFactories) {
  describe(`model-based host test (${factory.name} store)`, () => {
    it('keeps every invariant through random sequences of operations', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.commands(weighted(commands(), [3, 4, 1, 3, 3, 2, 1, 1, 1, 1, 1, 1]), { maxCommands: 40, size: 'max' }),
          async (cmds) => {
            const handle = await factory.create();
            const hostIds = counterIds();
            const real: Real = {
              handle,
              ids: hostIds,
              host: makeHost(handle, { driver: new ShowDriver(), autoAdmit: false, ids: hostIds }),
            };
            const model: Model = {
              sessions: [real.host.openSession()],
              claims: [],
              submissions: new Map(),
              submissionIds: [],
              dismissals: new Map(),
              messages: new Map(),
            };
            try {
              await fc.asyncModelRun(() => ({ model, real }), cmds);
            } finally {
              await real.host.dispose();
              await handle.cleanup();
            }
          },
        ),
        { numRuns: Number(process.env.MODEL_RUNS ?? (factory.name === 'memory' ? 60 : 25)) },
      );
      if (process.env.MODEL_STATS)
        console.log(
          [...stats]
            .sort()
            .map(([k, v]) => `${k}: ${v}`)
            .join('\n'),
        );
    });
  });
}
