// The door kit's drivers of the two examples (demo/ai-sdk/, demo/ag-ui/): one door, composed once
// (demo/exampleDoor.ts), so one set of words; each driver starts its example and names its own paths.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { startAgUiDemo } from '../../demo/ag-ui/server.js';
import { MAX_BODY_BYTES } from '../../demo/ai-sdk/guard.js';
import { scriptedModel } from '../../demo/ai-sdk/model.js';
import { startAiSdkDemo } from '../../demo/ai-sdk/server.js';
import type { ExampleBodyLimits, ExampleDoorOptions } from '../../demo/exampleDoor.js';
import type { DemoIdentities } from '../../demo/identity.js';
import type { DoorDriver, DoorWords, KitOptions, RunningDoor } from './kit.js';

/** A size as the examples word it: bytes below 1 MiB, else MiB with one decimal. */
const size = (bytes: number) => (bytes < 1024 * 1024 ? `${bytes} bytes` : `${(bytes / (1024 * 1024)).toFixed(1)} MiB`);

/** What the examples' door answers, in the words docs/security.md quotes. */
const EXAMPLE_WORDS: DoorWords = {
  unknown: 'who is asking is not known: open the page first (it sets your identity cookie)',
  badHost: 'the Host header is malformed or not one this server serves',
  crossSite: 'this Origin may not write here',
  notJson: 'the request body must be application/json',
  tooLarge: 'the request body is over 262144 bytes',
  tooSlow: (ms) => `the request body did not arrive within ${ms} ms`,
  addressRate: (rate, s) =>
    `too many requests: this address may send ${rate.perSecond} a second (bursts of ${rate.burst}); retry in ${s} s`,
  personRate: (rate, s) => `too many requests: this person may send ${rate.perSecond} a second (bursts of ${rate.burst}); retry in ${s} s`,
  inAll: (n) => `too many requests at once: the server already has ${n} being answered (at most ${n}); retry in 1 s`,
  bodyShare: (bytes) => `this address's request bodies being read would pass ${size(bytes)}; retry in 1 s`,
  bodyAll: (bytes) => `the server is reading as many request bodies as it may at once (${size(bytes)}); retry in 1 s`,
};

/** The door's options for what a scenario sets (every other limit its default). */
const doorOptions = ({
  perAddress,
  perPrincipal,
  inFlight,
  bodyBytesInFlight,
  trustedProxies,
  bodyTimeoutMs,
}: KitOptions = {}): ExampleDoorOptions => ({
  requestLimits: { perAddress, perPrincipal, inFlight, bodyBytesInFlight },
  ...(trustedProxies && { trustedProxies }),
  ...(bodyTimeoutMs !== undefined && { bodyTimeoutMs }),
});

/** An example's door as the kit sees it, and the body limits it resolved from its options. */
interface RunningExample extends RunningDoor {
  limits: Readonly<ExampleBodyLimits>;
}

/** A driver of an example: its door says the limits it keeps. */
interface ExampleDriver extends DoorDriver {
  start(t: TestContext, options?: KitOptions): Promise<RunningExample>;
}

/** A running example as the kit sees it, its data folder removed and its server closed after `t`. */
function running(
  t: TestContext,
  example: { url: string; identities: DemoIdentities; limits: Readonly<ExampleBodyLimits>; close(): Promise<void> },
  dataDir: string,
): RunningExample {
  t.after(async () => {
    await example.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    url: example.url,
    limits: example.limits,
    cookie() {
      const { cookie } = example.identities.issue();
      return `${cookie.name}=${cookie.value}`;
    },
  };
}

const exampleDriver = (door: string, paths: DoorDriver['paths'], start: ExampleDriver['start']): ExampleDriver => ({
  door,
  start,
  paths,
  limits: { maxBodyBytes: MAX_BODY_BYTES },
  words: EXAMPLE_WORDS,
  wordsOf: (answer) =>
    answer.headers['content-type']?.includes('json') ? ((JSON.parse(answer.text) as { error?: string }).error ?? null) : null,
});

/** `npm run demo:ai-sdk`: the scripted model, chats in a fresh folder. */
export const aiSdkDriver = exampleDriver(
  'AI SDK example',
  { open: '/favicon.ico', read: '/api/chats/c1', write: '/api/chat' },
  async (t, options) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ts-door-kit-ai-sdk-'));
    return running(t, await startAiSdkDemo({ model: scriptedModel(), dataDir, ...doorOptions(options) }), dataDir);
  },
);

/** `npm run demo:ag-ui` (and `demo:copilotkit`, the same server): the demo Host's scripted agent, SQLite in a fresh folder. */
export const agUiDriver = exampleDriver(
  'AG-UI example',
  { open: '/favicon.ico', read: '/api/thread', write: '/api/ag-ui' },
  async (t, options) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ts-door-kit-ag-ui-'));
    return running(t, await startAgUiDemo({ dataDir, ...doorOptions(options) }), dataDir);
  },
);

/**
 * The example's body limits when it is started with no option, as docs/security.md states them
 * (body 256 KiB within 10 s): the kit's deadline scenario sets a short deadline of its own, and shows
 * the door keeps whichever it is given; this pins the default it ships with.
 */
export function pinBodyDefaults(driver: ExampleDriver): void {
  test(`${driver.door} · a body is read up to 256 KiB and within 10 s by default`, async (t) => {
    const door = await driver.start(t);
    assert.deepEqual({ ...door.limits }, { maxBodyBytes: 256 * 1024, bodyTimeoutMs: 10_000 });
  });
}
