// What happens to a client the server stops serving: one that does not read is closed (4008), and
// if it does not answer the close either, dropped 1 s later; what it still sends is not read. The
// heartbeat keeps a client that answers its pings, or that is busy sending, however long it stays.
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { describe, it, type TestContext } from 'node:test';
import { createFakeHost } from './fakeHost.js';
import { serverFor, serverUnsentBytes, socketFor, upgradeRequest } from './limitRules.js';

/** A masked client text frame (mask key 0: the payload as is). */
function textFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  assert.ok(payload.length < 126);
  return Buffer.concat([Buffer.from([0x81, 0x80 | payload.length, 0, 0, 0, 0]), payload]);
}

/**
 * A client over plain TCP that never answers a close frame (as a stalled or hostile one would not):
 * it collects the server's frames (opcode and payload) after the upgrade.
 */
async function deafClient(t: TestContext, port: number) {
  const socket: Socket = connect(port, '127.0.0.1');
  t.after(() => socket.destroy());
  socket.on('error', () => {});
  const frames: { opcode: number; payload: Buffer }[] = [];
  let buffer = Buffer.alloc(0);
  let upgraded = false;
  let ended = false;
  socket.on('close', () => (ended = true));
  await new Promise<void>((resolve) => {
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (!upgraded) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end === -1) return;
        assert.match(buffer.subarray(0, end).toString(), /^HTTP\/1\.1 101 /);
        buffer = buffer.subarray(end + 4);
        upgraded = true;
        resolve();
      }
      // Server frames are unmasked; the answers here are short (< 126 bytes).
      while (buffer.length >= 2 && buffer.length >= 2 + (buffer[1]! & 0x7f)) {
        const length = buffer[1]! & 0x7f;
        frames.push({ opcode: buffer[0]! & 0x0f, payload: buffer.subarray(2, 2 + length) });
        buffer = buffer.subarray(2 + length);
      }
    });
    socket.write(upgradeRequest(port));
  });
  return { socket, frames, ended: () => ended, send: (text: string) => socket.write(textFrame(text)) };
}

/** Lets I/O run for `turns` event-loop turns (no timers: they may be mocked). */
async function turns(count: number, done: () => boolean = () => false) {
  for (let i = 0; i < count && !done(); i++) await new Promise((r) => setImmediate(r));
}

describe('a client that does not read', () => {
  it('is closed 4008 and, not answering the close, dropped 1 s later', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const unsent = serverUnsentBytes(t, 0);
    const server = await serverFor(t);
    const client = await deafClient(t, server.port);
    unsent.set(4 * 1024 * 1024 + 1);
    client.send('{"id":"p","type":"ping"}');
    await turns(10_000, () => client.frames.some((f) => f.opcode === 0x8));
    const close = client.frames.find((f) => f.opcode === 0x8);
    assert.ok(close, 'a close frame came');
    assert.equal(close.payload.readUInt16BE(0), 4008);
    assert.equal(close.payload.subarray(2).toString(), 'not reading: over 4194304 bytes unsent');
    t.mock.timers.tick(999);
    await turns(200);
    assert.equal(client.ended(), false, 'still given its close handshake at 999 ms');
    assert.equal(server.connectionCount, 1);
    t.mock.timers.tick(1);
    await turns(10_000, () => client.ended() && server.connectionCount === 0);
    assert.equal(client.ended(), true, 'dropped at 1 s');
    assert.equal(server.connectionCount, 0);
  });

  it('has nothing it sends after the close read: no request reaches the Host', async (t) => {
    const host = createFakeHost();
    const unsent = serverUnsentBytes(t, 0);
    const server = await serverFor(t, { host });
    const client = await deafClient(t, server.port);
    unsent.set(4 * 1024 * 1024 + 1);
    client.send('{"id":"p","type":"ping"}');
    await turns(10_000, () => client.frames.some((f) => f.opcode === 0x8));
    assert.ok(client.frames.some((f) => f.opcode === 0x8));
    client.send('{"id":"s","type":"session.send","params":{"sessionId":"s1","messageId":"m","rpcId":"r","text":"hi"}}');
    client.send('{"id":"q","type":"ping"}');
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(host.calls.send, undefined);
    assert.deepEqual(
      client.frames.filter((f) => f.opcode === 0x1).map((f) => String(f.payload)),
      ['{"type":"result","id":"p","result":"pong"}'],
    );
  });
});

describe('the heartbeat', () => {
  it('keeps a client that answers every ping, heartbeat after heartbeat', async (t) => {
    t.mock.timers.enable({ apis: ['setInterval'] });
    const server = await serverFor(t, { heartbeatMs: undefined });
    const raw = await socketFor(t, server.port);
    const roundTrip = () =>
      Promise.race([raw.closed, new Promise<'open'>((resolve) => (raw.socket.once('pong', () => resolve('open')), raw.socket.ping()))]);
    for (let i = 0; i < 4; i++) {
      const pinged = new Promise((resolve) => raw.socket.once('ping', resolve));
      t.mock.timers.tick(15_000);
      await Promise.race([pinged, raw.closed]);
      assert.equal(await roundTrip(), 'open', `after heartbeat ${i + 1}`);
    }
  });

  it('keeps a client busy sending frames even when its pongs are late', async (t) => {
    t.mock.timers.enable({ apis: ['setInterval'] });
    const server = await serverFor(t, { heartbeatMs: undefined });
    const raw = await socketFor(t, server.port, { autoPong: false });
    const roundTrip = () =>
      Promise.race([raw.closed, new Promise<'open'>((resolve) => (raw.socket.once('pong', () => resolve('open')), raw.socket.ping()))]);
    for (let i = 0; i < 4; i++) {
      t.mock.timers.tick(15_000);
      const answer = await Promise.race([raw.ask(`{"id":"p${i}","type":"ping"}`), raw.closed]);
      assert.deepEqual(answer, { type: 'result', id: `p${i}`, result: 'pong' }, `after heartbeat ${i + 1}`);
    }
    assert.equal(await roundTrip(), 'open');
  });
});
