// The scenario of 60 people through `npm start -- --workers 3` (issue 37), each from an address of
// their own (127.0.1.x: the balancer passes it on in a PROXY header): everyone opens a session and
// sends one message, one worker is killed (-9) and another frozen (SIGSTOP), and every session is
// read again until it answers. test/cluster/people.node.test.ts checks what it must do (no 429, every
// session back, nothing lost or doubled); `npm run bench -- people` prints how fast (bench/suites/people.ts).
import { get } from 'node:http';
import { WebSocket } from 'ws';
import type { freshSchema, WorkersDemo } from './helpers.js';

export const PEOPLE = 60;
/** joinCluster's heartbeat expiry, which the demo keeps. */
export const EXPIRY_MS = 10_000;
type Answer = { type: string; id?: string; code?: string; retryAfterMs?: number; result?: unknown };

/** One person: their own address, their identity cookie, one socket through the balancer at a time. */
export class Person {
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

  /** The one message this person sends (its ids fixed, so a retry is the same message). */
  message(i: number) {
    return { sessionId: this.sessionId, messageId: `people-m${i}`, rpcId: `people-r${i}`, text: `hello from ${this.address}` };
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

/** What one run saw: every refusal, the takeover times (ms after the signal) and the log's count. */
export interface PeopleRun {
  /** `address: status` of every refused page load or upgrade. */
  refusals: string[];
  killed: { workerId: string; ms: number[] };
  frozen: { workerId: string; ms: number[] };
  /** Sessions whose one message is not in the log exactly once (`sessionId: count`). */
  lostOrDoubled: string[];
}

/** Runs the scenario once against a fresh `--workers 3` demo on `db`'s schema. */
export async function runPeople(db: Awaited<ReturnType<typeof freshSchema>>, demo: WorkersDemo): Promise<PeopleRun> {
  const people = Array.from({ length: PEOPLE }, (_, i) => new Person(`127.0.1.${i + 1}`, demo.port));
  try {
    for (const person of people) await person.identify();
    await Promise.all(people.map((p) => p.connect(Date.now() + 30_000)));
    for (const [i, person] of people.entries()) {
      const opened = await person.ask('session.open', { title: person.address }, 10_000);
      if (opened === 'silent' || opened.type !== 'result') throw new Error(`session.open: ${JSON.stringify(opened)}`);
      person.sessionId = (opened.result as { sessionId: string }).sessionId;
      const sent = await person.ask('session.send', person.message(i), 10_000);
      if (sent === 'silent' || sent.type !== 'result') throw new Error(`session.send: ${JSON.stringify(sent)}`);
    }
    const owners = new Map<string, string>();
    const { rows } = await db.pool.query(`SELECT session_id, owner_id FROM "${db.schema}".ts_session_owners`);
    for (const row of rows) owners.set(row.session_id as string, row.owner_id as string);
    const ownedBy = (worker: { workerId: string }) => people.filter((p) => owners.get(p.sessionId) === worker.workerId);
    const [killed, frozen] = [...demo.workers].sort((a, b) => ownedBy(b).length - ownedBy(a).length);

    // kill -9: the owner's sessions answer again elsewhere; its people's sockets die and reconnect.
    const killedAt = Date.now();
    process.kill(killed!.pid, 'SIGKILL');
    const afterKill = await Promise.all(ownedBy(killed!).map((p) => p.readAgain(killedAt + 3 * EXPIRY_MS)));
    // Everyone else reconnects too (the dead worker's sockets), as a page would.
    await Promise.all(people.map((p) => p.readAgain(Date.now() + 3 * EXPIRY_MS)));

    // SIGSTOP: the owner's sessions answer elsewhere once its heartbeat expires.
    const frozenAt = Date.now();
    process.kill(frozen!.pid, 'SIGSTOP');
    const afterFreeze = await Promise.all(ownedBy(frozen!).map((p) => p.readAgain(frozenAt + 3 * EXPIRY_MS)));
    process.kill(frozen!.pid, 'SIGCONT');

    // A page that never saw its send's answer sends it again: the same ids, so still one message.
    for (const [i, person] of people.entries()) await person.ask('session.send', person.message(i), 10_000);
    const lostOrDoubled: string[] = [];
    for (const [i, person] of people.entries()) {
      const { rows: found } = await db.pool.query(
        `SELECT count(*)::int AS n FROM "${db.schema}".ts_events WHERE session_id = $1 AND body LIKE '%"type":"user/message"%' AND body LIKE $2`,
        [person.sessionId, `%"messageId":"people-m${i}"%`],
      );
      if (found[0]!.n !== 1) lostOrDoubled.push(`${person.sessionId}: ${found[0]!.n}`);
    }
    return {
      refusals: people.flatMap((p) => p.refusals.map((status) => `${p.address}: ${status}`)),
      killed: { workerId: killed!.workerId, ms: afterKill.map((at) => at - killedAt).sort((a, b) => a - b) },
      frozen: { workerId: frozen!.workerId, ms: afterFreeze.map((at) => at - frozenAt).sort((a, b) => a - b) },
      lostOrDoubled,
    };
  } finally {
    for (const person of people) person.socket?.terminate();
  }
}
