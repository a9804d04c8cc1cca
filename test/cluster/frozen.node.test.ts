// A frozen owner (SIGSTOP: a long GC pause, a stalled VM) behind the --workers balancer: new
// connections stop reaching it, its sessions answer from another process within the heartbeat
// expiry + 3 s, and once it wakes it serves no read from its stale copy.
import assert from 'node:assert/strict';
import { after, before, describe, it, type TestContext } from 'node:test';
import { WebSocket } from 'ws';
import { inTime } from '../transport/helpers.js';
import { freshSchema, startWorkersDemo, type WorkersDemo } from './helpers.js';

const EXPIRY_MS = 10_000; // joinCluster's default, which the demo keeps

type Answer = { type: string; id?: string; code?: string; retryAfterMs?: number; result?: unknown };

/**
 * A socket to `port` with the balancer's Origin, terminated when the test ends; `ask` waits at most
 * `ms` for the answer to its id.
 */
async function socketTo(t: TestContext, port: number, headers: Record<string, string>) {
  const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers });
  t.after(() => socket.terminate());
  socket.on('error', () => {});
  await inTime(
    new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    }),
    `a socket to port ${port} to open`,
    30_000,
  );
  let next = 0;
  return {
    ask(type: string, params: unknown, ms = 30_000): Promise<Answer | 'silent'> {
      const id = `q${++next}`;
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve('silent'), ms);
        const onMessage = (data: unknown) => {
          const message = JSON.parse(String(data)) as Answer;
          if (message.id !== id) return;
          clearTimeout(timer);
          socket.off('message', onMessage);
          resolve(message);
        };
        socket.on('message', onMessage);
        socket.send(JSON.stringify({ id, type, params }));
      });
    },
    close: () => socket.terminate(),
  };
}

/** Asks until the answer is not `busy` (following its retry hint); the answer and when it came. */
async function askUntilAnswered(socket: Awaited<ReturnType<typeof socketTo>>, type: string, params: unknown, deadline: number) {
  for (;;) {
    const answer = await socket.ask(type, params, Math.max(1, deadline - Date.now()));
    if (answer === 'silent' || Date.now() > deadline) return { answer, at: Date.now() };
    if (answer.type !== 'error' || answer.code !== 'busy') return { answer, at: Date.now() };
    await new Promise((resolve) => setTimeout(resolve, answer.retryAfterMs ?? 250));
  }
}

describe('a SIGSTOPped worker behind the --workers balancer', { timeout: 180_000 }, () => {
  let db: Awaited<ReturnType<typeof freshSchema>>;
  let demo: WorkersDemo;

  before(async () => {
    db = await freshSchema('frozen');
    demo = await startWorkersDemo(db.schema);
  });
  after(async () => {
    for (const worker of demo?.workers ?? []) process.kill(worker.pid, 'SIGCONT');
    await demo?.stop();
    await db?.drop();
  });

  it('loses new connections at once, its sessions answer elsewhere within expiry + 3 s, and it wakes without stale reads', async (t) => {
    const first = await inTime(fetch(`http://127.0.0.1:${demo.port}/`), 'the demo page', 30_000);
    const cookie = first.headers.get('set-cookie')!.split(';')[0]!;
    const headers = { Cookie: cookie, Origin: `http://127.0.0.1:${demo.port}` };
    // One session on each worker (the balancer goes round-robin).
    const opened: string[] = [];
    for (let i = 0; i < 3; i++) {
      const socket = await socketTo(t, demo.port, headers);
      const answer = await socket.ask('session.open', { title: `frozen ${i}` });
      assert.ok(answer !== 'silent' && answer.type === 'result', JSON.stringify(answer));
      opened.push((answer.result as { sessionId: string }).sessionId);
      socket.close();
    }
    const { rows } = await db.pool.query(`SELECT session_id, owner_id FROM "${db.schema}".ts_session_owners WHERE session_id = ANY($1)`, [
      opened,
    ]);
    const victim = demo.workers.find((w) => w.workerId === rows[0]!.owner_id)!;
    const lost = rows.filter((row) => row.owner_id === victim.workerId).map((row) => row.session_id as string);
    const other = demo.workers.find((w) => w !== victim)!;
    const elsewhere = await socketTo(t, other.port, headers);

    process.kill(victim.pid, 'SIGSTOP');
    const frozenAt = Date.now();
    // The balancer asks /healthz every 500 ms and gives up on an answer after 1 s.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    for (let i = 0; i < 6; i++) {
      const socket = await socketTo(t, demo.port, headers);
      assert.notEqual(await socket.ask('ping', {}, 2_000), 'silent', `new connection ${i} reached the frozen worker`);
      socket.close();
    }

    for (const sessionId of lost) {
      const { answer, at } = await askUntilAnswered(elsewhere, 'log.read', { sessionId, limit: 5 }, frozenAt + 30_000);
      assert.ok(answer !== 'silent' && answer.type === 'result', `session ${sessionId}: ${JSON.stringify(answer)}`);
      assert.ok(at - frozenAt <= EXPIRY_MS + 3_000, `session ${sessionId} answered ${at - frozenAt} ms after the freeze`);
    }
    // The new owner writes: the woken process must not answer from the copy it held before.
    const sent = await askUntilAnswered(
      elsewhere,
      'session.send',
      { sessionId: lost[0], messageId: 'frozen-m1', rpcId: 'frozen-r1', text: 'while it slept' },
      Date.now() + 15_000,
    );
    assert.ok(sent.answer !== 'silent' && sent.answer.type === 'result', JSON.stringify(sent.answer));
    const fresh = await askUntilAnswered(elsewhere, 'log.read', { sessionId: lost[0], limit: 50 }, Date.now() + 15_000);
    const lastSeq = ((fresh.answer as Answer).result as { lastSeq: number }).lastSeq;

    process.kill(victim.pid, 'SIGCONT');
    const woken = await socketTo(t, victim.port, headers);
    const read = await askUntilAnswered(woken, 'log.read', { sessionId: lost[0], limit: 50 }, Date.now() + 20_000);
    assert.ok(read.answer !== 'silent' && read.answer.type === 'result', JSON.stringify(read.answer));
    const page = read.answer.result as { lastSeq: number; events: { type: string; text?: string }[] };
    assert.ok(page.lastSeq >= lastSeq, `the woken worker answered lastSeq ${page.lastSeq}, the log has ${lastSeq}`);
    assert.ok(
      page.events.some((e) => e.type === 'user/message' && e.text === 'while it slept'),
      'the woken worker serves what the new owner wrote',
    );
  });
});
