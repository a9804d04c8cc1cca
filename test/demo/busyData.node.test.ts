// `npm start` on a data folder another process uses says so and exits non-zero: it never opens a
// second Host over the same SQLite file.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createSqliteStore } from '../../host/store/sqlite.js';
import { closeWhenDone } from '../closeWhenDone.js';
import { TSX_IMPORT } from '../../fixtures/tsxImport.js';

const server = fileURLToPath(new URL('../../demo/server.ts', import.meta.url));

it('the demo on a .data folder already in use exits 1, naming the file and the process that holds it', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'task-surface-busy-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, '.data'));
  closeWhenDone(t, createSqliteStore(join(dir, '.data', 'demo.sqlite')));
  const child = spawn(process.execPath, [...TSX_IMPORT, server], {
    env: {
      ...process.env,
      PORT: '0',
      TASK_SURFACE_DATA_DIR: join(dir, '.data'),
      TASK_SURFACE_STORE: 'sqlite',
      DATABASE_URL: '',
      TASK_SURFACE_DEMO_OUT: join(dir, 'out'),
      OPENAI_API_KEY: '',
      ANTHROPIC_API_KEY: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.after(() => child.kill('SIGKILL'));
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', (exitCode) => resolve(exitCode)));
  assert.equal(code, 1, output);
  assert.match(
    output,
    new RegExp(
      `could not start the demo: the SQLite store ${join(dir, '.data', 'demo.sqlite').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is in use by process ${process.pid}`,
    ),
  );
  assert.doesNotMatch(output, /demo on http/);
});
