// `npm run bench -- scale`: 3,000 sessions at a person's pace over 3 host processes on PostgreSQL
// (every client through the `--workers` balancer),
// and the same number on one process on PostgreSQL, in one run: submit → accept p50/p99, cycles/s,
// after a 5 s warm-up on other sessions (not
// measured), then a kill -9 of one of the three: how long until its sessions answer again, and the log counted
// afterwards (every accepted submission admitted exactly once). Each 5 s window also prints its
// submits and the CPU, in cores, of each host process, the clients and the whole machine, which
// shows what bounds that window's p99. Needs a database: SCALE_DATABASE_URL,
// DATABASE_URL or TEST_DATABASE_URL (a throwaway schema is made and dropped).
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { SessionId } from '../../protocol/index.js';
import { askChild } from '../child.js';
import type { ClientJob, LoadResult } from '../scale/clients.js';
import { coresBetween, sampleMachineCpu, type CpuSample } from '../scale/cpu.js';
import { median, percentile } from '../stats.js';

const SESSIONS = Number(process.env.SCALE_SESSIONS ?? 3_000);
const SECONDS = Number(process.env.SCALE_SECONDS ?? 20);
const THINK_MS = 3_000;
/** The warm-up: sessions per process and how long (not measured). */
const WARM_SESSIONS = 100;
const WARM_MS = 5_000;
const ms = (n: number) => `${n.toFixed(1)} ms`;
const hostFile = fileURLToPath(new URL('../scale/host.ts', import.meta.url));
const clientsFile = fileURLToPath(new URL('../scale/clients.ts', import.meta.url));
const balancerFile = fileURLToPath(new URL('../../demo/balancerMain.ts', import.meta.url));

interface HostProcess {
  child: ChildProcess;
  port: number;
  workerId: string;
}

async function startHost(env: Record<string, string>): Promise<HostProcess> {
  const prof = process.env.SCALE_PROF; // a folder: each host process writes a CPU profile there
  const child = fork(hostFile, [], {
    execArgv: ['--import', 'tsx', ...(prof ? ['--cpu-prof', `--cpu-prof-dir=${prof}`] : [])],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const ready = await new Promise<{ port: number; workerId: string }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { port: number; workerId: string }));
    child.once('exit', (code) => reject(new Error(`a scale host exited (${code}) before it was ready`)));
  });
  return { child, ...ready };
}

/** The demo's round-robin TCP balancer over `ports`, in a process of its own. */
async function startBalancerProcess(ports: number[]): Promise<{ port: number; child: ChildProcess }> {
  const child = fork(balancerFile, [ports.join(',')], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const { port } = await new Promise<{ port: number }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { port: number }));
    child.once('exit', (code) => reject(new Error(`the balancer exited (${code}) before it listened`)));
  });
  return { port, child };
}

async function scenario(url: string, processes: number) {
  const schema = `bench_scale_${process.pid}_${processes}`;
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const env = {
    SCALE_DATABASE_URL: url,
    SCALE_SCHEMA: schema,
    SCALE_SECRET: randomBytes(24).toString('hex'),
    CLUSTER: processes > 1 ? '1' : '0',
  };
  const hosts: HostProcess[] = [];
  let balancer: { port: number; child: ChildProcess } | undefined;
  const prof = process.env.SCALE_PROF;
  const clients = fork(clientsFile, [], { execArgv: ['--import', 'tsx', ...(prof ? ['--cpu-prof', `--cpu-prof-dir=${prof}`] : [])] });
  try {
    for (let i = 0; i < processes; i++) hosts.push(await startHost(env)); // the first migrates the schema
    // Sessions opened evenly over the processes (each owns those it opened); clients connect anywhere.
    const owned: SessionId[][] = [];
    for (const [i, h] of hosts.entries()) {
      const n = Math.floor(SESSIONS / processes) + (i < SESSIONS % processes ? 1 : 0);
      owned.push((await askChild<{ sessions: SessionId[] }>(h.child, { kind: 'open', n })).sessions);
    }
    const sessions = owned.flat();
    // Several processes: every client connects through the `--workers` balancer (demo/cluster.ts),
    // in a process of its own, as a page reaches the workers; one process is reached directly.
    if (processes > 1) balancer = await startBalancerProcess(hosts.map((h) => h.port));
    const ports = balancer ? [balancer.port] : hosts.map((h) => h.port);
    // Warm-up, as the load bench does: a few seconds of the same load on other sessions (JIT, pools,
    // peer connections), not counted; the measured sessions have never been used.
    const warm: SessionId[] = [];
    for (const h of hosts) warm.push(...(await askChild<{ sessions: SessionId[] }>(h.child, { kind: 'open', n: WARM_SESSIONS })).sessions);
    await askChild<LoadResult>(clients, { kind: 'load', ports, sessions: warm, thinkMs: THINK_MS, durationMs: WARM_MS });
    const job: ClientJob = { kind: 'load', ports, sessions, thinkMs: THINK_MS, durationMs: SECONDS * 1000 };
    const machine = sampleMachineCpu();
    const r = await askChild<LoadResult>(clients, job);
    machine.stop();
    const hostCpu = await Promise.all(hosts.map((h) => askChild<{ samples: CpuSample[] }>(h.child, { kind: 'cpu' })));
    const label = `${SESSIONS.toLocaleString('en')} sessions, ${processes} host process${processes > 1 ? 'es' : ''} on PostgreSQL, paced (~${THINK_MS / 1000} s between answers; each person arrives, watch and first message, at a uniform random moment of the first ${THINK_MS / 1000} s)`;
    if (r.latencies.length === 0) throw new Error('no submit was answered in the run: is the machine or the database stalled?');
    const p99 = percentile(r.latencies, 99);
    console.log(
      `${label}: ${(r.accepted.length / r.elapsed).toFixed(0)} cycles/s; submit→accept p50 ${ms(median(r.latencies))}, p99 ${ms(p99)}` +
        ` [aim p99 < 100 ms: ${p99 < 100 ? 'met' : 'missed'}] (${r.refused} refused)`,
    );
    // Where the slow answers fall: p99 per 5 s of the run.
    const windows = Array.from({ length: Math.ceil(SECONDS / 5) + 1 }, (_, w) =>
      r.latencies.filter((_, i) => Math.floor(r.sentAt[i]! / 5_000) === w),
    ).filter((w) => w.length > 0);
    console.log(`  p99 per 5 s (every sample kept, the arrival included): ${windows.map((w) => ms(percentile(w, 99))).join(', ')}`);
    // What bounds a window: how many submits it carried and how busy the processes and machine were.
    const spans = windows.map((_, w) => [r.startedAt + w * 5_000, r.startedAt + Math.min((w + 1) * 5_000, r.elapsed * 1000)] as const);
    const cores = (samples: CpuSample[]) => spans.map(([a, b]) => coresBetween(samples, a, b).toFixed(2)).join(', ');
    const [from, to] = [r.startedAt, r.startedAt + r.elapsed * 1000];
    const hostMs = hostCpu.reduce((sum, h) => sum + coresBetween(h.samples, from, to) * (to - from), 0);
    console.log(
      `  submits per 5 s: ${windows.map((w) => w.length).join(', ')}; host CPU per completed cycle, all processes: ${(hostMs / r.latencies.length).toFixed(2)} ms`,
    );
    console.log(
      `  CPU per 5 s, in cores: host processes ${hostCpu.map((h) => `[${cores(h.samples)}]`).join(' ')}; clients [${cores(r.cpu)}];` +
        ` the whole machine [${cores(machine.samples)}] of ${availableParallelism()} (load average ${loadavg()[0]!.toFixed(1)})`,
    );
    let takeover = '';
    if (processes > 1) {
      await new Promise((resolve) => setTimeout(resolve, 2_000)); // the last claims settle
      const victim = hosts[0]!;
      const killedAt = Date.now();
      victim.child.kill('SIGKILL');
      const probe = await askChild<{ ms: number[]; failed: number }>(clients, { kind: 'probe', sessions: owned[0]!, killedAt });
      const worst = Math.max(...probe.ms);
      takeover = `kill -9 of one process (${owned[0]!.length} sessions): they answer again after p50 ${ms(median(probe.ms))}, max ${ms(worst)} [aim < 3 s: ${worst < 3_000 ? 'met' : 'missed'}]${probe.failed ? `, ${probe.failed} never answered` : ''}`;
      console.log(`  ${takeover}`);
    }
    await askChild(clients, { kind: 'close' });
    // Count the log: each accepted submission admitted exactly once (durable before the kill).
    const { rows } = await pool.query<{ id: string; n: number }>(
      `SELECT body::json -> 'source' -> 'taskSurface' ->> 'submissionId' AS id, count(*)::int AS n
         FROM "${schema}".ts_events WHERE session_id = ANY($1) AND body::json ->> 'type' = 'user/message'
          AND body::json -> 'source' -> 'taskSurface' IS NOT NULL GROUP BY 1`,
      [sessions],
    );
    const stored = new Map(rows.map((row) => [row.id, row.n]));
    const doubled = rows.filter((row) => row.n > 1).length;
    const lost = r.accepted.filter((id) => !stored.has(id)).length;
    const intact = `log: ${stored.size} admitted / ${r.accepted.length} accepted: ${lost} lost, ${doubled} doubled`;
    console.log(`  ${intact}`);
    return { cycles: r.accepted.length / r.elapsed, p50: median(r.latencies), p99, takeover, intact };
  } finally {
    for (const h of hosts) {
      if (process.env.SCALE_PROF && h.child.exitCode === null && h.child.signalCode === null) h.child.send({ kind: 'exit' });
      else h.child.kill('SIGKILL');
    }
    clients.kill();
    balancer?.child.kill();
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
    await pool.end();
  }
}

export default {
  title: `Scale: ${SESSIONS.toLocaleString('en')} paced sessions on PostgreSQL, 3 host processes against 1 (clients in another process)`,
  async run() {
    const url = process.env.SCALE_DATABASE_URL ?? process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL;
    if (!url) {
      console.log('skipped: set DATABASE_URL (or TEST_DATABASE_URL) to a PostgreSQL database the bench may make a schema in');
      return;
    }
    // SCALE_ONLY=3 (or 1) runs one of the two scenarios; the headline needs both.
    const only = process.env.SCALE_ONLY;
    if (only === '1' || only === '3') return void (await scenario(url, Number(only)));
    const three = await scenario(url, 3);
    const one = await scenario(url, 1);
    return {
      'scale (3 processes vs 1, PostgreSQL)': `p99 ${ms(three.p99)} vs ${ms(one.p99)} (${(three.p99 / one.p99).toFixed(2)}×); ${three.cycles.toFixed(0)} vs ${one.cycles.toFixed(0)} cycles/s; ${three.takeover}`,
    };
  },
};
