// 60 people through `npm start -- --workers 3` (issue 37), each from an address of their own
// (127.0.1.x: the balancer passes it on in a PROXY header), through a kill -9 of one worker and a
// SIGSTOP of another: not one 429 on any reconnect, a killed owner's sessions answer again within
// 1 s, a frozen owner's, every one, within the heartbeat expiry + 3 s.
import assert from 'node:assert/strict';
import { get } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { WebSocket } from 'ws';
import { freshSchema, startWorkersDemo, type WorkersDemo } from './helpers.js';

const PEOPLE = 60;
const EXPIRY_MS = 10_000; // joinCluster's default, which the demo keeps
type Answer = { type: string; id?: string; code?: string; retryAfterMs?: number; result?: unknown };

/** One person: their own address, their identity cookie, one socket through the balancer at a time. */
class Person {
  socket: WebSocket | null = null;
  /** Every upgrade refusal seen (HTTP status). */
  readonly refusals: number[] = [];
  cookie = '';
  sessionId = '';
  #next = 0;
  constructor(
    readonly address: string,
    readonly port: number,
  ) {}

  async identify(): Promise<void> {
    const response = await new Promise<{ status: number; cookie: string }>((resolve, reject) => {
      const request = get({ host: '127.0.0.1', port: this.port, path: '/', localAddress: this.address }, (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, cookie: String(res.headers['set-cookie'] ?? '').split(';')[0]! });
      });
      request.on('error', reject);
    });
    if (response.status !== 200) this.refusals.push(response.status);
    this.cookie = response.cookie;
  }

  /** Opens a socket through the balancer, again and again until one opens (each refusal recorded). */
  async connect(deadline: number): Promise<void> {
    while (Date.now() < deadline) {
      const socket = new WebSocket(`ws://127.0.0.1:${this.port}/ws`, {
        localAddress: this.address,
        headers: { Cookie: this.cookie, Origin: `http://127.0.0.1:${this.port}` },
      });
      socket.on('error', () => undefined);
      const opened = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => (socket.terminate(), resolve(false)), 3_000);
        socket.once('open', () => (clearTimeout(timer), resolve(true)));
        socket.once('unexpected-response', (_request, response) => {
          this.refusals.push(response.statusCode ?? 0);
          clearTimeout(timer);
          resolve(false);
        });
        socket.once('close', () => (clearTimeout(timer), resolve(false)));
      });
      if (opened) {
        this.socket = socket;
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`${this.address} could not connect`);
  }

  ask(type: string, params: unknown, ms: number): Promise<Answer | 'silent'> {
    const socket = this.socket!;
    const id = `q${++this.#next}`;
    return new Promise((resolve) => {
      const done = (answer: Answer | 'silent') => {
        clearTimeout(timer);
        socket.off('message', onMessage);
        socket.off('close', onClose);
        resolve(answer);
      };
      const timer = setTimeout(() => done('silent'), ms);
      const onMessage = (data: unknown) => {
        const message = JSON.parse(String(data)) as Answer;
        if (message.id === id) done(message);
      };
      const onClose = () => done('silent');
      socket.on('message', onMessage);
      socket.once('close', onClose);
      if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ id, type, params }));
      else done('silent');
    });
  }

  /** Reads the person's session until it answers (reconnecting as a client does when its socket dies); when it did. */
  async readAgain(deadline: number): Promise<number> {
    while (Date.now() < deadline) {
      if (this.socket === null || this.socket.readyState !== WebSocket.OPEN) await this.connect(deadline);
      const answer = await this.ask('log.read', { sessionId: this.sessionId, limit: 5 }, 2_000);
      if (answer !== 'silent' && answer.type === 'result') return Date.now();
      if (answer === 'silent') {
        // No answer in 2 s: as the browser's heartbeat does, give the socket up and reconnect.
        this.socket?.terminate();
        this.socket = null;
      } else await new Promise((resolve) => setTimeout(resolve, answer.retryAfterMs ?? 100));
    }
    throw new Error(`${this.address}: session ${this.sessionId} did not answer in time`);
  }
}

describe('60 people through the --workers balancer, a worker killed and another frozen', { timeout: 240_000 }, () => {
  let db: Awaited<ReturnType<typeof freshSchema>>;
  let demo: WorkersDemo;

  before(async () => {
    db = await freshSchema('people');
    demo = await startWorkersDemo(db.schema);
  });
  after(async () => {
    for (const worker of demo?.workers ?? []) {
      try {
        process.kill(worker.pid, 'SIGCONT');
      } catch {
        // already gone (the killed one)
      }
    }
    await demo?.stop();
    await db?.drop();
  });

  it('reconnect without a 429; the killed owner answers again within 1 s, the frozen one within expiry + 3 s', async (t) => {
    const people = Array.from({ length: PEOPLE }, (_, i) => new Person(`127.0.1.${i + 1}`, demo.port));
    t.after(() => people.forEach((p) => p.socket?.terminate()));
    for (const person of people) await person.identify();
    await Promise.all(people.map((p) => p.connect(Date.now() + 30_000)));
    for (const person of people) {
      const opened = await person.ask('session.open', { title: person.address }, 10_000);
      assert.ok(opened !== 'silent' && opened.type === 'result', JSON.stringify(opened));
      person.sessionId = (opened.result as { sessionId: string }).sessionId;
    }
    const owners = new Map<string, string>();
    const { rows } = await db.pool.query(`SELECT session_id, owner_id FROM "${db.schema}".ts_session_owners`);
    for (const row of rows) owners.set(row.session_id as string, row.owner_id as string);
    const ownedBy = (worker: { workerId: string }) => people.filter((p) => owners.get(p.sessionId) === worker.workerId);
    const [killed, frozen] = [...demo.workers].sort((a, b) => ownedBy(b).length - ownedBy(a).length);

    // kill -9: the owner's sessions answer again elsewhere; its people's sockets die and reconnect.
    const killedAt = Date.now();
    process.kill(killed!.pid, 'SIGKILL');
    const afterKill = await Promise.all(ownedBy(killed!).map((p) => p.readAgain(killedAt + 20_000)));
    const killMs = afterKill.map((at) => at - killedAt).sort((a, b) => a - b);
    // Everyone else reconnects too (the dead worker's sockets), as a page would.
    await Promise.all(people.map((p) => p.readAgain(Date.now() + 20_000)));

    // SIGSTOP: the owner's sessions answer elsewhere once its heartbeat expires.
    const frozenAt = Date.now();
    process.kill(frozen!.pid, 'SIGSTOP');
    const afterFreeze = await Promise.all(ownedBy(frozen!).map((p) => p.readAgain(frozenAt + 30_000)));
    const freezeMs = afterFreeze.map((at) => at - frozenAt).sort((a, b) => a - b);
    process.kill(frozen!.pid, 'SIGCONT');

    const figures = `kill -9 of ${killed!.workerId} (${killMs.length} sessions): p50 ${killMs[killMs.length >> 1]} ms, max ${killMs.at(-1)} ms; SIGSTOP of ${frozen!.workerId} (${freezeMs.length} sessions): p50 ${freezeMs[freezeMs.length >> 1]} ms, max ${freezeMs.at(-1)} ms`;
    t.diagnostic(figures);
    assert.deepEqual(
      people.flatMap((p) => p.refusals.map((status) => `${p.address}: ${status}`)).filter((r) => r.endsWith(': 429')),
      [],
      'not a single 429',
    );
    assert.ok(killMs.at(-1)! <= 1_000, `every session of the killed owner answered within 1 s: ${figures}`);
    assert.ok(freezeMs.at(-1)! <= EXPIRY_MS + 3_000, `every session of the frozen owner answered within expiry + 3 s: ${figures}`);
  });
});
