// One attacker through `npm start -- --workers 3` (issue 37), tried as they would: a flood of
// connections, of new identities, of sockets, of `/mcp` sessions, bodies too large and bodies that
// never finish, all from one address behind the balancer (127.0.3.x: the balancer names it to each
// worker in a PROXY header). Each is limited per client address for the cluster as a whole (the
// identities from one bucket in PostgreSQL, sockets and `/mcp` sessions a third on each worker), and
// an ordinary person at another address is served all the while. Behaviour only; how fast the person
// is served is a bench's figure.
// Run by test/cluster/attacker.node.test.ts on a demo of its own.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { WebSocket } from 'ws';
import type { WorkersDemo } from './helpers.js';
import { Person } from '../../fixtures/cluster/people.js';

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

/** One HTTP request through the balancer from `from`; `unfinished`: a body announced and never sent whole. */
function send(
  port: number,
  from: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string; unfinished?: boolean } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1',
      port,
      path,
      method: init.method ?? 'GET',
      localAddress: from,
      agent: false,
      headers: { ...init.headers, ...(init.unfinished ? { 'content-length': '100000' } : {}) },
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    if (init.unfinished) req.write('{"jsonrpc":');
    else req.end(init.body);
  });
}

const MCP = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'attacker', version: '1.0.0' } },
});

/** Registers the checks against the demo `started()` answers (started by the caller's `before`). */
export function attackThroughBalancer(started: () => WorkersDemo): void {
  describe('one attacker through the --workers balancer', () => {
    let demo: WorkersDemo;
    const person = { ann: null as Person | null, sent: 0 };

    /** The ordinary person sends one more message and is answered (reconnecting as a page would). */
    const served = async (what: string) => {
      const ann = person.ann!;
      await ann.readAgain(Date.now() + 20_000);
      const n = ++person.sent;
      const answer = await ann.ask(
        'session.send',
        { sessionId: ann.sessionId, messageId: `ann-m${n}`, rpcId: `ann-r${n}`, text: `hi ${n}` },
        10_000,
      );
      assert.ok(
        answer !== 'silent' && answer.type === 'result',
        `the person at another address is served ${what}: ${JSON.stringify(answer)}`,
      );
    };

    before(async () => {
      demo = started();
      const ann = new Person('127.0.3.1', demo.port);
      await ann.identify();
      await ann.connect(Date.now() + 30_000);
      const opened = await ann.ask('session.open', { title: 'ann' }, 10_000);
      assert.ok(opened !== 'silent' && opened.type === 'result', JSON.stringify(opened));
      ann.sessionId = (opened.result as { sessionId: string }).sessionId;
      person.ann = ann;
    });
    after(() => person.ann?.socket?.terminate());

    it('holds 128 connections of one address at the balancer, all workers together; the 129th 429', async () => {
      const held: Socket[] = [];
      try {
        for (let i = 0; i < 128; i++) {
          held.push(
            await new Promise<Socket>((resolve, reject) => {
              const socket = connect({ port: demo.port, host: '127.0.0.1', localAddress: '127.0.3.66' }, () => resolve(socket));
              socket.once('error', reject);
            }),
          );
        }
        const late = connect({ port: demo.port, host: '127.0.0.1', localAddress: '127.0.3.66' });
        const answer = await new Promise<string>((resolve) => {
          let text = '';
          late.on('data', (chunk: Buffer) => (text += chunk.toString()));
          late.on('error', () => undefined);
          late.once('close', () => resolve(text));
        });
        assert.match(
          answer,
          /^HTTP\/1\.1 429 Too Many Requests[^]*too-many-connections: this address already holds 128 connections \(at most 128\)$/,
        );
        await served('while one address holds 128 connections');
      } finally {
        held.forEach((socket) => socket.destroy());
      }
    });

    it('mints 60 identities for one address across the 3 workers, then 429 with Retry-After; another address gets one', async () => {
      const started = Date.now();
      const answers: Answer[] = [];
      for (let i = 0; i < 120; i++) answers.push(await send(demo.port, '127.0.3.67', '/'));
      const minted = answers.filter((a) => a.status === 200 && String(a.headers['set-cookie']).startsWith('ts_demo_id='));
      const refused = answers.filter((a) => a.status === 429);
      // One bucket for the whole cluster (PostgreSQL): 60 at once, then 30 a minute, whichever worker answers.
      const allowed = 60 + Math.ceil(((Date.now() - started) / 60_000) * 30);
      assert.ok(minted.length >= 60, `${minted.length} identities minted for one address (its 60 at once)`);
      assert.ok(minted.length <= allowed, `${minted.length} identities minted for one address (at most ${allowed})`);
      assert.equal(minted.length + refused.length, answers.length, 'every answer a page with an identity, or 429');
      assert.match(refused[0]!.body, /^too many new identities from this address: retry in [12] s$/);
      assert.match(String(refused[0]!.headers['retry-after']), /^[12]$/);
      const other = await send(demo.port, '127.0.3.2', '/');
      assert.equal(other.status, 200, 'another address is given an identity');
      assert.match(String(other.headers['set-cookie']), /^ts_demo_id=/);
      await served('while one address mints identities');
    });

    it("/ws: each worker holds its share of one client address's 64 sockets, and says so; another person served", async () => {
      // Identities minted at another address (a principal holds 16 sockets on a worker): the cap counted is the address's.
      const cookies: string[] = [];
      for (let i = 0; i < 6; i++) cookies.push(String((await send(demo.port, '127.0.3.74', '/')).headers['set-cookie']).split(';')[0]!);
      const held: WebSocket[] = [];
      let refusal: { status: number; body: string } | undefined;
      try {
        for (let i = 0; i < 80 && refusal === undefined; i++) {
          const socket = new WebSocket(`ws://127.0.0.1:${demo.port}/ws`, {
            localAddress: '127.0.3.75',
            headers: { Cookie: cookies[i % cookies.length]!, Origin: `http://127.0.0.1:${demo.port}` },
          });
          socket.on('error', () => undefined);
          const outcome = await new Promise<'open' | { status: number; body: string }>((resolve) => {
            socket.once('open', () => resolve('open'));
            socket.once('unexpected-response', (_request, response) => {
              let body = '';
              response.on('data', (chunk: Buffer) => (body += chunk.toString()));
              response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
            });
            socket.once('close', () => resolve({ status: 0, body: 'closed' }));
          });
          if (outcome === 'open') held.push(socket);
          else refusal = outcome;
        }
        assert.equal(refusal?.status, 429, `one address's socket refused after ${held.length}: ${refusal?.body}`);
        assert.equal(
          refusal!.body,
          'too-many-connections: this address already holds 22 connections on this process (at most 22: its share of the 64 one address may hold across 3 processes)',
        );
        assert.ok(held.length >= 60 && held.length <= 3 * 22, `${held.length} sockets of one address (22 on each of 3 workers)`);
        await served('while one address holds its sockets');
      } finally {
        held.forEach((socket) => socket.terminate());
      }
    });

    it("/mcp: each worker holds its share of one client address's 64 sessions, bodies bounded; another client's initialize served", async () => {
      // Identities minted elsewhere and used from the attacker's address: the cap is the address's.
      const cookies: string[] = [];
      for (let i = 0; i < 30; i++) cookies.push(String((await send(demo.port, '127.0.3.68', '/')).headers['set-cookie']).split(';')[0]!);
      const host = { ...MCP, cookie: cookies[0]! };
      // A body that never finishes, from the start: answered 408 once its 10 s are up, whatever else goes on.
      const slow = send(demo.port, '127.0.3.69', '/mcp', { method: 'POST', headers: host, unfinished: true });

      // Each a client still sending when refused, through the balancer: it reads the 413, never a reset.
      for (let i = 0; i < 10; i++) {
        const large = await send(demo.port, '127.0.3.69', '/mcp', { method: 'POST', headers: host, body: 'x'.repeat(1024 * 1024 + 1) });
        assert.equal(large.status, 413);
        assert.match(large.body, /Request body larger than 1048576 bytes/);
      }

      let opened = 0;
      let refusal: Answer | undefined;
      for (let i = 0; i < 260 && refusal === undefined; i++) {
        const answer = await send(demo.port, '127.0.3.69', '/mcp', {
          method: 'POST',
          headers: { ...MCP, cookie: cookies[i % cookies.length]! },
          body: INITIALIZE,
        });
        if (answer.status === 200) opened++;
        else refusal = answer;
      }
      assert.equal(refusal?.status, 429, `one client's initialize refused after ${opened}: ${refusal?.body}`);
      assert.match(
        refusal!.body,
        /Too many sessions: this address already holds 22 MCP sessions on this process \(at most 22: its share of the 64 one address may hold across 3 processes\); close one first/,
      );
      // ceil(64 / 3) = 22 on each worker: the cluster's 64, rounded up to 66.
      assert.ok(opened <= 3 * 22, `${opened} sessions of one client (at most 22 on each of 3 workers)`);
      assert.ok(opened >= 60, `${opened} sessions of one client before the first refusal (each worker gave its 22)`);
      for (let i = 0; i < 3; i++) {
        const other = await send(demo.port, `127.0.3.${70 + i}`, '/mcp', { method: 'POST', headers: host, body: INITIALIZE });
        assert.equal(other.status, 200, `another client's initialize (${i + 1} of 3, one a worker): ${other.body}`);
      }

      const late = await slow;
      assert.equal(late.status, 408);
      assert.match(late.body, /not received within 10000 ms/);
      await served('after the /mcp flood');
    });
  });
}
