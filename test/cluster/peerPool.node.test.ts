// Peer traffic does not depend on how many principals there are: one connection from B to A carries
// every principal's requests and watches, so 300 identities each watching a session A owns through
// B leave another person's cross-process request answered (not `busy`). And the policy is asked
// before a session is acquired or routed: a principal without access never makes a process take,
// load or forward a session.
import assert from 'node:assert/strict';
import { before, describe, it, type TestContext } from 'node:test';
import { WebSocket } from 'ws';
import { inTime } from '../transport/helpers.js';
import { clusterFixture, within, type Worker } from './helpers.js';

type Frame = { type: string; id?: string | null; code?: string; result?: unknown; sessionId?: string };

/** A socket as `principal` to a worker, terminated when the test ends; `ask` resolves with the answer to its id. */
async function as(t: TestContext, worker: Worker, principal: string) {
  const socket = new WebSocket(`ws://127.0.0.1:${worker.port}/ws`, { headers: { 'x-test-principal': principal } });
  t.after(() => socket.terminate());
  socket.on('error', () => {});
  const frames: Frame[] = [];
  socket.on('message', (data) => frames.push(JSON.parse(String(data)) as Frame));
  await inTime(
    new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    }),
    `a socket as ${principal} to open`,
    30_000,
  );
  let next = 0;
  return {
    frames,
    async ask(type: string, params: unknown): Promise<Frame> {
      const id = `${principal}-${++next}`;
      socket.send(JSON.stringify({ id, type, params }));
      await within(
        30_000,
        () => frames.some((f) => f.id === id),
        () => `no answer to ${type} for ${principal}`,
      );
      return frames.find((f) => f.id === id)!;
    },
    close: () => socket.terminate(),
  };
}

const stats = async (worker: Worker) =>
  (await (await fetch(`http://127.0.0.1:${worker.port}/stats`)).json()) as { peerConnections: number; owned: number };

describe('the peer pool: one connection per peer, whatever the number of principals', { timeout: 240_000 }, () => {
  const cluster = clusterFixture('pool');
  let a: Worker;
  let b: Worker;
  before(async () => {
    a = await cluster.start({ AUTH: 'header' });
    b = await cluster.start({ AUTH: 'header' });
  });

  it('300 identities watching sessions A owns through B leave another person answered', async (t) => {
    const sockets: Awaited<ReturnType<typeof as>>[] = [];
    const count = 300;
    const sessions: string[] = [];
    for (let batch = 0; batch < count; batch += 25) {
      const opened = await Promise.all(
        Array.from({ length: Math.min(25, count - batch) }, async (_, i) => {
          const socket = await as(t, a, `visitor-${batch + i}`);
          const answer = await socket.ask('session.open', { title: 'mine' });
          socket.close();
          assert.equal(answer.type, 'result', JSON.stringify(answer));
          return (answer.result as { sessionId: string }).sessionId;
        }),
      );
      sessions.push(...opened);
    }
    for (let batch = 0; batch < count; batch += 25) {
      await Promise.all(
        sessions.slice(batch, batch + 25).map(async (sessionId, i) => {
          const socket = await as(t, b, `visitor-${batch + i}`);
          sockets.push(socket);
          const answer = await socket.ask('session.watch', { sessionId });
          assert.deepEqual([answer.type, answer.result], ['result', 'watching'], JSON.stringify(answer));
        }),
      );
    }
    await within(
      30_000,
      () => sockets.every((s) => s.frames.some((f) => f.type === 'session.view')),
      () => `${sockets.filter((s) => s.frames.some((f) => f.type === 'session.view')).length} of ${count} watchers saw a view`,
    );
    assert.equal((await stats(b)).peerConnections, 1, 'one connection from B to A carries every principal');

    // Someone else, arriving now: a session on A, asked through B.
    const onA = await as(t, a, 'late');
    const { sessionId } = (await onA.ask('session.open', { title: 'late' })).result as { sessionId: string };
    onA.close();
    const onB = await as(t, b, 'late');
    sockets.push(onB);
    const read = await onB.ask('log.read', { sessionId, limit: 5 });
    assert.equal(read.type, 'result', JSON.stringify(read));
    const sent = await onB.ask('session.send', { sessionId, messageId: 'late-m1', rpcId: 'late-r1', text: 'still here?' });
    assert.deepEqual([sent.type, (sent.result as { accepted?: boolean } | undefined)?.accepted], ['result', true], JSON.stringify(sent));
    // Each principal is still itself on the shared connection: the owner's policy refuses another's session.
    const foreign = await onB.ask('log.read', { sessionId: sessions[0], limit: 1 });
    assert.equal(foreign.code, 'unknown-session', JSON.stringify(foreign));
  });
});

describe('the policy before the cluster acquires or routes a session', { timeout: 120_000 }, () => {
  const cluster = clusterFixture('policy');
  let a: Worker;
  let b: Worker;
  before(async () => {
    a = await cluster.start({ AUTH: 'header' });
    b = await cluster.start({ AUTH: 'header' });
  });

  const ownerOf = async (sessionId: string) =>
    (await cluster.db.pool.query(`SELECT owner_id FROM "${cluster.db.schema}".ts_session_owners WHERE session_id = $1`, [sessionId]))
      .rows[0]?.owner_id as string | undefined;

  it('a principal without access never makes a process take, load or forward a session', async (t) => {
    const alice = await as(t, a, 'alice');
    const { sessionId } = (await alice.ask('session.open', { title: "alice's" })).result as { sessionId: string };
    alice.close();
    // A stops gracefully: its sessions have no owner now, and the next request would take them.
    await a.kill('SIGTERM');
    assert.equal(await ownerOf(sessionId), undefined);

    const mallory = await as(t, b, 'mallory');
    for (const [type, params] of [
      ['log.read', { sessionId, limit: 5 }],
      ['session.watch', { sessionId }],
      ['session.send', { sessionId, messageId: 'm-1', rpcId: 'r-1', text: 'let me in' }],
      ['taskSurface.getActive', { sessionId, surfaceId: 'ts-1' }],
    ] as const) {
      const answer = await mallory.ask(type, params);
      assert.equal(answer.code, 'unknown-session', `${type}: ${JSON.stringify(answer)}`);
    }
    mallory.close();
    assert.equal(await ownerOf(sessionId), undefined, 'nobody took the session for mallory');
    assert.equal((await stats(b)).owned, 0, 'B serves nothing for mallory');

    // Alice, through B: the same session is taken and served.
    const again = await as(t, b, 'alice');
    const read = await again.ask('log.read', { sessionId, limit: 5 });
    assert.equal(read.type, 'result', JSON.stringify(read));
    assert.equal(await ownerOf(sessionId), b.workerId);
  });
});
