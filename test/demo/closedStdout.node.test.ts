// `npm start | head -1`, or a supervisor that stops reading the log: the demo's status lines are
// for a person, so a closed standard output neither stops it serving nor turns a clean stop into a
// crash (EPIPE used to be an unhandled 'error' event at the "stopping…" line).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import { TSX_IMPORT } from '../../fixtures/tsxImport.js';

it('keeps serving after its standard output closes, and stops cleanly on SIGTERM', async (t) => {
  const out = mkdtempSync(join(tmpdir(), 'demo-stdout-'));
  const child = spawn(process.execPath, [...TSX_IMPORT, 'demo/server.ts', '--memory'], {
    env: { ...process.env, PORT: '0', TASK_SURFACE_DEMO_OUT: out, OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  t.after(() => {
    child.kill('SIGKILL');
    rmSync(out, { recursive: true, force: true });
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  const port = await new Promise<number>((resolve, reject) => {
    let stdout = '';
    child.stdout.on('data', (chunk) => {
      stdout += String(chunk);
      const match = /demo on http:\/\/127\.0\.0\.1:(\d+)\//.exec(stdout);
      if (match) resolve(Number(match[1]));
    });
    void exited.then((code) => reject(new Error(`the demo exited (${code}) before listening: ${stdout}${stderr}`)));
  });
  child.stdout.destroy(); // the reader goes away: every later line is written to a closed pipe
  assert.equal((await fetch(`http://127.0.0.1:${port}/`)).status, 200);
  child.kill('SIGTERM');
  assert.equal(await exited, 0, `a clean stop, not a crash: ${stderr}`);
  assert.doesNotMatch(stderr, /EPIPE/);
});
