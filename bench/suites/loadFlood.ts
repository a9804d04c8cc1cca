// One flooded session must not stall everyone (`npm run bench -- load` runs it after load.ts).
// A healthy client pings the server over its own connection, first alone (idle), then while a
// second client floods one watched session with `session.send` as fast as the server lets it
// (a hostile client: it ignores the retry hints and keeps the server's in-flight limit full), then
// after the flood. Prints the healthy client's ping p99 during the flood as a ratio to its idle p99
// in the same run (aim ≤ 10×) and the server's peak RSS. Each client runs in its own child process
// (this same file with FLOOD_ROLE set), so neither client's work delays the other's clock.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { WebSocket } from 'ws';
import { createHost } from '../../host/createHost.js';
import { createMemoryStore } from '../../host/store/memory.js';
import type { AgentTurn } from '../../host/types.js';
import { createWebSocketServer } from '../../transport/ws/server.js';
import { askChild } from '../child.js';
import { percentile } from '../stats.js';

const IDLE_MS = 3_000;
const FLOOD_MS = 5_000;
const AFTER_MS = 2_000;
/** Requests the flooder keeps outstanding (the server's default in-flight limit). */
const WINDOW = 32;

type Job = { role: 'ping'; port: number; durationMs: number } | { role: 'flood'; port: number; sessionId: string; durationMs: number };
interface FloodResult {
  sent: number;
  accepted: number;
  refused: Record<string, number>;
  views: number;
}

const open = (port: number) =>
  new Promise<WebSocket>((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}`);
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });

/** Sequential pings (the next after each answer): round-trip times in ms. */
async function pings(port: number, durationMs: number): Promise<number[]> {
  const socket = await open(port);
  const samples: number[] = [];
  const until = performance.now() + durationMs;
  let n = 0;
  while (performance.now() < until) {
    const t = performance.now();
    await new Promise<void>((resolve) => {
      socket.once('message', () => resolve());
      socket.send(`{"id":"p${n++}","type":"ping"}`);
    });
    samples.push(performance.now() - t);
    // ~100 pings/s: under the rate limit, so every sample is a real round trip.
    await new Promise((r) => setTimeout(r, 10));
  }
  socket.close();
  return samples;
}

async function flood(port: number, sessionId: string, durationMs: number): Promise<FloodResult> {
  const socket = await open(port);
  const result: FloodResult = { sent: 0, accepted: 0, refused: {}, views: 0 };
  const until = performance.now() + durationMs;
  const sendOne = () => {
    if (performance.now() > until) return;
    const n = result.sent++;
    socket.send(
      JSON.stringify({ id: `f${n}`, type: 'session.send', params: { sessionId, messageId: `m${n}`, rpcId: `r${n}`, text: `flood ${n}` } }),
    );
  };
  await new Promise<void>((done) => {
    socket.on('message', (data) => {
      const frame = JSON.parse(String(data)) as { type: string; code?: string; result?: { accepted: boolean; reason?: string } };
      if (frame.type === 'session.view') return void result.views++;
      if (frame.type === 'result' && typeof frame.result !== 'object') return; // the watch's answer
      if (frame.type === 'result' && frame.result?.accepted) result.accepted++;
      else {
        const why = frame.code ?? frame.result?.reason ?? 'other';
        result.refused[why] = (result.refused[why] ?? 0) + 1;
      }
      if (performance.now() > until) return done();
      sendOne();
    });
    socket.send(JSON.stringify({ id: 'w', type: 'session.watch', params: { sessionId } }));
    for (let i = 0; i < WINDOW; i++) sendOne();
  });
  socket.close();
  return result;
}

if (process.env.FLOOD_ROLE) {
  process.on('message', (job: Job) => {
    const work =
      job.role === 'ping'
        ? pings(job.port, job.durationMs).then((samples) => ({ samples }))
        : flood(job.port, job.sessionId, job.durationMs);
    void work.then((result) => process.send!(result));
  });
}

const ask = <T>(child: ChildProcess, job: Job) => askChild<T>(child, job);

const ms = (n: number) => `${n.toFixed(2)} ms`;
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;

/** One run: idle pings, pings during the flood, pings after; the server's peak RSS meanwhile. */
async function floodRun(label: string, rateLimit: false | undefined, pinger: ChildProcess, flooder: ChildProcess) {
  const host = createHost({
    store: createMemoryStore(),
    // An agent that takes a moment per turn, so the flooded session's queue fills.
    driver: {
      async runTurn(turn: AgentTurn) {
        await new Promise((r) => setTimeout(r, 20));
        turn.reply('ok');
      },
    },
  });
  const server = await createWebSocketServer({
    allowAnonymous: true,
    host,
    port: 0,
    heartbeatMs: 0,
    ...(rateLimit === false ? { rateLimit } : {}),
  });
  const flooded = host.openSession({ title: 'flooded' });
  let peakRss = 0;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
  }, 20);
  try {
    await ask(pinger, { role: 'ping', port: server.port, durationMs: 500 }); // warm-up
    const rssBefore = process.memoryUsage.rss();
    const idle = (await ask<{ samples: number[] }>(pinger, { role: 'ping', port: server.port, durationMs: IDLE_MS })).samples;
    const [during, floodResult] = await Promise.all([
      ask<{ samples: number[] }>(pinger, { role: 'ping', port: server.port, durationMs: FLOOD_MS }),
      ask<FloodResult>(flooder, { role: 'flood', port: server.port, sessionId: flooded, durationMs: FLOOD_MS }),
    ]);
    const afterFlood = (await ask<{ samples: number[] }>(pinger, { role: 'ping', port: server.port, durationMs: AFTER_MS })).samples;
    const idleP99 = percentile(idle, 99);
    const floodP99 = percentile(during.samples, 99);
    const ratio = floodP99 / idleP99;
    const refused =
      Object.entries(floodResult.refused)
        .map(([k, v]) => `${v} ${k}`)
        .join(', ') || 'none';
    console.log(`${label}:`);
    console.log(
      `  flood: ${(floodResult.sent / (FLOOD_MS / 1000)).toFixed(0)} session.send/s sent, ${floodResult.accepted} accepted, refused: ${refused}; ${floodResult.views} views pushed to the flooder`,
    );
    console.log(
      `  healthy ping p99: idle ${ms(idleP99)} (p50 ${ms(percentile(idle, 50))}), during the flood ${ms(floodP99)} (p50 ${ms(percentile(during.samples, 50))}), after ${ms(percentile(afterFlood, 99))}`,
    );
    console.log(`  ratio during/idle p99: ${ratio.toFixed(1)}× [aim ≤ 10×: ${ratio <= 10 ? 'met' : 'missed'}]`);
    console.log(
      `  server RSS: ${mb(rssBefore)} before, peak ${mb(peakRss)}; flooded session: ${host.getView(flooded).lastSeq} events, ${host.getView(flooded).queue.length} rows left`,
    );
  } finally {
    clearInterval(sampler);
    await server.close();
    await host.dispose();
  }
}

export default {
  title: 'One flooded session (session.send as fast as allowed) while a healthy client pings',
  async run() {
    const spawn = (role: string) =>
      fork(fileURLToPath(import.meta.url), [], { execArgv: ['--import', 'tsx'], env: { ...process.env, FLOOD_ROLE: role } });
    const pinger = spawn('ping');
    const flooder = spawn('flood');
    try {
      await floodRun('default limits', undefined, pinger, flooder);
      await floodRun('rate limit off (only the queue bound and maxInFlight hold the flood back)', false, pinger, flooder);
    } finally {
      pinger.kill();
      flooder.kill();
    }
  },
};
