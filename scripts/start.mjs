// `npm start`: builds the demo page and starts the demo host (demo/server.ts; with `--workers N`,
// several host processes on PostgreSQL: demo/workers.ts). Arguments pass through
// (`npm start -- --inspect`). The child gets Ctrl+C directly; this wrapper waits for it to stop.
import { spawn, spawnSync } from 'node:child_process';

// tsx as a file URL, as scripts/test.mjs gives it: a bare `--import tsx` looks up its package.json in
// every child, and a failed read of it on a loaded machine sends the child to a file that does not exist.
const TSX = import.meta.resolve('tsx');

// The MCP app document that `/mcp` serves, built when missing or older than its sources.
spawnSync(process.execPath, ['scripts/mcp-app.mjs', '--if-missing'], { stdio: 'inherit' });
// The docs site (dist/docs), which the demo serves at /docs/.
spawnSync(process.execPath, ['--import', TSX, 'site/build.ts'], { stdio: 'inherit' });

const entry = process.argv.includes('--workers') ? 'demo/workers.ts' : 'demo/server.ts';
const child = spawn(process.execPath, ['--import', TSX, entry, ...process.argv.slice(2)], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
// `npm start` stopped by a signal to npm alone (not the process group) orphans this wrapper: stop the
// demo too rather than leave it holding its port.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) child.kill('SIGTERM');
}, 1000).unref();
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
