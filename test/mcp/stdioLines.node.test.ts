// The stdio server under bad input (issue 37): a line over 10 MiB, a line that is not JSON and one
// nested too deep are each named on stderr and skipped; the server answers the next line.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { before, test } from 'node:test';
import { ensurePanelBuilt } from './helpers.js';

before(ensurePanelBuilt, { timeout: 180_000 });

const line = (message: unknown) => `${JSON.stringify(message)}\n`;
const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'attacker', version: '1' } },
};

test('a line over 10 MiB, one not JSON and one too deep are errors on stderr, and the server goes on', async (t) => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'mcp/bin.ts', '--memory'], { stdio: ['pipe', 'pipe', 'pipe'] });
  t.after(() => child.kill());
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const answered = (id: number) =>
    new Promise<void>((resolve) => {
      const look = () => (stdout.includes(`"id":${id}`) ? resolve() : setTimeout(look, 20));
      look();
    });
  child.stdin.write(line(initialize));
  await answered(1);
  child.stdin.write(line({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  // 10 MiB + 1 byte of a JSON string, in 1 MiB writes: never held whole.
  child.stdin.write('"');
  for (let i = 0; i < 10; i++) child.stdin.write('x'.repeat(1024 * 1024 - (i === 9 ? 1 : 0)));
  child.stdin.write('x"\n');
  child.stdin.write('{"jsonrpc":"2.0", this is not json\n');
  child.stdin.write(`${'['.repeat(100_000)}${']'.repeat(100_000)}\n`);
  child.stdin.write(line({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }));
  await answered(2);
  assert.equal(child.exitCode, null, 'still running');
  assert.deepEqual(stderr.trim().split('\n'), [
    `task-surface-mcp: skipped a line of ${10 * 1024 * 1024 + 2} bytes (at most ${10 * 1024 * 1024})`,
    'task-surface-mcp: skipped a line that is not JSON (34 bytes)',
    'task-surface-mcp: skipped a line nested deeper than 64',
  ]);
  assert.match(stdout, /"id":2/);
  assert.match(stdout, /show_task_surface/);
});
