// A PostgreSQL server for the tests: TEST_DATABASE_URL when given; else a throwaway cluster (initdb in
// a temporary folder, a free port, torn down by stop()), installing Debian's postgresql as root with
// apt when it is missing. `node scripts/ensure-postgres.mjs` alone starts one and prints its URL until
// Ctrl+C (`--durable`: fsync on, for benchmarks).
import { execFileSync, execSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const HOW = 'PostgreSQL not found: set TEST_DATABASE_URL=postgres://… or install it (Debian: sudo apt-get install -y postgresql).';

/** The newest installed server's bin folder (Debian keeps it off PATH), or undefined. */
function serverBin() {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))) : [];
  versions.sort((a, b) => Number(b) - Number(a));
  if (versions.length) return join(root, versions[0], 'bin');
  try {
    return execSync('pg_config --bindir', { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || undefined;
  } catch {
    return undefined;
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Resolves to `{ url, stop }`. `durable: false` (tests) turns fsync off: the cluster is thrown away,
 * and the store's own contract (committed before answered) does not depend on the disk's.
 */
export async function ensurePostgres({ durable = false } = {}) {
  if (process.env.TEST_DATABASE_URL) return { url: process.env.TEST_DATABASE_URL, stop: () => undefined };
  const root = process.getuid?.() === 0;
  let bin = serverBin();
  if (!bin) {
    if (!root || !existsSync('/usr/bin/apt-get')) throw new Error(HOW);
    console.log("PostgreSQL not found: installing Debian's postgresql package…");
    execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null', {
      stdio: 'inherit',
      shell: '/bin/bash',
    });
    bin = serverBin();
    if (!bin) throw new Error(HOW);
  }
  const dir = mkdtempSync(join(tmpdir(), 'task-surface-pg-'));
  // As root the server must run as another user: postgres (the package creates it).
  const run = (program, args) =>
    execFileSync(root ? 'runuser' : join(bin, program), root ? ['-u', 'postgres', '--', join(bin, program), ...args] : args, {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  if (root) {
    chmodSync(dir, 0o777);
    execFileSync('chown', ['postgres', dir]);
  }
  const data = join(dir, 'data');
  const port = await freePort();
  try {
    run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
    const settings = [`-p ${port}`, `-k ${dir}`, '-h 127.0.0.1', '-c max_connections=400'];
    if (!durable) settings.push('-c fsync=off', '-c full_page_writes=off');
    run('pg_ctl', ['-D', data, '-o', settings.join(' '), '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`could not start a throwaway PostgreSQL in ${dir}: ${error.stderr?.toString() || error.message}`, { cause: error });
  }
  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const { url, stop } = await ensurePostgres({ durable: process.argv.includes('--durable') });
    console.log(url);
    for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => (stop(), process.exit(0)));
    setInterval(() => undefined, 1 << 30);
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
