// Loopback WebSocket load: N concurrent sessions, each with its own browser-side client transport,
// repeating show → submit → claim → commit for a bounded time against one in-process Host (memory
// store, auto-admission). Prints completed cycles/s and p50/p99 submit-to-accept latency, checks
// the log at the end (one admitted answer per accepted submission, nothing lost or doubled), and
// divides the p50 by a raw `ws` echo round trip measured with the same N connections in the run.
// It also prints the host process's CPU time per completed cycle (process.cpuUsage over the run,
// connection set-up and the final whenIdle included):
// on a shared machine, cycles/s follow whatever else runs; CPU time per cycle much less so.
// Saturated runs twice, interleaved: with the server's default `coalesceWrites` (the frames of one
// event-loop turn in one TCP write) and without it (one write per frame), counting the host's
// socket writes per cycle in each, so the two are compared in the same process and machine load.
//
// The clients run in a child process (this same file, started with LOAD_CLIENTS=1), as browsers
// would be elsewhere: the host's event loop carries only the server, and the two processes share
// the machine's two cores.
import { fork, type ChildProcess } from 'node:child_process';
import { Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { WebSocket, WebSocketServer } from 'ws';
import { createHost } from '../../host/createHost.js';
import { createMemoryStore } from '../../host/store/memory.js';
import type { AgentTurn } from '../../host/types.js';
import { mintMessageId, mintRpcId, mintTaskSurfaceSubmissionId, type SessionId, type TaskSurfaceId } from '../../protocol/index.js';
import { createWebSocketTransport, type WebSocketConstructor } from '../../transport/ws/client.js';
import { createWebSocketServer } from '../../transport/ws/server.js';
import { askChild } from '../child.js';
import { BENCH_MODEL as MODEL } from '../model.js';
import { median, percentile } from '../stats.js';

const SECONDS = Number(process.env.LOAD_SECONDS ?? 4);
/** Mean pause between one session's cycles in the paced run. */
const THINK_MS = 3_000;
const ms = (n: number) => `${n.toFixed(2)} ms`;
const sleep = (t: number) => new Promise((r) => setTimeout(r, t));

type Job =
  | { kind: 'echo'; port: number; n: number; durationMs: number }
  | { kind: 'load'; port: number; sessions: SessionId[]; thinkMs: number; durationMs: number };
interface LoadResult {
  latencies: number[];
  accepted: number;
  refused: number;
  elapsed: number;
  /** The client process's CPU time over the run (ms): the two processes share the machine's cores. */
  clientCpuMs: number;
}

// ---- client side (child process) ----

async function echoClients(port: number, n: number, durationMs: number): Promise<number[]> {
  const sockets = await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<WebSocket>((resolve) => {
          const s = new WebSocket(`ws://127.0.0.1:${port}`);
          s.once('open', () => resolve(s));
        }),
    ),
  );
  const samples: number[] = [];
  const until = performance.now() + durationMs;
  await Promise.all(
    sockets.map(async (s) => {
      while (performance.now() < until) {
        const t = performance.now();
        await new Promise<void>((resolve) => {
          s.once('message', () => resolve());
          s.send('{"id":"x","type":"ping"}');
        });
        samples.push(performance.now() - t);
      }
    }),
  );
  for (const s of sockets) s.close();
  return samples;
}

async function loadClients(port: number, sessions: SessionId[], thinkMs: number, durationMs: number): Promise<LoadResult> {
  const latencies: number[] = [];
  let accepted = 0;
  let refused = 0;
  let stopping = false;
  const transports = sessions.map(() =>
    createWebSocketTransport({
      url: `ws://127.0.0.1:${port}`,
      WebSocket: WebSocket as unknown as WebSocketConstructor,
      heartbeatMs: 0,
    }),
  );
  // Connection set-up is not part of a cycle: every client is connected before the clock starts.
  await Promise.all(
    transports.map((t) =>
      t.status === 'open'
        ? undefined
        : new Promise<void>((resolve) => {
            const off = t.onStatus((status) => {
              if (status === 'open') {
                off();
                resolve();
              }
            });
          }),
    ),
  );
  const started = performance.now();
  const cpu = process.cpuUsage();
  // Once every session has its first surface (the watches and first messages are not a cycle's),
  // the host counts its socket writes from here: writes per cycle are counted over what follows.
  let arrived = 0;
  const runs = sessions.map(
    (sessionId, i) =>
      new Promise<void>((done) => {
        const transport = transports[i]!;
        let answered: string | undefined;
        let busy = false;
        let latest: string | undefined;
        const finish = () => {
          stop();
          done();
        };
        // The next surface's view can arrive before the submit's answer: remember it, act when free.
        const next = () => {
          if (stopping) return finish();
          if (!latest || latest === answered) return;
          busy = true;
          answered = latest;
          const t = performance.now();
          transport.taskSurface
            .submit({ sessionId, surfaceId: latest as TaskSurfaceId, submissionId: mintTaskSurfaceSubmissionId(), values: { pick: 'a' } })
            .then(
              (result) => {
                latencies.push(performance.now() - t);
                if (result.accepted) accepted++;
                else refused++;
              },
              () => refused++,
            )
            .finally(() => {
              if (thinkMs === 0) {
                busy = false;
                return next();
              }
              // A person takes a moment before the next answer (uniform 0.5–1.5 × thinkMs).
              setTimeout(
                () => {
                  busy = false;
                  next();
                },
                thinkMs * (0.5 + Math.random()),
              );
            });
        };
        const stop = transport.watchSession(sessionId, (view) => {
          if (!latest && view.taskSurface.active && ++arrived === sessions.length) process.send!({ arrived: accepted });
          latest = view.taskSurface.active?.surfaceId;
          if (!busy) next();
        });
        // A first message still unanswered when the run ends is refused by the transport's dispose.
        const begin = () =>
          void transport.session.send({ sessionId, messageId: mintMessageId(), rpcId: mintRpcId(), text: 'start' }).catch(() => refused++);
        if (thinkMs === 0) begin();
        else setTimeout(begin, Math.random() * thinkMs);
      }),
  );
  await sleep(durationMs);
  stopping = true;
  await Promise.race([Promise.all(runs), sleep(5_000)]);
  const elapsed = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  for (const t of transports) t.dispose();
  return { latencies, accepted, refused, elapsed, clientCpuMs: (used.user + used.system) / 1000 };
}

if (process.env.LOAD_CLIENTS === '1') {
  process.on('message', (job: Job) => {
    const work =
      job.kind === 'echo'
        ? echoClients(job.port, job.n, job.durationMs).then((samples) => ({ samples }))
        : loadClients(job.port, job.sessions, job.thinkMs, job.durationMs);
    void work.then((result) => process.send!(result));
  });
}

// ---- host side (the bench process) ----

const ask = <T>(child: ChildProcess, job: Job) => askChild<T>(child, job);

async function echoBaseline(clients: ChildProcess, n: number, durationMs: number): Promise<number[]> {
  const wss = new WebSocketServer({ port: 0 });
  await new Promise((r) => wss.once('listening', r));
  wss.on('connection', (socket) => socket.on('message', (data) => socket.send(data)));
  const port = (wss.address() as { port: number }).port;
  const { samples } = await ask<{ samples: number[] }>(clients, { kind: 'echo', port, n, durationMs });
  await new Promise<void>((r) => wss.close(() => r()));
  return samples;
}

/** TCP writes the host process makes (every socket in it is a server's), counted by wrapping `net.Socket`. */
let socketWrites = 0;
for (const method of ['_write', '_writev'] as const) {
  const original = Socket.prototype[method] as (...args: unknown[]) => unknown;
  Socket.prototype[method] = function (this: Socket, ...args: unknown[]) {
    socketWrites++;
    return original.apply(this, args);
  } as never;
}

async function load(clients: ChildProcess, n: number, thinkMs: number, durationMs: number, coalesceWrites = true) {
  const host = createHost({
    store: createMemoryStore(),
    driver: {
      async runTurn(turn: AgentTurn) {
        await turn.callTool('show_task_surface', { model: MODEL });
      },
    },
  });
  const server = await createWebSocketServer({ allowAnonymous: true, host, port: 0, heartbeatMs: 0, coalesceWrites });
  const sessions = Array.from({ length: n }, (_, i) => host.openSession({ title: `load ${i}` }));
  const cpu = process.cpuUsage();
  // TCP writes once every session has arrived (the handshakes, watches and first messages are not a cycle's).
  let arrival = { writes: socketWrites, accepted: 0 };
  const onArrived = (message: { arrived?: number }) => {
    if (message.arrived !== undefined) arrival = { writes: socketWrites, accepted: message.arrived };
  };
  clients.on('message', onArrived);
  const result = await askChild<LoadResult>(
    clients,
    { kind: 'load', port: server.port, sessions, thinkMs, durationMs },
    (m) => m.arrived === undefined,
  );
  clients.off('message', onArrived);
  await host.whenIdle();
  // NaN when no cycle completed after the last arrival (a machine too busy for the run).
  const writesPerCycle = result.accepted > arrival.accepted ? (socketWrites - arrival.writes) / (result.accepted - arrival.accepted) : NaN;
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000;
  // Count the log: one surface answer per accepted submission, each submissionId once.
  let answers = 0;
  const ids = new Set<string>();
  for (const sessionId of sessions) {
    for (const event of (await host.readLog(sessionId, { limit: 100_000 })).events) {
      if (event.type === 'user/message' && event.source.taskSurface) {
        answers++;
        ids.add(event.source.taskSurface.submissionId);
      }
    }
  }
  await server.close();
  await host.dispose();
  return { ...result, answers, unique: ids.size, cpuMs, writesPerCycle };
}

/** How long the echo baseline runs. */
const ECHO_MS = 1000;

export default {
  title: 'Load over loopback WebSocket (show → submit → claim → commit; clients in a second process)',
  async run() {
    const clients = fork(fileURLToPath(import.meta.url), [], { execArgv: ['--import', 'tsx'], env: { ...process.env, LOAD_CLIENTS: '1' } });
    let headline = '';
    try {
      await load(clients, 20, 0, 1000); // warm-up: JIT, first parses
      for (const n of [100, 1000]) {
        const echo = await echoBaseline(clients, n, ECHO_MS);
        const echoP50 = median(echo);
        // Round trips per second the same clients get from a server that only echoes (the floor).
        const echoRate = echo.length / (ECHO_MS / 1000);
        console.log(
          `N=${n}: raw ws echo round trip p50 ${ms(echoP50)}, p99 ${ms(percentile(echo, 99))} (${n} connections, no pause; ${echoRate.toFixed(0)} round trips/s)`,
        );
        let uncoalesced: { rate: number; cpu: number; writes: number } | undefined;
        for (const [label, think, seconds, coalesce] of [
          ['saturated, one TCP write per frame (`coalesceWrites: false`)', 0, SECONDS, false],
          ['saturated (no pause)', 0, SECONDS, true],
          [`paced (~${THINK_MS / 1000} s between answers)`, THINK_MS, SECONDS * 2, true],
        ] as const) {
          const r = await load(clients, n, think, seconds * 1000, coalesce);
          const p50 = median(r.latencies);
          const p99 = percentile(r.latencies, 99);
          const intact = r.answers === r.accepted && r.unique === r.answers;
          // A lost or doubled answer fails the run, not only its line.
          if (!intact) process.exitCode = 1;
          const rate = r.accepted / r.elapsed;
          const cpu = r.cpuMs / r.accepted;
          const writes = r.writesPerCycle;
          const ratio = think === 0 ? ` (${(p50 / echoP50).toFixed(1)}× echo)` : '';
          const perCycle =
            think === 0
              ? `, host CPU ${cpu.toFixed(3)} ms/cycle (${(r.accepted / (r.cpuMs / 1000)).toFixed(0)} cycles per host CPU-second)` +
                `, clients' CPU ${(r.clientCpuMs / r.accepted).toFixed(3)} ms/cycle`
              : '';
          console.log(
            `  ${label}: ${rate.toFixed(0)} cycles/s${perCycle}, ${writes.toFixed(2)} TCP writes/cycle; submit→accept p50 ${ms(p50)}${ratio}, p99 ${ms(p99)}` +
              ` [aim p99 < 50 ms: ${p99 < 50 ? 'met' : 'missed'}]; log: ${r.answers} answers / ${r.accepted} accepted / ${r.unique} ids` +
              ` (${r.refused} refused): ${intact ? 'nothing lost or doubled' : 'MISMATCH'}`,
          );
          if (think === 0 && !coalesce) uncoalesced = { rate, cpu, writes };
          else if (think === 0 && uncoalesced) {
            const before = uncoalesced;
            console.log(
              `  coalesced against one write per frame: ${(rate / before.rate).toFixed(2)}× the cycles/s, ${(cpu / before.cpu).toFixed(2)}× the host CPU per cycle, ` +
                `${writes.toFixed(2)} against ${before.writes.toFixed(2)} TCP writes per cycle`,
            );
            if (n === 1000) {
              headline =
                `${(rate / echoRate).toFixed(3)}× the raw ws echo rate of the same 1,000 clients: ` +
                `${rate.toFixed(0)} cycles/s saturated, ${cpu.toFixed(3)} ms host CPU per cycle` +
                ` (aim ≥ 4,100 cycles/s); ${(rate / before.rate).toFixed(2)}× the cycles/s and ${(cpu / before.cpu).toFixed(2)}× the CPU per cycle of one TCP write per frame` +
                ` (${writes.toFixed(2)} against ${before.writes.toFixed(2)} writes per cycle); ${intact ? 'nothing lost or doubled' : 'MISMATCH in the log'}`;
            }
          }
        }
      }
    } finally {
      clients.kill();
    }
    return { load: headline };
  },
};
