// The people of `npm run bench -- scale`, in their own process: one WebSocket transport per
// session, each connected to one of the host processes through a tiny round-robin "load balancer"
// (a reconnect after a process died goes to the next one). Paced: 1.5–4.5 s between answers; each
// person arrives (watch + first message) at a uniform random moment of the first think interval.
import { WebSocket } from 'ws';
import { sampleProcessCpu, type CpuSample } from './cpu.js';
import { mintMessageId, mintRpcId, mintTaskSurfaceSubmissionId, type SessionId, type TaskSurfaceId } from '../../protocol/index.js';
import { createWebSocketTransport, type WebSocketConstructor, type WebSocketTransport } from '../../transport/ws/client.js';

export type ClientJob =
  | { kind: 'load'; ports: number[]; sessions: SessionId[]; thinkMs: number; durationMs: number }
  /** After a kill at `killedAt` (epoch ms): how long until each of `sessions` answers again. */
  | { kind: 'probe'; sessions: SessionId[]; killedAt: number }
  | { kind: 'close' };

export interface LoadResult {
  latencies: number[];
  /** When each submit of `latencies` was sent, in ms from the start of the run. */
  sentAt: number[];
  accepted: string[];
  refused: number;
  elapsed: number;
  /** When the run started (epoch ms), and this process's CPU samples over it. */
  startedAt: number;
  cpu: CpuSample[];
}

const transports = new Map<SessionId, WebSocketTransport>();
const latestSurface = new Map<SessionId, string | undefined>();
const sleep = (t: number) => new Promise((r) => setTimeout(r, t));

function balancer(ports: number[]): WebSocketConstructor {
  let next = Math.floor(Math.random() * ports.length);
  return class extends WebSocket {
    constructor() {
      super(`ws://127.0.0.1:${ports[next++ % ports.length]}/ws`);
    }
  } as unknown as WebSocketConstructor;
}

async function load(job: Extract<ClientJob, { kind: 'load' }>): Promise<LoadResult> {
  const latencies: number[] = [];
  const sentAt: number[] = [];
  const accepted: string[] = [];
  let refused = 0;
  let stopping = false;
  const Socket = balancer(job.ports);
  for (const sessionId of job.sessions) {
    transports.set(
      sessionId,
      createWebSocketTransport({
        url: 'ws://balanced/ws',
        WebSocket: Socket,
        heartbeatMs: 0,
        reconnect: { initialDelayMs: 50, maxDelayMs: 500 },
      }),
    );
  }
  await Promise.all(
    [...transports.values()].map(
      (t) =>
        new Promise<void>((resolve) => {
          if (t.status === 'open') return resolve();
          const off = t.onStatus((status) => status === 'open' && (off(), resolve()));
        }),
    ),
  );
  const started = performance.now();
  const startedAt = Date.now();
  const cpu = sampleProcessCpu();
  const runs = job.sessions.map(
    (sessionId) =>
      new Promise<void>((done) => {
        const transport = transports.get(sessionId)!;
        let answered: string | undefined;
        let busy = false;
        const next = () => {
          const latest = latestSurface.get(sessionId);
          if (stopping) return done();
          if (!latest || latest === answered) return;
          busy = true;
          answered = latest;
          const submissionId = mintTaskSurfaceSubmissionId();
          const t = performance.now();
          transport.taskSurface
            .submit({ sessionId, surfaceId: latest as TaskSurfaceId, submissionId, values: { pick: 'a' } })
            .then(
              (result) => {
                latencies.push(performance.now() - t);
                sentAt.push(t - started);
                if (result.accepted) accepted.push(submissionId);
                else refused++;
              },
              () => refused++,
            )
            .finally(() =>
              setTimeout(
                () => {
                  busy = false;
                  next();
                },
                job.thinkMs * (0.5 + Math.random()),
              ),
            );
        };
        // Arrival: people do not all come at once. Each session's person opens the page (the watch)
        // and sends the first message at one uniform random moment in the first think interval.
        setTimeout(() => {
          transport.watchSession(sessionId, (view) => {
            latestSurface.set(sessionId, view.taskSurface.active?.surfaceId);
            if (!busy) next();
          });
          void transport.session.send({ sessionId, messageId: mintMessageId(), rpcId: mintRpcId(), text: 'start' }).catch(() => {
            refused++;
          });
        }, Math.random() * job.thinkMs);
      }),
  );
  await sleep(job.durationMs);
  stopping = true;
  await Promise.race([Promise.all(runs), sleep(10_000)]);
  const elapsed = (performance.now() - started) / 1000;
  cpu.stop();
  return { latencies, sentAt, accepted, refused, elapsed, startedAt, cpu: cpu.samples };
}

/** Each session's time from the kill until a read of it is answered (the transport retries `busy`). */
async function probe(job: Extract<ClientJob, { kind: 'probe' }>): Promise<{ ms: number[]; failed: number }> {
  const ms: number[] = [];
  let failed = 0;
  await Promise.all(
    job.sessions.map(async (sessionId) => {
      const surfaceId = latestSurface.get(sessionId) ?? 'none';
      try {
        await transports.get(sessionId)!.taskSurface.getActive({ sessionId, surfaceId: surfaceId as TaskSurfaceId });
        ms.push(Date.now() - job.killedAt);
      } catch {
        failed++;
      }
    }),
  );
  return { ms, failed };
}

// So that --cpu-prof (SCALE_PROF) writes its profile when the bench ends this process.
process.on('SIGTERM', () => process.exit(0));

process.on('message', (job: ClientJob) => {
  if (job.kind === 'close') {
    for (const t of transports.values()) t.dispose();
    transports.clear();
    latestSurface.clear();
    process.send!({ closed: true });
    return;
  }
  void (job.kind === 'load' ? load(job) : probe(job)).then((result) => process.send!(result));
});
