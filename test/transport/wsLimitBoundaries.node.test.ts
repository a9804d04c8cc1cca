// The server's limits at their exact boundaries, and its refusals compared whole, as a hostile
// client or an operator relying on the documented behaviour meets them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SYSTEM_PRINCIPAL, type LogPage } from '../../protocol/index.js';
import { createFakeHost } from './fakeHost.js';
import { eventOfBytes, refusedUpgrade, serverFor, socketFor } from './limitRules.js';

/** A plain-text HTTP refusal as the server writes it. */
const refusal = (status: string, body: string) =>
  `HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${body.length}\r\n\r\n${body}`;

describe('connection caps at the upgrade', () => {
  it('counts upgrades still authenticating against maxConnections; the next gets 503 whole, before authenticate', async (t) => {
    let asked = 0;
    const pending: ((principal: null) => void)[] = [];
    t.after(() => pending.forEach((refuse) => refuse(null)));
    const server = await serverFor(t, {
      allowAnonymous: false,
      authenticate: () => (asked++, new Promise((resolve) => pending.push(resolve))),
      maxConnections: 2,
    });
    void refusedUpgrade(t, server.port);
    void refusedUpgrade(t, server.port);
    for (let i = 0; i < 2_000 && asked < 2; i++) await new Promise((r) => setTimeout(r, 5));
    assert.equal(asked, 2);
    assert.equal(await refusedUpgrade(t, server.port), refusal('503 Service Unavailable', 'at most 2 connections'));
    assert.equal(asked, 2, 'refused before authenticate');
  });

  it('answers 429 Too Many Requests whole, per principal and per address', async (t) => {
    const server = await serverFor(t, {
      allowAnonymous: false,
      authenticate: (request) => ({ id: new URL(request.url ?? '/', 'http://x').searchParams.get('as') ?? 'x' }),
      maxConnectionsPerPrincipal: 1,
      maxConnectionsPerAddress: 2,
    });
    assert.equal(await refusedUpgrade(t, server.port, '/?as=ada'), 'HTTP/1.1 101 Switching Protocols');
    assert.equal(
      await refusedUpgrade(t, server.port, '/?as=ada'),
      refusal('429 Too Many Requests', 'too-many-connections: this principal already holds 1 connections (at most 1); close one first'),
    );
    assert.equal(await refusedUpgrade(t, server.port, '/?as=bob'), 'HTTP/1.1 101 Switching Protocols');
    assert.equal(
      await refusedUpgrade(t, server.port, '/?as=cy'),
      refusal('429 Too Many Requests', 'too-many-connections: this address already holds 2 connections (at most 2)'),
    );
  });

  it('does not count an anonymous server per address, nor host code per principal', async (t) => {
    const anonymous = await serverFor(t, { maxConnectionsPerAddress: 1, maxConnectionsPerPrincipal: 1 });
    for (let i = 0; i < 3; i++) assert.equal(await refusedUpgrade(t, anonymous.port), 'HTTP/1.1 101 Switching Protocols', `anonymous ${i}`);
    const hostCode = await serverFor(t, { allowAnonymous: false, authenticate: () => SYSTEM_PRINCIPAL, maxConnectionsPerPrincipal: 1 });
    for (let i = 0; i < 3; i++) assert.equal(await refusedUpgrade(t, hostCode.port), 'HTTP/1.1 101 Switching Protocols', `host code ${i}`);
  });
});

describe('frame bounds', () => {
  const frame = (bytes: number, id: string) => {
    const head = `{"id":"${id}","type":"ping","pad":"`;
    return `${head}${'x'.repeat(bytes - head.length - 2)}"}`;
  };

  it('a maxFrameBytes under maxMessageBytes is raised to it: a frame of maxMessageBytes is read, one byte more closes (1009)', async (t) => {
    const server = await serverFor(t, { maxMessageBytes: 1024, maxFrameBytes: 512 });
    const raw = await socketFor(t, server.port);
    assert.deepEqual(await Promise.race([raw.ask(frame(1024, 'at')), raw.closed]), {
      type: 'error',
      id: 'at',
      code: 'bad-request',
      message: 'invalid ping request: unknown field "pad"',
    });
    raw.socket.send(frame(1025, 'over'));
    assert.deepEqual(await raw.closed, { code: 1009, reason: '' });
  });

  it('maxDepth to the level: a frame of exactly maxDepth levels is read, one level more refused', async (t) => {
    const server = await serverFor(t, { maxDepth: 4 });
    const raw = await socketFor(t, server.port);
    assert.deepEqual(await raw.ask('{"id":"at","type":"ping","x":[[[1]]]}'), {
      type: 'error',
      id: 'at',
      code: 'bad-request',
      message: 'invalid ping request: unknown field "x"',
    });
    assert.deepEqual(await raw.ask('{"id":"over","type":"ping","x":[[[[1]]]]}'), {
      type: 'error',
      id: 'over',
      code: 'bad-request',
      message: 'message nests arrays and objects deeper than 4 levels',
    });
  });
});

describe('log pages', () => {
  it('by default hold 1 MiB of events to the byte: two that fill it exactly both come, one byte more leaves the older out', async (t) => {
    const host = createFakeHost();
    const server = await serverFor(t, { host });
    const raw = await socketFor(t, server.port);
    const read = async (older: number, newer: number) => {
      host.answerWith('readLog', {
        events: [eventOfBytes(1, older), eventOfBytes(2, newer)],
        hasMore: false,
        lastSeq: 2,
      } satisfies LogPage);
      const page = (await raw.ask(JSON.stringify({ id: 'r', type: 'log.read', params: { sessionId: 's1', limit: 10 } }))).result as LogPage;
      return { seqs: page.events.map((e) => e.seq), hasMore: page.hasMore };
    };
    assert.deepEqual(await read(524_288, 524_288), { seqs: [1, 2], hasMore: false });
    assert.deepEqual(await read(524_289, 524_288), { seqs: [2], hasMore: true });
  });
});
