// `npm run bench -- clusterAbuse`: one attacker through `npm start -- --workers 3` must not take the
// cluster from everyone else (issue 37). 10 ordinary people, each from an address of their own
// (127.0.4.x) with a socket through the balancer, read their session's log five times a second;
// first alone, then while one address (127.0.4.66) floods the balancer with connections, new
// identities, `/mcp` initialize calls, over-size `/mcp` bodies and bodies that never finish,
// ignoring every refusal (test/cluster/attacker.node.test.ts checks that each is limited). The
// attacker runs in a child process of its own at the lowest CPU priority (`os.setPriority`, nice
// 19): it takes only the CPU the server leaves idle, as an attacker on another machine would take
// none of the server's, so what is measured is what its requests cost the server. Quiet and
// attacked rounds alternate in this process (CLUSTER_ABUSE_ROUNDS pairs, default 3); each pair's
// ratio is its attacked p99 over its quiet p99, and the headline is their median (aim ≤ 2x), with
// the load average of each round. Needs a database: TEST_DATABASE_URL, or a throwaway server.
// CLUSTER_ABUSE=connections,identities,initialize,large,slow picks the floods (default all), to
// see which one costs the ordinary people what.
import { fork } from 'node:child_process';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { loadavg, setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { freshSchema, startWorkersDemo } from '../../fixtures/cluster/workers.js';
import { Person } from '../../fixtures/cluster/people.js';
import { TSX_IMPORT } from '../../fixtures/tsxImport.js';
import { percentile } from '../stats.js';

const PEOPLE = 10;
const RUN_MS = 6_000;
const PACE_MS = 200;
const ATTACKER = '127.0.4.66';
const ROUNDS = Number(process.env.CLUSTER_ABUSE_ROUNDS ?? 3);

/** Every person reads their session's log again and again for RUN_MS; each read's time. */
async function ordinary(people: Person[]): Promise<number[]> {
  const times: number[] = [];
  const end = Date.now() + RUN_MS;
  await Promise.all(
    people.map(async (person) => {
      while (Date.now() < end) {
        const started = performance.now();
        const answer = await person.ask('log.read', { sessionId: person.sessionId, limit: 5 }, 10_000);
        if (answer === 'silent' || answer.type !== 'result') throw new Error(`an ordinary person was refused: ${JSON.stringify(answer)}`);
        times.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, PACE_MS - (performance.now() - started))));
      }
    }),
  );
  return times;
}

/** One request through the balancer from the attacker's address; its status (0: none). */
function send(port: number, path: string, init: { headers?: Record<string, string>; body?: string; unfinished?: boolean } = {}) {
  return new Promise<number>((resolve) => {
    const req = request({
      host: '127.0.0.1',
      port,
      path,
      method: init.body !== undefined || init.unfinished ? 'POST' : 'GET',
      localAddress: ATTACKER,
      agent: false,
      headers: { ...init.headers, ...(init.unfinished ? { 'content-length': '100000' } : {}) },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve(0));
    });
    req.on('error', () => resolve(0));
    if (init.unfinished) req.write('{"jsonrpc":');
    else req.end(init.body);
  });
}

async function attack(port: number, cookies: string[], stop: () => boolean): Promise<Record<string, number>> {
  const statuses: Record<string, number> = {};
  const count = (status: number | string) => (statuses[status] = (statuses[status] ?? 0) + 1);
  const mcp = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'attacker', version: '1.0.0' } },
  });
  const held = new Set<Socket>();
  const loop = async (once: () => Promise<number | string>) => {
    while (!stop()) count(await once());
  };
  let n = 0;
  const kinds = new Set((process.env.CLUSTER_ABUSE ?? 'connections,identities,initialize,large,slow').split(','));
  const floods: Promise<void>[] = [];
  const times = (count: number, once: () => Promise<number | string>) => {
    for (let i = 0; i < count; i++) floods.push(loop(once));
  };
  // Connections: as many as it may hold, and more, each opened again when closed.
  if (kinds.has('connections'))
    times(
      4,
      () =>
        new Promise<string>((resolve) => {
          if (held.size >= 160) return void setTimeout(() => resolve('held'), 20);
          const socket = connect({ port, host: '127.0.0.1', localAddress: ATTACKER });
          held.add(socket);
          let first = '';
          socket.on('data', (chunk: Buffer) => (first ||= chunk.toString().slice(0, 12)));
          socket.on('error', () => undefined);
          socket.once('close', () => held.delete(socket));
          setTimeout(() => resolve(first.startsWith('HTTP/1.1 429') ? 'conn 429' : 'conn held'), 50);
        }),
    );
  if (kinds.has('identities')) times(2, () => send(port, '/'));
  if (kinds.has('initialize'))
    times(4, () => send(port, '/mcp', { headers: { ...mcp, cookie: cookies[++n % cookies.length]! }, body: initialize }));
  if (kinds.has('large'))
    times(1, () => send(port, '/mcp', { headers: { ...mcp, cookie: cookies[0]! }, body: 'x'.repeat(2 * 1024 * 1024) }));
  if (kinds.has('slow')) times(16, () => send(port, '/mcp', { headers: { ...mcp, cookie: cookies[0]! }, unfinished: true }));
  await Promise.all(floods).finally(() => held.forEach((socket) => socket.destroy()));
  return statuses;
}

/** The attacker in a child process at the lowest CPU priority: it floods until `stop()`, which answers what it got. */
async function startAttacker(port: number, cookies: string[]): Promise<{ stop(): Promise<Record<string, number>> }> {
  const child = fork(fileURLToPath(import.meta.url), [], {
    execArgv: [...TSX_IMPORT],
    env: { ...process.env, CLUSTER_ABUSE_ROLE: 'attacker' },
  });
  setPriority(child.pid!, 19);
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`the attacker process exited (${code})`)));
  });
  child.send({ port, cookies });
  return {
    stop: () =>
      new Promise((resolve) => {
        const timer = setTimeout(() => (child.kill('SIGKILL'), resolve({})), 20_000);
        child.once('message', (statuses: Record<string, number>) => {
          clearTimeout(timer);
          child.disconnect();
          resolve(statuses);
        });
        child.send('stop');
      }),
  };
}

if (process.env.CLUSTER_ABUSE_ROLE === 'attacker') {
  let stopped = false;
  process.on('message', (message: 'stop' | { port: number; cookies: string[] }) => {
    if (message === 'stop') return void (stopped = true);
    void attack(message.port, message.cookies, () => stopped).then((statuses) => process.send!(statuses, () => process.exit(0)));
  });
  process.send!('ready');
}

/** scripts/ensure-postgres.mjs (plain JavaScript, untyped): TEST_DATABASE_URL, or a throwaway server. */
const ensurePostgresFile: string = '../../scripts/ensure-postgres.mjs';
type EnsurePostgres = () => Promise<{ url: string; stop(): void | Promise<void> }>;

export default {
  title: 'Cluster under attack: ordinary reads through the --workers balancer while one address floods it',
  async run() {
    const { ensurePostgres } = (await import(ensurePostgresFile)) as { ensurePostgres: EnsurePostgres };
    const postgres = await ensurePostgres();
    process.env.TEST_DATABASE_URL = postgres.url;
    const db = await freshSchema('clusterabuse');
    const demo = await startWorkersDemo(db.schema);
    const people = Array.from({ length: PEOPLE }, (_, i) => new Person(`127.0.4.${i + 1}`, demo.port));
    try {
      for (const person of people) {
        await person.identify();
        await person.connect(Date.now() + 30_000);
        const opened = await person.ask('session.open', { title: person.address }, 10_000);
        if (opened === 'silent' || opened.type !== 'result') throw new Error(`session.open: ${JSON.stringify(opened)}`);
        person.sessionId = (opened.result as { sessionId: string }).sessionId;
      }
      // The attacker's identities, minted from addresses of their own before the attack.
      const cookies: string[] = [];
      for (let i = 0; i < 16; i++) {
        const minter = new Person(`127.0.4.${100 + i}`, demo.port);
        await minter.identify();
        cookies.push(minter.cookie);
      }
      await ordinary(people); // warm, not measured
      const rounds: { quiet: number[]; quietLoad: number; attacked: number[]; attackedLoad: number; statuses: Record<string, number> }[] =
        [];
      for (let round = 0; round < ROUNDS; round++) {
        const quiet = await ordinary(people);
        const quietLoad = loadavg()[0]!;
        const attacker = await startAttacker(demo.port, cookies);
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        const attacked = await ordinary(people);
        const attackedLoad = loadavg()[0]!;
        const statuses = await attacker.stop();
        // Whatever the attacker held is closed; the next quiet round starts clean.
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        rounds.push({ quiet, quietLoad, attacked, attackedLoad, statuses });
        const [p99Quiet, p99Attacked] = [percentile(quiet, 99), percentile(attacked, 99)];
        console.log(
          `round ${round + 1}: alone p50 ${percentile(quiet, 50).toFixed(1)} ms, p99 ${p99Quiet.toFixed(1)} ms (${quiet.length} reads; load average ${quietLoad.toFixed(1)}); ` +
            `under attack p50 ${percentile(attacked, 50).toFixed(1)} ms, p99 ${p99Attacked.toFixed(1)} ms (${attacked.length}; load average ${attackedLoad.toFixed(1)}): ${(p99Attacked / p99Quiet).toFixed(2)}x`,
        );
        console.log(`  the attacker's answers: ${JSON.stringify(statuses)}`);
      }
      const ratios = rounds.map((r) => percentile(r.attacked, 99) / percentile(r.quiet, 99));
      const median = percentile(ratios, 50);
      const loads = rounds.flatMap((r) => [r.quietLoad, r.attackedLoad]);
      return {
        'cluster ordinary p99 under attack (aim ≤ 2x)': `median ${median.toFixed(2)}x of ${ratios.map((r) => r.toFixed(2) + 'x').join(', ')} (load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}; CLUSTER_ABUSE=${process.env.CLUSTER_ABUSE ?? 'all'})`,
      };
    } finally {
      for (const person of people) person.socket?.terminate();
      await demo.stop();
      await db.pool.query(`DROP SCHEMA IF EXISTS "${db.schema}_mcp" CASCADE`).catch(() => undefined);
      await db.drop();
      await postgres.stop();
    }
  },
};
