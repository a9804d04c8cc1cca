// The cluster's secret never travels: a process proves it knows it by a challenge–response (HMAC over
// both nonces and the address dialed), the owner first. A rogue row in the workers table (an address
// that does not know the secret) learns nothing, and a proof relayed to another process fails there.
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { after, before, describe, it, type TestContext } from 'node:test';
import { WebSocket, WebSocketServer } from 'ws';
import { SYSTEM_PRINCIPAL } from '../../protocol/index.js';
import { answerChallenge, nonce, proof } from '../../transport/cluster/handshake.js';
import { DEFAULT_PEER_LIMITS, Peers } from '../../transport/cluster/peers.js';
import { CLOSE_PEER_REFUSED, encodePrincipal, PEER_HEADER } from '../../transport/ws/peerWire.js';
import { inTime } from '../transport/helpers.js';
import { clusterFixture, SECRET, within, type Worker } from './helpers.js';

/** A socket that claims to be a peer of `worker`, terminated when the test ends: the frames it got and how it closed. */
async function claimPeer(t: TestContext, worker: Worker, peerNonce: string) {
  const socket = new WebSocket(`ws://127.0.0.1:${worker.port}/ws`, { headers: { [PEER_HEADER]: peerNonce } });
  t.after(() => socket.terminate());
  const frames: string[] = [];
  socket.on('message', (data) => frames.push(String(data)));
  socket.on('error', () => {});
  const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
  const status = await inTime(
    new Promise<number>((resolve) => {
      socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      socket.once('open', () => resolve(101));
    }),
    'an answer to the peer upgrade',
    10_000,
  );
  return {
    socket,
    frames,
    status,
    /** How the server closed it: an unproven peer within 5 s, so 10 s on a loaded machine at most. */
    get closed() {
      return inTime(closed, 'the claimed peer to be closed', 10_000);
    },
  };
}

const ping = (id: string) => `${encodePrincipal(SYSTEM_PRINCIPAL)} ${JSON.stringify({ id, type: 'ping', params: {} })}`;

describe('peer authentication: a challenge, never the secret', { timeout: 90_000 }, () => {
  const cluster = clusterFixture('handshake');
  let a: Worker;
  let url: string;
  before(async () => {
    a = await cluster.start();
    url = `ws://127.0.0.1:${a.port}/ws`;
  });

  it('refuses a peer upgrade without a well-formed nonce (401)', async (t) => {
    for (const bad of ['', 'short', 'cluster-test-secret-0123456789!']) {
      const claim = await claimPeer(t, a, bad);
      assert.equal(claim.status, 401, JSON.stringify(bad));
    }
  });

  it('serves a peer that answers the challenge, and reads nothing from one whose proof is wrong', async (t) => {
    const mine = nonce();
    const good = await claimPeer(t, a, mine);
    await within(
      10_000,
      () => good.frames.length === 1,
      () => 'no challenge',
    );
    const answer = answerChallenge(Buffer.from(SECRET), mine, url, good.frames[0]!);
    assert.ok(answer, 'the owner proved the secret for the address dialed');
    good.socket.send(answer);
    good.socket.send(ping('p1'));
    await within(
      10_000,
      () => good.frames.length === 2,
      () => 'no answer to a proven peer',
    );
    assert.equal(good.frames[1], `${encodePrincipal(SYSTEM_PRINCIPAL)} ${JSON.stringify({ type: 'result', id: 'p1', result: 'pong' })}`);

    // The same challenge answered with a proof for another address (a relayed one), or with no proof.
    for (const wrong of [
      (owner: string, n: string) =>
        JSON.stringify({ type: 'peer.proof', proof: proof(Buffer.from(SECRET), 'peer', n, owner, 'ws://rogue.example/ws') }),
      () => JSON.stringify({ type: 'peer.proof', proof: SECRET }),
      () => ping('p0'),
    ]) {
      const peerNonce = nonce();
      const claim = await claimPeer(t, a, peerNonce);
      await within(
        10_000,
        () => claim.frames.length === 1,
        () => 'no challenge',
      );
      const ownerNonce = (JSON.parse(claim.frames[0]!) as { nonce: string }).nonce;
      claim.socket.send(wrong(ownerNonce, peerNonce));
      claim.socket.send(ping('p2'));
      assert.equal(await claim.closed, CLOSE_PEER_REFUSED);
      assert.equal(claim.frames.length, 1, 'nothing but the challenge was sent');
    }
  });

  it('closes a claimed peer that does not answer within 5 s', async (t) => {
    const claim = await claimPeer(t, a, nonce());
    const started = Date.now();
    assert.equal(await claim.closed, CLOSE_PEER_REFUSED);
    assert.ok(Date.now() - started >= 4_000, `closed after ${Date.now() - started} ms`);
  });
});

describe('a rogue address in the workers table', () => {
  let rogue: WebSocketServer;
  const upgrades: IncomingMessage[] = [];
  const received: string[] = [];
  before(async () => {
    rogue = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise((r) => rogue.once('listening', r));
    rogue.on('connection', (socket, request) => {
      upgrades.push(request);
      socket.on('message', (data) => received.push(String(data)));
      // It does not know the secret: its best guess at a challenge.
      socket.send(JSON.stringify({ type: 'peer.challenge', nonce: nonce(), proof: 'x'.repeat(43) }));
    });
  });
  after(() => rogue.close());

  it('never gets the secret, a proof or a request: the request is answered busy', async (t) => {
    const errors: string[] = [];
    const peers = new Peers(SECRET, { ...DEFAULT_PEER_LIMITS, timeoutMs: 5_000 }, undefined, (url) => errors.push(url));
    t.after(() => peers.close());
    const url = `ws://127.0.0.1:${(rogue.address() as { port: number }).port}/ws`;
    const answer = await peers.connection(url)!.request({ id: 'alice' }, { id: 'r1', type: 'log.read', params: { sessionId: 's1' } });
    assert.equal(answer.type === 'error' && answer.code, 'busy');
    assert.match(answer.type === 'error' ? answer.message : '', /cannot be reached/);
    assert.equal(upgrades.length, 1);
    assert.ok(!JSON.stringify(upgrades[0]!.headers).includes(SECRET), 'the secret is not in the upgrade');
    await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(received, [], 'the rogue received nothing: no proof, no request');
    assert.deepEqual(errors, [url], 'the refusal is reported to the operator');
  });
});
