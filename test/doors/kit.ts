// The door kit: each rule every door keeps (docs/security.md, "Every door"), written once as the
// attack it stops, and run on every door by its driver (the AI SDK example, the AG-UI example, …),
// each as a test of its own named `<door> · <scenario>`. A driver starts its door and says its paths,
// its limits and its words; a scenario that does not apply to a door is skipped with the reason,
// printed in the test output, never passed silently.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { test, type TestContext } from 'node:test';

/** A rate a scenario sets on its door: `perSecond` after a burst of `burst`. */
export interface KitRate {
  perSecond: number;
  burst: number;
}

/** What a scenario sets on its door (every other limit the door's default). */
export interface KitOptions {
  perAddress?: KitRate;
  perPrincipal?: KitRate;
  /** Requests being answered in all. */
  inFlight?: number;
  /** Bytes of request bodies read at once, a sixteenth of it one address's. */
  bodyBytesInFlight?: number;
  /** Proxies whose `X-Forwarded-For` names the client. */
  trustedProxies?: string[];
  /** A body must arrive whole within this many milliseconds. */
  bodyTimeoutMs?: number;
}

/** A door started for one test (closed when the test ends, by the driver). */
export interface RunningDoor {
  url: string;
  /** A new person's identity, as a `Cookie` header's value. */
  cookie(): string;
}

/** What a door answers when a rule refuses a request: its sentence for each. */
export interface DoorWords {
  unknown: string;
  badHost: string;
  crossSite: string;
  notJson: string;
  tooLarge: string;
  /** A body not whole within its deadline of `ms`. */
  tooSlow(ms: number): string;
  addressRate(rate: KitRate, retryAfterS: number): string;
  personRate(rate: KitRate, retryAfterS: number): string;
  /** Past the requests being answered in all (503). */
  inAll(inFlight: number): string;
  /** Past one address's share of the body budget (429), and past the whole (503). */
  bodyShare(perAddressBytes: number): string;
  bodyAll(bytes: number): string;
}

export type Scenario =
  | 'unknown'
  | 'badHost'
  | 'crossSite'
  | 'notJson'
  | 'tooLarge'
  | 'tooSlow'
  | 'addressRate'
  | 'otherAddress'
  | 'personRate'
  | 'otherPerson'
  | 'inAll'
  | 'bodyBudget'
  | 'trustedProxy';

export interface DoorDriver {
  /** The door's name in the tests' names. */
  door: string;
  /** Starts the door, with what a scenario sets (else the door's defaults); closed after `t`. */
  start(t: TestContext, options?: KitOptions): Promise<RunningDoor>;
  paths: {
    /** Answered to anyone, counted only per address (a page's file). */
    open: string;
    /** A person's GET of their own data: counted per address and per person. */
    read: string;
    /** A JSON write: the path, and a body it reads. */
    write: string;
  };
  limits: {
    /** The most of a body read. */
    maxBodyBytes: number;
  };
  words: DoorWords;
  /** The sentence of a refusal's body (`{ error }`, a JSON-RPC error's message, plain text…). */
  wordsOf(answer: Answer): string | null;
  /** Scenarios that do not apply to this door, and why. */
  notApplicable?: Partial<Record<Scenario, string>>;
}

/** A request's answer as the client reads it; `error` when it read a reset or close instead. */
export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  error?: string;
}

export interface Ask {
  method?: 'GET' | 'POST';
  /** The local address to send from (any 127/8 address on Linux): one address of the door's counting. */
  from?: string;
  headers?: Record<string, string>;
  /** The whole body, or chunks sent one after another (no Content-Length: chunked). */
  body?: string | Buffer | Buffer[];
  /** Sends these bytes of a body announced as `announce` bytes long, and no more. */
  unfinished?: { announce: number; send: string };
}

/** One request on a connection of its own; never rejects: a reset is answered as `error`. */
export function ask(door: RunningDoor, path: string, init: Ask = {}): Promise<Answer> {
  return new Promise((resolve) => {
    const req = request(new URL(path, door.url), {
      method: init.method ?? 'GET',
      agent: false,
      ...(init.from ? { localAddress: init.from } : {}),
      headers: {
        ...(init.unfinished ? { 'content-length': String(init.unfinished.announce) } : {}),
        ...init.headers,
      },
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      res.on('error', (error) => resolve({ status: res.statusCode ?? 0, headers: res.headers, text, error: error.message }));
    });
    req.on('error', (error) =>
      resolve({ status: 0, headers: {}, text: '', error: (error as NodeJS.ErrnoException).code ?? error.message }),
    );
    if (init.unfinished) return void req.write(init.unfinished.send);
    if (Array.isArray(init.body)) {
      for (const chunk of init.body) req.write(chunk);
      return void req.end();
    }
    req.end(init.body);
  });
}

/** A refusal as the scenarios compare it: status and sentence (and the client read it, no reset). */
const refusal = (driver: DoorDriver, answer: Answer) => ({ status: answer.status, words: driver.wordsOf(answer), error: answer.error });
const expected = (status: number, words: string) => ({ status, words, error: undefined });

/**
 * The body deadline the deadline scenario sets: short, so that it waits 1 s rather than a door's 10 s
 * default, which a test of each door pins (test/doors/exampleDrivers.ts for the examples'; for /mcp,
 * test/mcp/bodyDeadline.node.test.ts and test/cluster/attacker.ts, through `npm start -- --workers 3`).
 */
const KIT_BODY_TIMEOUT_MS = 1_000;

/** The rates the rate scenarios set: two at once, then one in 100 s (so a slow machine refills nothing). */
const KIT_RATE: KitRate = { perSecond: 0.01, burst: 2 };

/** A write's headers as the door's own page sends it, as `cookie`'s person. */
const sameSite = (door: RunningDoor, cookie: string) => ({ origin: new URL(door.url).origin, cookie, 'content-type': 'application/json' });

/** Sends `path` from `from` until the door refuses it; the refusal (after `burst` served). */
async function exhaust(door: RunningDoor, path: string, init: Ask, burst: number): Promise<Answer> {
  for (let i = 0; i < burst; i++) {
    const served = await ask(door, path, init);
    assert.ok(
      served.status >= 200 && served.status < 300,
      `request ${i + 1} of the burst of ${burst} is served (${served.status} ${served.text})`,
    );
  }
  return ask(door, path, init);
}

/** A rate refusal: 429, its sentence with the seconds of its Retry-After, the connection closed after it. */
function assertRateRefusal(driver: DoorDriver, answer: Answer, words: (rate: KitRate, retryAfterS: number) => string): void {
  const retryAfter = Number(answer.headers['retry-after']);
  assert.ok(
    Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 100,
    `Retry-After in seconds (${answer.headers['retry-after']})`,
  );
  assert.deepEqual(refusal(driver, answer), expected(429, words(KIT_RATE, retryAfter)));
}

/** A write whose body never finishes: it holds its request (and its body's room) until the test ends. */
function hold(t: TestContext, door: RunningDoor, path: string, from: string, announce: number): void {
  const req = request(new URL(path, door.url), {
    method: 'POST',
    agent: false,
    localAddress: from,
    headers: { ...sameSite(door, door.cookie()), 'content-length': String(announce) },
  });
  req.on('error', () => undefined);
  req.write('{"id":');
  t.after(() => req.destroy());
}

/** Until the door has seen the requests just held (their headers arrive at once on loopback). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

/** A refusal that clears by itself: `status`, `Retry-After: 1`, the sentence, the connection closed after it. */
function assertBusy(driver: DoorDriver, answer: Answer, status: number, words: string): void {
  assert.deepEqual(
    { ...refusal(driver, answer), retryAfter: answer.headers['retry-after'], connection: answer.headers.connection },
    { ...expected(status, words), retryAfter: '1', connection: 'close' },
  );
}

type Run = (driver: DoorDriver, t: TestContext) => Promise<void>;

/** A person's write from the door's own page, but for `headers`, is refused `status` in `words`. */
async function writeRefused(driver: DoorDriver, t: TestContext, headers: Record<string, string>, status: number, words: string) {
  const door = await driver.start(t);
  const answer = await ask(door, driver.paths.write, {
    method: 'POST',
    headers: { ...sameSite(door, door.cookie()), ...headers },
    body: '{}',
  });
  assert.deepEqual(refusal(driver, answer), expected(status, words));
}

/** Every scenario, by key: its name in the tests, and what it does. */
export const SCENARIOS: Record<Scenario, { name: string; run: Run }> = {
  unknown: {
    name: 'no identity cookie → 401 in words',
    async run(driver, t) {
      const door = await driver.start(t);
      assert.deepEqual(refusal(driver, await ask(door, driver.paths.read)), expected(401, driver.words.unknown));
      const write = await ask(door, driver.paths.write, {
        method: 'POST',
        headers: { origin: new URL(door.url).origin, 'content-type': 'application/json' },
        body: '{}',
      });
      assert.deepEqual(refusal(driver, write), expected(401, driver.words.unknown), 'a write without one too');
    },
  },
  badHost: {
    name: 'a wrong Host → 400 (DNS rebinding)',
    async run(driver, t) {
      const door = await driver.start(t);
      const host = `attacker.example:${new URL(door.url).port}`;
      assert.deepEqual(
        refusal(driver, await ask(door, driver.paths.read, { headers: { host, cookie: door.cookie() } })),
        expected(400, driver.words.badHost),
      );
    },
  },
  crossSite: {
    name: 'a cross-site write (Origin of another site) → 403',
    run: (driver, t) => writeRefused(driver, t, { origin: 'https://evil.example' }, 403, driver.words.crossSite),
  },
  notJson: {
    name: 'a text/plain POST (a form a browser sends unasked) → 415',
    async run(driver, t) {
      await writeRefused(driver, t, { 'content-type': 'text/plain' }, 415, driver.words.notJson);
      // Refused before its body is read: one announced and never sent is answered at once, not at its deadline.
      const door = await driver.start(t);
      const started = Date.now();
      const answer = await ask(door, driver.paths.write, {
        method: 'POST',
        headers: { ...sameSite(door, door.cookie()), 'content-type': 'text/plain' },
        unfinished: { announce: 100_000, send: 'x' },
      });
      assert.deepEqual(refusal(driver, answer), expected(415, driver.words.notJson), 'a body never sent');
      assert.ok(Date.now() - started < 3_000, `answered after ${Date.now() - started} ms, before the body's deadline`);
    },
  },
  tooLarge: {
    name: 'a body over the limit → 413 that the client reads (not a reset)',
    async run(driver, t) {
      const door = await driver.start(t);
      // Sent whole before the answer is read, as most clients do: announced, then chunked.
      const over = Buffer.alloc(driver.limits.maxBodyBytes + 1024 * 1024, 'x');
      const announced = await ask(door, driver.paths.write, { method: 'POST', headers: sameSite(door, door.cookie()), body: over });
      assert.deepEqual(refusal(driver, announced), expected(413, driver.words.tooLarge), 'a body announced too large');
      assert.equal(announced.headers.connection, 'close');
      const chunks = Array.from({ length: over.length / (64 * 1024) }, (_, i) => over.subarray(i * 64 * 1024, (i + 1) * 64 * 1024));
      const chunked = await ask(door, driver.paths.write, { method: 'POST', headers: sameSite(door, door.cookie()), body: chunks });
      assert.deepEqual(refusal(driver, chunked), expected(413, driver.words.tooLarge), 'a chunked body past the limit');
    },
  },
  tooSlow: {
    name: 'a body that never finishes → 408 within its deadline',
    async run(driver, t) {
      const deadline = KIT_BODY_TIMEOUT_MS;
      const door = await driver.start(t, { bodyTimeoutMs: deadline });
      const started = Date.now();
      const answer = await ask(door, driver.paths.write, {
        method: 'POST',
        headers: sameSite(door, door.cookie()),
        unfinished: { announce: 1000, send: '{"id":' },
      });
      const took = Date.now() - started;
      assert.deepEqual(refusal(driver, answer), expected(408, driver.words.tooSlow(deadline)));
      assert.ok(took >= deadline - 100 && took < deadline + 3_000, `answered at its deadline of ${deadline} ms (took ${took} ms)`);
    },
  },
  addressRate: {
    name: 'one address past its rate → 429 with Retry-After and the sentence',
    async run(driver, t) {
      const door = await driver.start(t, { perAddress: KIT_RATE });
      const refused = await exhaust(door, driver.paths.open, { from: '127.0.0.2' }, KIT_RATE.burst);
      assertRateRefusal(driver, refused, driver.words.addressRate);
      // An API call of a person is the address's too.
      const read = await ask(door, driver.paths.read, { from: '127.0.0.2', headers: { cookie: door.cookie() } });
      assertRateRefusal(driver, read, driver.words.addressRate);
    },
  },
  otherAddress: {
    name: 'another address still served while one is refused',
    async run(driver, t) {
      const door = await driver.start(t, { perAddress: KIT_RATE });
      assert.equal((await exhaust(door, driver.paths.open, { from: '127.0.0.3' }, KIT_RATE.burst)).status, 429);
      const other = await ask(door, driver.paths.read, { from: '127.0.0.4', headers: { cookie: door.cookie() } });
      assert.equal(other.status, 200, `another address is served (${other.text})`);
      assert.equal((await ask(door, driver.paths.open, { from: '127.0.0.3' })).status, 429, 'the first is still refused');
    },
  },
  personRate: {
    name: 'one person past their rate → 429 with Retry-After and the sentence, from any address',
    async run(driver, t) {
      const door = await driver.start(t, { perPrincipal: KIT_RATE });
      const cookie = door.cookie();
      for (let i = 0; i < KIT_RATE.burst; i++) {
        const served = await ask(door, driver.paths.read, { from: `127.0.3.${i + 1}`, headers: { cookie } });
        assert.equal(served.status, 200, `request ${i + 1} of the burst is served (${served.text})`);
      }
      assertRateRefusal(driver, await ask(door, driver.paths.read, { from: '127.0.3.99', headers: { cookie } }), driver.words.personRate);
    },
  },
  otherPerson: {
    name: 'another person still served while one is refused',
    async run(driver, t) {
      const door = await driver.start(t, { perPrincipal: KIT_RATE });
      const ann = door.cookie();
      const refused = await exhaust(door, driver.paths.read, { from: '127.0.4.1', headers: { cookie: ann } }, KIT_RATE.burst);
      assert.equal(refused.status, 429);
      const bob = await ask(door, driver.paths.read, { from: '127.0.4.1', headers: { cookie: door.cookie() } });
      assert.equal(bob.status, 200, `another person, from the same address, is served (${bob.text})`);
      assert.equal(
        (await ask(door, driver.paths.read, { from: '127.0.4.1', headers: { cookie: ann } })).status,
        429,
        'the first is still refused',
      );
    },
  },
  inAll: {
    name: 'past the requests being answered in all → 503 with Retry-After, whoever asks',
    async run(driver, t) {
      const door = await driver.start(t, { inFlight: 2 });
      hold(t, door, driver.paths.write, '127.0.5.1', 1000);
      hold(t, door, driver.paths.write, '127.0.5.2', 1000);
      await settle();
      assertBusy(driver, await ask(door, driver.paths.open, { from: '127.0.5.3' }), 503, driver.words.inAll(2));
    },
  },
  bodyBudget: {
    name: "bodies read at once: past one address's share 429, past the whole 503, a small body still read",
    async run(driver, t) {
      // 1,600,000 bytes at once, 100,000 (one held body) of one address.
      const door = await driver.start(t, { bodyBytesInFlight: 1_600_000 });
      for (let i = 0; i < 16; i++) hold(t, door, driver.paths.write, `127.0.6.${i + 1}`, 100_000);
      await settle();
      const write = (from: string, init: Partial<Ask>) =>
        ask(door, driver.paths.write, { method: 'POST', from, headers: sameSite(door, door.cookie()), ...init });
      assertBusy(driver, await write('127.0.6.1', { body: '{}' }), 429, driver.words.bodyShare(100_000));
      assertBusy(driver, await write('127.0.6.17', { unfinished: { announce: 100_000, send: '{' } }), 503, driver.words.bodyAll(1_600_000));
      const small = await write('127.0.6.18', { body: '{}' });
      assert.ok(![429, 503].includes(small.status), `a small body is read whatever the whole holds (${small.status} ${small.text})`);
    },
  },
  trustedProxy: {
    name: "behind a trusted proxy X-Forwarded-For's client is counted; a forged header counts the peer",
    async run(driver, t) {
      const door = await driver.start(t, { perAddress: KIT_RATE, trustedProxies: ['127.0.0.9'] });
      const through = (client: string) => ask(door, driver.paths.open, { from: '127.0.0.9', headers: { 'x-forwarded-for': client } });
      const one = await exhaust(
        door,
        driver.paths.open,
        { from: '127.0.0.9', headers: { 'x-forwarded-for': '203.0.113.1' } },
        KIT_RATE.burst,
      );
      assertRateRefusal(driver, one, driver.words.addressRate);
      assert.equal((await through('203.0.113.2')).status < 300, true, 'another client behind the same proxy is served');
      const forged = (client: string) => ask(door, driver.paths.open, { from: '127.0.0.10', headers: { 'x-forwarded-for': client } });
      assert.deepEqual([(await forged('198.51.100.1')).status < 300, (await forged('198.51.100.2')).status < 300], [true, true]);
      assert.equal((await forged('198.51.100.3')).status, 429, 'a forged header from an untrusted peer makes no new address');
    },
  },
};

/** Runs every scenario on `driver`'s door, each as its own test `<door> · <scenario>`. */
export function runDoorKit(driver: DoorDriver): void {
  for (const [key, scenario] of Object.entries(SCENARIOS) as [Scenario, (typeof SCENARIOS)[Scenario]][]) {
    const why = driver.notApplicable?.[key];
    test(`${driver.door} · ${scenario.name}`, async (t) => {
      if (why !== undefined) return t.skip(`does not apply: ${why}`);
      await scenario.run(driver, t);
    });
  }
}
