// The Host engine: fold throughput against JSON.parse of the same events; getActive on a
// 100,000-event log against a 100-event log (memory and SQLite stores), and getOutcome of the first
// surface the same way (a transcript row's read: never a scan); submit-to-durable-message
// time in process against an ordinary message's send-to-durable time; fork's copy of a 10,000-event
// prefix in one batch against one append per event.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHost } from '../../host/createHost.js';
import { effectiveLog } from '../../host/projection.js';
import { foldTaskSurface } from '../../host/taskSurface/projection.js';
import { createMemoryStore } from '../../host/store/memory.js';
import { createSqliteStore } from '../../host/store/sqlite.js';
import type { SessionLogStore } from '../../host/store/types.js';
import type { AgentTurn, Host } from '../../host/types.js';
import {
  parseTaskSurfaceModel,
  type JsonValue,
  type NewSessionEvent,
  type SessionEvent,
  type SessionId,
  type TaskSurfaceId,
} from '../../protocol/index.js';
import { compare, median } from '../stats.js';

const model: JsonValue = {
  version: 1,
  title: 'Pick a plan',
  sections: [{ id: 'intro', blocks: [{ kind: 'markdown', text: 'Choose one plan.' }] }],
  fields: [
    {
      kind: 'choice',
      id: 'plan',
      label: 'Plan',
      options: [
        { id: 'a', label: 'A' },
        { id: 'b', label: 'B' },
      ],
    },
  ],
  submit: { label: 'Send' },
};
const normalized = (() => {
  const parsed = parseTaskSurfaceModel(model);
  if (!parsed.ok) throw new Error('bench model is invalid');
  return parsed.model;
})();

/** A realistic mix: every 10 events a turn with a tool call, and every 50 a surface shown and answered. */
function* events(count: number, openAtStart: boolean): Generator<NewSessionEvent> {
  let n = 0;
  const turnId = 'turn-1' as never;
  if (openAtStart) {
    yield {
      type: 'tool/call',
      callId: 'open' as never,
      turnId,
      name: 'show_task_surface',
      args: { model },
      origin: 'model',
      agent: 'root',
    };
    yield {
      type: 'tool/result',
      callId: 'open' as never,
      turnId,
      name: 'show_task_surface',
      ok: true,
      content: 'shown',
      meta: { kind: 'task-surface', version: 1, surfaceId: 'surface-open', model: normalized } as unknown as JsonValue,
    };
    n = 2;
  }
  for (let i = 0; n < count; i++) {
    const callId = `call-${i}` as never;
    const mix: NewSessionEvent[] = openAtStart
      ? // Filler that never closes the open surface: assistant text and tool traffic only.
        [
          { type: 'tool/call', callId, turnId, name: 'lookup', args: { q: `query ${i}` }, origin: 'model', agent: 'root' },
          { type: 'tool/result', callId, turnId, name: 'lookup', ok: true, content: `result ${i}` },
          { type: 'assistant/message', messageId: `a-${i}` as never, turnId, text: `answer ${i}` },
        ]
      : [
          { type: 'user/message', messageId: `u-${i}` as never, text: `question ${i}`, source: { kind: 'user', rpcId: `r-${i}` as never } },
          { type: 'turn/started', turnId },
          {
            type: 'tool/call',
            callId,
            turnId,
            name: i % 5 === 0 ? 'show_task_surface' : 'lookup',
            args: { q: i },
            origin: 'model',
            agent: 'root',
          },
          i % 5 === 0
            ? {
                type: 'tool/result',
                callId,
                turnId,
                name: 'show_task_surface',
                ok: true,
                content: 'shown',
                meta: { kind: 'task-surface', version: 1, surfaceId: `s-${i}`, model: normalized } as unknown as JsonValue,
              }
            : { type: 'tool/result', callId, turnId, name: 'lookup', ok: true, content: `result ${i}` },
          { type: 'assistant/message', messageId: `a-${i}` as never, turnId, text: `answer ${i}` },
          { type: 'turn/ended', turnId, outcome: 'completed' },
        ];
    for (const event of mix) {
      if (n++ >= count) return;
      yield event;
    }
  }
}

function fill(store: SessionLogStore, sessionId: SessionId, count: number, openAtStart = true) {
  store.createSession({ sessionId, title: 'bench', createdAt: 0, toolMode: 'native', readOnly: false, locale: 'en' });
  store.appendMany(
    sessionId,
    [...events(count, openAtStart)].map((event) => ({ event, at: 0 })),
  );
}

/** The transcript row's read: the first surface's outcome, 100,000 events later, vs 100 events later. */
async function getOutcomeFigures() {
  const store = createMemoryStore();
  const big = 'big' as SessionId;
  const small = 'small' as SessionId;
  fill(store, big, 100_000, false);
  fill(store, small, 100, false);
  const host = createHost({ store, autoAdmit: false });
  const surfaceId = 's-0' as TaskSurfaceId;
  host.getView(big);
  host.getView(small);
  const check = await host.taskSurface.getOutcome({ sessionId: big, surfaceId });
  if (check.status !== 'bypassed') throw new Error('bench surface is not closed');
  const { subject, baseline, ratio } = compare(
    () => void host.taskSurface.getOutcome({ sessionId: big, surfaceId }),
    () => void host.taskSurface.getOutcome({ sessionId: small, surfaceId }),
    2000,
    200,
  );
  console.log(
    `getOutcome of the first surface: 100,000-event log ${(subject * 1000).toFixed(1)} µs, 100-event log ${(baseline * 1000).toFixed(1)} µs: ratio ${ratio.toFixed(2)} (aim ≤ 1.5)`,
  );
  await host.dispose();
}

async function getActiveFigures(name: string, store: SessionLogStore) {
  const big = 'big' as SessionId;
  const small = 'small' as SessionId;
  fill(store, big, 100_000);
  fill(store, small, 100);
  const host = createHost({ store, autoAdmit: false });
  const surfaceId = 'surface-open' as TaskSurfaceId;
  host.getView(big);
  host.getView(small);
  const check = await host.taskSurface.getActive({ sessionId: big, surfaceId });
  if (!check.active) throw new Error('bench surface is not open');
  const { subject, baseline, ratio } = compare(
    () => void host.taskSurface.getActive({ sessionId: big, surfaceId }),
    () => void host.taskSurface.getActive({ sessionId: small, surfaceId }),
    2000,
    200,
  );
  console.log(
    `getActive, ${name} store: 100,000-event log ${(subject * 1000).toFixed(1)} µs, 100-event log ${(baseline * 1000).toFixed(1)} µs: ratio ${ratio.toFixed(2)} (aim ≤ 1.5)`,
  );
  await host.dispose();
}

async function submitToDurable() {
  // Every turn shows a surface, so each submission's own turn opens the next one.
  const driver = {
    async runTurn(turn: AgentTurn) {
      turn.step();
      await turn.callTool('show_task_surface', { model });
    },
  };
  const host: Host = createHost({ store: createMemoryStore(), driver });
  const sessionId = host.openSession();
  let durable: (() => void) | null = null;
  host.plugins.onEvent((id, event) => {
    if (id === sessionId && event.type === 'user/message') durable?.();
  });
  const timeUntilDurable = async (start: () => Promise<unknown>) => {
    const done = new Promise<void>((resolve) => {
      durable = resolve;
    });
    const t = performance.now();
    await start();
    await done;
    const ms = performance.now() - t;
    await host.whenIdle(sessionId);
    return ms;
  };
  const send = () =>
    host.session.send({ sessionId, messageId: crypto.randomUUID() as never, rpcId: crypto.randomUUID() as never, text: 'hello' });
  await timeUntilDurable(send);
  const submits: number[] = [];
  const sends: number[] = [];
  for (let i = 0; i < 300; i++) {
    sends.push(await timeUntilDurable(send)); // an ordinary message bypasses the open surface…
    await timeUntilDurable(send);
    const surfaceId = host.getView(sessionId).taskSurface.active!.surfaceId as TaskSurfaceId;
    submits.push(
      await timeUntilDurable(() =>
        host.taskSurface.submit({
          sessionId,
          surfaceId,
          submissionId: crypto.randomUUID() as never,
          values: { plan: 'a' },
        }),
      ),
    );
  }
  const s = median(submits.slice(50));
  const b = median(sends.slice(50));
  console.log(
    `submit → durable user message (in process, memory store): ${(s * 1000).toFixed(0)} µs; ordinary send → durable ${(b * 1000).toFixed(0)} µs: ratio ${(s / b).toFixed(2)}`,
  );
  await host.dispose();
}

/**
 * What fork writes: a 10,000-event prefix copied in one `appendMany` batch against the same copy
 * one `append` at a time (what fork did before; SQLite: one transaction per event).
 */
function forkCopyFigures(name: string, store: SessionLogStore) {
  const source = 'fork-source' as SessionId;
  fill(store, source, 10_000);
  let copies = 0;
  const copy = () => {
    const sessionId = `copy-${++copies}` as SessionId;
    store.createSession({ sessionId, title: 'copy', createdAt: 0, toolMode: 'native', readOnly: false, locale: 'en' });
    return { sessionId, entries: store.read(source).map(({ seq: _seq, at, ...event }) => ({ event: event as NewSessionEvent, at })) };
  };
  const { subject, baseline, ratio } = compare(
    () => {
      const { sessionId, entries } = copy();
      store.appendMany(sessionId, entries);
    },
    () => {
      const { sessionId, entries } = copy();
      for (const { event, at } of entries) store.append(sessionId, event, at);
    },
    10,
    2,
  );
  console.log(
    `fork's copy of a 10,000-event prefix, ${name} store: ${subject.toFixed(0)} ms in one batch; one append ` +
      `per event ${baseline.toFixed(0)} ms: ratio ${ratio.toFixed(2)}`,
  );
}

export default {
  title: 'Host engine: fold, getActive and getOutcome on long logs, submit to durable message',
  async run() {
    const log: SessionEvent[] = [];
    let seq = 0;
    for (const event of events(100_000, false)) log.push({ ...event, seq: ++seq, at: 0 } as SessionEvent);
    const text = JSON.stringify(log);
    let sink = 0;
    const fold = compare(
      () => {
        sink += foldTaskSurface(effectiveLog(log)).submissions.size;
      },
      () => {
        sink += (JSON.parse(text) as unknown[]).length;
      },
      20,
      5,
    );
    console.log(
      `fold (effective log + taskSurface unit) of 100,000 events: ${fold.subject.toFixed(1)} ms, ` +
        `${Math.round(100_000 / (fold.subject / 1000)).toLocaleString('en')} events/s; JSON.parse of the same events ` +
        `${fold.baseline.toFixed(1)} ms: ratio ${fold.ratio.toFixed(2)}`,
    );
    await getActiveFigures('memory', createMemoryStore());
    await getOutcomeFigures();
    forkCopyFigures('memory', createMemoryStore());
    const dir = mkdtempSync(join(tmpdir(), 'task-surface-bench-'));
    const sqlite = createSqliteStore(join(dir, 'bench.db'));
    try {
      await getActiveFigures('SQLite', sqlite);
      forkCopyFigures('SQLite', sqlite);
    } finally {
      sqlite.close();
      rmSync(dir, { recursive: true, force: true });
    }
    await submitToDurable();
    if (sink < 0) console.log(sink);
  },
};
