// `npm start`: builds the demo and starts the demo host (see demo/).
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

if (!existsSync('demo/server.ts')) {
  console.log('demo not built yet');
  process.exit(0);
}
const { status } = spawnSync('node', ['--import', 'tsx', 'demo/server.ts', ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(status ?? 0);
