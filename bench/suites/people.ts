// `npm run bench -- people`: how fast a person's session answers again through `npm start --
// --workers 3` after a kill -9 of its owner, and after a SIGSTOP (the heartbeat's 10 s expiry, then
// a takeover): 60 people, each from an address of their own. It runs the scenario of
// test/cluster/people.node.test.ts (which checks the behaviour: no 429, every session back, each
// message once) as a child process, PEOPLE_ROUNDS times (default 1, a fresh demo and schema each),
// and prints p50 and max of each from the times the test reports. The aims (issue 37): a killed
// owner's sessions within 1 s, a frozen owner's, every one, within expiry + 3 s. Needs a database:
// TEST_DATABASE_URL, or a throwaway server (scripts/ensure-postgres.mjs).
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { TSX_IMPORT } from '../../fixtures/tsxImport.js';
import { median } from '../stats.js';

const ROUNDS = Number(process.env.PEOPLE_ROUNDS ?? 1);
const EXPIRY_S = 10;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const FIGURES = /kill -9 of \S+: ([\d, ]+) ms; SIGSTOP of \S+: ([\d, ]+) ms/;

/** One run of the test file; its takeover times, or a failure naming what it printed. */
function round(): Promise<{ kill: number[]; freeze: number[] }> {
  const child = spawn(process.execPath, [...TSX_IMPORT, '--test', '--test-force-exit', 'test/cluster/people.node.test.ts'], {
    env: process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk) => (out += String(chunk)));
  child.stderr.on('data', (chunk) => (out += String(chunk)));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      const match = FIGURES.exec(out);
      if (code !== 0 || !match) return reject(new Error(`the people scenario failed (exit ${code}):\n${out.slice(-4_000)}`));
      const times = (list: string) => list.split(', ').map(Number);
      resolve({ kill: times(match[1]!), freeze: times(match[2]!) });
    });
  });
}

/** scripts/ensure-postgres.mjs (plain JavaScript, untyped): TEST_DATABASE_URL, or a throwaway server. */
const ensurePostgresFile: string = '../../scripts/ensure-postgres.mjs';
type EnsurePostgres = () => Promise<{ url: string; stop(): void | Promise<void> }>;

export default {
  title: 'Failover through the --workers balancer: 60 people, kill -9 and SIGSTOP of a worker',
  async run() {
    const { ensurePostgres } = (await import(ensurePostgresFile)) as { ensurePostgres: EnsurePostgres };
    const postgres = await ensurePostgres();
    process.env.TEST_DATABASE_URL = postgres.url;
    const kill: number[] = [];
    const freeze: number[] = [];
    try {
      for (let n = 1; n <= ROUNDS; n++) {
        const run = await round();
        kill.push(...run.kill);
        freeze.push(...run.freeze);
        console.log(
          `round ${n}: kill -9 (${run.kill.length} sessions) p50 ${s(median(run.kill))}, max ${s(Math.max(...run.kill))}; ` +
            `SIGSTOP (${run.freeze.length}) p50 ${s(median(run.freeze))}, max ${s(Math.max(...run.freeze))}; ` +
            `load average ${loadavg()[0]!.toFixed(1)}; no 429, nothing lost or doubled`,
        );
      }
    } finally {
      await postgres.stop();
    }
    return {
      'kill -9 takeover (aim ≤ 1 s)': `p50 ${s(median(kill))}, max ${s(Math.max(...kill))} over ${kill.length} sessions`,
      [`SIGSTOP takeover (aim ≤ expiry ${EXPIRY_S} s + 3 s)`]: `p50 ${s(median(freeze))}, max ${s(Math.max(...freeze))} over ${freeze.length} sessions`,
    };
  },
};
