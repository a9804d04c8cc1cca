// The --workers balancer sends new connections only to workers whose /healthz answers 200 within a
// second: a SIGSTOPped worker (it still accepts TCP connections in its kernel backlog) is left out
// until it answers again.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { get } from 'node:http';
import { it } from 'node:test';
import { HEALTH, startBalancer } from '../../demo/cluster.js';

/** A worker stand-in in its own process: `/healthz` → ok, anything else → its pid. */
function worker(t: { after(fn: () => void): void }): Promise<{ child: ChildProcess; port: number }> {
  const code = `const s = require('node:http').createServer((q, r) => r.end(q.url === '/healthz' ? 'ok' : String(process.pid)));
    s.listen(0, '127.0.0.1', () => console.log(s.address().port));`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  t.after(() => {
    child.kill('SIGCONT');
    child.kill('SIGKILL');
  });
  return new Promise((resolve) => child.stdout!.once('data', (chunk: Buffer) => resolve({ child, port: Number(String(chunk).trim()) })));
}

const until = async (check: () => boolean, ms: number) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
};

/** Who answers a new connection through the balancer, or 'none' within a second. */
function who(port: number): Promise<string> {
  return new Promise((resolve) => {
    const request = get({ host: '127.0.0.1', port, path: '/who', agent: false, timeout: 1_000 }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += String(chunk)));
      response.on('end', () => resolve(body));
    });
    request.once('timeout', () => request.destroy());
    request.once('error', () => resolve('none'));
  });
}

it('a SIGSTOPped worker gets no new connection once its /healthz goes unanswered, and gets them again after SIGCONT', async (t) => {
  const [a, b] = await Promise.all([worker(t), worker(t)]);
  const balancer = await startBalancer(0, [a.port, b.port]);
  t.after(() => balancer.close());
  assert.ok(await until(() => balancer.healthy().length === 2, 3_000), 'both healthy at first');
  b.child.kill('SIGSTOP');
  const stoppedAt = Date.now();
  assert.ok(
    await until(() => !balancer.healthy().includes(b.port), HEALTH.everyMs + HEALTH.timeoutMs + 1_500),
    'the stopped worker is left out',
  );
  const leftOutAfter = Date.now() - stoppedAt;
  const answers = [];
  for (let i = 0; i < 6; i++) answers.push(await who(balancer.port));
  assert.deepEqual(
    answers,
    Array(6).fill(String(a.child.pid)),
    `every new connection reaches the live worker (left out after ${leftOutAfter} ms)`,
  );
  b.child.kill('SIGCONT');
  assert.ok(await until(() => balancer.healthy().includes(b.port), 3_000), 'back in once it answers');
  const after = new Set<string>();
  for (let i = 0; i < 4; i++) after.add(await who(balancer.port));
  assert.deepEqual([...after].sort(), [String(a.child.pid), String(b.child.pid)].sort());
});
