// The WebSocket client's first frames: their shape is read by hand (serverFrames.ts), and frames that
// arrive before its schema checks have loaded (a chunk of the drop-in bundle) wait, in order, bounded.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SessionView } from '../../protocol/index.js';
import type { WebSocketConstructor, WebSocketLike } from '../../transport/ws/client.js';
import { readServerFrame } from '../../transport/ws/serverFrames.js';
import { sid, until } from './helpers.js';

const view = (lastSeq: number) => ({
  sessionId: 's1',
  lastSeq,
  readOnly: false,
  turn: 'idle',
  taskSurface: { active: null },
  queue: [],
  actionCards: { proposals: [], decisions: {} },
});

describe('server frames, read by hand', () => {
  it('reads results, errors and views', () => {
    assert.deepEqual(readServerFrame({ type: 'result', id: 'r1', result: 'pong' }), {
      ok: true,
      frame: { type: 'result', id: 'r1', result: 'pong' },
    });
    assert.deepEqual(readServerFrame({ type: 'error', id: null, code: 'busy', message: 'later', retryAfterMs: 50 }), {
      ok: true,
      frame: { type: 'error', id: null, code: 'busy', message: 'later', retryAfterMs: 50 },
    });
    assert.equal(readServerFrame({ type: 'session.view', sessionId: 's1', view: view(1) }).ok, true);
  });

  it('names what is wrong with a frame a server does not send', () => {
    const problem = (frame: unknown) => {
      const read = readServerFrame(frame);
      return read.ok ? 'accepted' : read.problem;
    };
    assert.equal(problem([]), 'a frame must be a JSON object');
    assert.equal(problem({ type: 'hello' }), 'type: expected "result", "error" or "session.view"');
    assert.equal(problem({ type: 'result', id: 'r', result: 1, admin: true }), 'unknown field "admin"');
    assert.equal(problem({ type: 'result', id: '', result: 1 }), 'id: expected a string of 1–128 characters');
    assert.equal(problem({ type: 'result', id: 'x'.repeat(129), result: 1 }), 'id: expected a string of 1–128 characters');
    assert.match(problem({ type: 'error', id: 'r', code: 'teapot', message: 'm' }), /^code: expected one of bad-request, /);
    assert.equal(problem({ type: 'error', id: 'r', code: 'busy', message: 3 }), 'message: expected string');
    assert.equal(
      problem({ type: 'error', id: 'r', code: 'busy', message: 'm', retryAfterMs: -1 }),
      'retryAfterMs: expected a whole number ≥ 0',
    );
    assert.equal(problem({ type: 'session.view', sessionId: 7, view: {} }), 'sessionId: expected a string of 1–128 characters');
  });
});

/** A socket that opens at once and lets the test push frames to the client. */
function fakeSocket() {
  const sockets: FakeSocket[] = [];
  class FakeSocket implements WebSocketLike {
    readyState = 0;
    onopen: WebSocketLike['onopen'] = null;
    onclose: WebSocketLike['onclose'] = null;
    onerror: WebSocketLike['onerror'] = null;
    onmessage: WebSocketLike['onmessage'] = null;
    sent: string[] = [];
    constructor() {
      sockets.push(this);
      queueMicrotask(() => {
        this.readyState = 1;
        this.onopen?.({});
      });
    }
    send(data: string) {
      this.sent.push(data);
    }
    close() {
      this.readyState = 3;
    }
    push(frame: unknown) {
      this.onmessage?.({ data: JSON.stringify(frame) });
    }
  }
  return { Socket: FakeSocket as unknown as WebSocketConstructor, sockets };
}

/** A client module of its own, whose schema checks have not been loaded yet. */
async function freshClient() {
  const url = new URL('../../transport/ws/client.ts', import.meta.url);
  url.search = `?fresh=${Math.random()}`;
  return (await import(url.href)) as typeof import('../../transport/ws/client.js');
}

describe('frames that arrive before the client has its checks', () => {
  it('are handled in order once the checks are here, an invalid one left out', async (t) => {
    const { createWebSocketTransport } = await freshClient();
    const { Socket, sockets } = fakeSocket();
    const client = createWebSocketTransport({ url: 'ws://test/ws', WebSocket: Socket, heartbeatMs: 0 });
    t.after(() => client.dispose());
    const seen: number[] = [];
    client.watchSession(sid('s1'), (v: SessionView) => seen.push(v.lastSeq));
    await until(() => client.status === 'open');
    const socket = sockets[0]!;
    socket.push({ type: 'session.view', sessionId: 's1', view: view(1) });
    socket.push({ type: 'session.view', sessionId: 's1', view: { ...view(2), lastSeq: 'two' } });
    socket.push({ type: 'session.view', sessionId: 's1', view: view(3) });
    socket.push({ type: 'session.view', sessionId: 's1', view: view(4) });
    assert.deepEqual(seen, [], 'nothing reaches a listener unchecked');
    await until(() => seen.length === 3);
    assert.deepEqual(seen, [1, 3, 4]);
  });

  it('are kept up to 1,000; later ones are dropped with a warning', async (t) => {
    const { createWebSocketTransport } = await freshClient();
    const { Socket, sockets } = fakeSocket();
    const client = createWebSocketTransport({ url: 'ws://test/ws', WebSocket: Socket, heartbeatMs: 0 });
    t.after(() => client.dispose());
    const seen: number[] = [];
    client.watchSession(sid('s1'), (v: SessionView) => seen.push(v.lastSeq));
    await until(() => client.status === 'open');
    const warn = console.warn;
    const warnings: string[] = [];
    console.warn = (message: string) => warnings.push(message);
    try {
      for (let seq = 1; seq <= 1002; seq++) sockets[0]!.push({ type: 'session.view', sessionId: 's1', view: view(seq) });
    } finally {
      console.warn = warn;
    }
    assert.deepEqual(warnings, [
      '[task-surface] ignored a frame: too many wait for the client to load',
      '[task-surface] ignored a frame: too many wait for the client to load',
    ]);
    await until(() => seen.length === 1000);
    assert.equal(seen.at(-1), 1000);
  });

  it('makes a call wait for the checks, then checks it before sending', async (t) => {
    const { createWebSocketTransport } = await freshClient();
    const { Socket, sockets } = fakeSocket();
    const client = createWebSocketTransport({ url: 'ws://test/ws', WebSocket: Socket, heartbeatMs: 0 });
    t.after(() => client.dispose());
    await until(() => client.status === 'open');
    await assert.rejects(client.openSession({ title: '' }), {
      name: 'TransportError',
      code: 'bad-request',
      message: 'invalid session.open request: params.title: title must not be empty',
    });
    assert.deepEqual(sockets[0]!.sent, [], 'an invalid call sends nothing');
    const listed = client.listSessions();
    await until(() => sockets[0]!.sent.length === 1);
    const { id } = JSON.parse(sockets[0]!.sent[0]!) as { id: string };
    sockets[0]!.push({ type: 'result', id, result: [{ sessionId: 's1', title: 'One' }] });
    await assert.rejects(listed, { name: 'TransportError', code: 'server-error', message: /^invalid session.list answer: / });
  });
});
