// Shared set-up of the end-to-end tests: one demo build, one Chromium, a real demo host over
// WebSocket in this process, and pages that record every CSP violation.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, afterEach, before } from 'node:test';
import { existsSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { buildDemo } from '../../demo/build.js';
import { startDemoServer, type DemoServer } from '../../demo/app.js';
import type { Principal, SessionEvent, SessionId } from '../../protocol/index.js';
import type { AgentDriver } from '../../host/types.js';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export interface E2E {
  browser: Browser;
  root: string;
  close(): Promise<void>;
}

const BUILD_PREFIX = 'ts-e2e-build-';

/**
 * The demo (or, with `prefix` and `build`, another site) built once per test run: `node --test` runs each file in a child process, so the files
 * of one run share their parent's pid and reuse its build (renamed into place whole, so a file
 * never sees half a build). Builds of runs that ended are removed. Without /proc every file builds.
 */
export function sharedBuild(prefix = BUILD_PREFIX, build: (outdir: string) => Promise<unknown> = buildDemo): Promise<string> {
  // Files that share a process (scripts/nodeTestPlan.mjs) ask at once: one build for them all.
  let made = builds.get(prefix);
  if (!made) builds.set(prefix, (made = buildOnce(prefix, build)));
  return made;
}

/** This process's builds, by prefix: asked for by every file of the process, made once. */
const builds = new Map<string, Promise<string>>();

async function buildOnce(prefix: string, build: (outdir: string) => Promise<unknown>): Promise<string> {
  const root = join(tmpdir(), `${prefix}${process.ppid}`);
  for (const name of readdirSync(tmpdir())) {
    const pid = Number(name.slice(prefix.length).split('.')[0]);
    if (name.startsWith(prefix) && pid !== process.ppid && !isAlive(pid)) rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
  // Reused only if built since the parent started (a recycled pid must not serve an old build).
  const parentStarted = existsSync(`/proc/${process.ppid}`) ? statSync(`/proc/${process.ppid}`).ctimeMs : Infinity;
  if (existsSync(root)) {
    if (statSync(root).mtimeMs >= parentStarted) return root;
    rmSync(root, { recursive: true, force: true });
  }
  const staging = `${root}.${process.pid}.${randomUUID()}`;
  await build(staging);
  try {
    renameSync(staging, root);
  } catch {
    rmSync(staging, { recursive: true, force: true }); // another file of this run got there first
  }
  return root;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A user's share of this process's Chromium: `close()` ends it (sharedChromium). */
export interface SharedChromium {
  browser: Browser;
  close(): Promise<void>;
}

/** The Chromiums of this process, by their extra arguments, with how many users each has. */
const browsers = new Map<string, { browser: Promise<Browser>; users: number }>();

/**
 * A headless Chromium with CHROMIUM_ARGS (and `extraArgs`) shared by every user in this process:
 * `npm test` runs several end-to-end files in one process (scripts/nodeTestPlan.mjs), and each
 * launch costs about a second of CPU. Each user gets its own contexts; `close()` ends the user's
 * share, and the last one closes the browser.
 */
export async function sharedChromium(extraArgs: readonly string[] = []): Promise<SharedChromium> {
  const key = extraArgs.join(' ');
  let entry = browsers.get(key);
  if (!entry) {
    const launched = chromium.launch({
      executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
      headless: true,
      args: [...CHROMIUM_ARGS, ...extraArgs],
    });
    entry = { browser: launched, users: 0 };
    browsers.set(key, entry);
    launched.catch(() => browsers.delete(key)); // a failed launch is not handed to the next user
  }
  entry.users++;
  const shared = entry;
  const browser = await shared.browser;
  let closed = false;
  return {
    browser,
    async close() {
      if (closed) return;
      closed = true;
      if (--shared.users > 0) return;
      if (browsers.get(key) === shared) browsers.delete(key);
      await browser.close();
    },
  };
}

/** Shares the run's demo build and this process's Chromium (sharedChromium). */
export async function setupE2E(): Promise<E2E> {
  const root = await sharedBuild();
  const { browser, close } = await sharedChromium();
  return { browser, root, close };
}

/**
 * One test file's browser and demos: this process's Chromium (shared with the other files `npm test`
 * runs in it), and after each test fails it on any CSP or Trusted Types violation of the demo it
 * started, then closes that demo.
 */
export function e2eSuite() {
  let e2e: E2E;
  let demo: Demo | undefined;
  before(async () => {
    e2e = await setupE2E();
  });
  after(async () => {
    await e2e.close();
  });
  afterEach(async () => {
    if (!demo) return;
    const started = demo;
    demo = undefined;
    const violations = await started.violations();
    await started.close();
    assert.deepEqual(violations, [], 'no Content-Security-Policy or Trusted Types violations');
  });
  return {
    /** Starts the demo host and server for the current test. */
    async start(options?: DemoOptions): Promise<Demo> {
      demo = await startDemo(e2e, options);
      return demo;
    },
  };
}

export interface Demo {
  server: DemoServer;
  context: BrowserContext;
  /** Opens the chat page on a session and waits for the app to connect. */
  open(sessionId?: SessionId, path?: string): Promise<Page>;
  /** Every CSP violation any page reported. */
  violations(): Promise<string[]>;
  sessionId: SessionId;
  /** The browser context's demo identity. */
  principal: Principal;
  events(sessionId?: SessionId): Promise<SessionEvent[]>;
  close(): Promise<void>;
}

/** A fresh demo host (SQLite in a temp dir) and a browser context for one test. */
/** `driver`: a real model's driver instead of the scripted agent. */
export interface DemoOptions {
  autoAdmit?: boolean;
  driver?: AgentDriver;
}

export async function startDemo(e2e: E2E, options: DemoOptions = {}): Promise<Demo> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ts-e2e-data-'));
  const server = await startDemoServer({ root: e2e.root, store: 'sqlite', dataDir, thinkMs: 0, ...options });
  const context = await e2e.browser.newContext({ viewport: { width: 1200, height: 900 } });
  // Waits are on conditions; this only bounds a step on a slow, busy machine (the test's own limit is 60 s).
  context.setDefaultTimeout(20_000);
  await context.addInitScript(() => {
    const w = window as unknown as { __violations: string[] };
    w.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      w.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
    );
  });
  const pages: Page[] = [];
  // The browser context is one demo identity: its cookie, and its Welcome chat.
  const { principal, cookie } = server.identities.issue();
  await context.addCookies([{ ...cookie, url: server.url, httpOnly: true, sameSite: 'Strict' }]);
  const sessionId = server.demo.welcome(principal);
  const demo: Demo = {
    server,
    context,
    sessionId,
    principal,
    async open(id = sessionId, path = '/') {
      const page = await context.newPage();
      pages.push(page);
      page.on('pageerror', (error) => console.error('[page error]', error.message));
      await page.goto(`${server.url.replace(/\/$/, '')}${path}#session=${encodeURIComponent(id)}`);
      // Ready once the app chose its session and loaded its history (the transcript's top line):
      // a message written before that has no session to go to.
      if (!path.startsWith('/embed/')) await page.locator('demo-chat-app demo-transcript .top').waitFor();
      return page;
    },
    async violations() {
      const all: string[] = [];
      for (const page of pages)
        if (!page.isClosed()) all.push(...(await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations)));
      return all;
    },
    async events(id = sessionId) {
      return (await server.demo.host.readLog(id, { limit: 500 })).events;
    },
    async close() {
      await context.close();
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return demo;
}

/** Writes in the composer and sends. */
export async function say(page: Page, text: string): Promise<void> {
  const box = page.locator('demo-chat-app .composer textarea');
  await box.fill(text);
  await box.press('Enter');
}

export const dock = (page: Page) => page.locator('task-surface-dock');

/** Resolves once the Dock's state attribute is `state`. */
export async function dockState(page: Page, state: string): Promise<void> {
  await page.locator(`task-surface-dock[state="${state}"]`).waitFor({ state: 'attached' });
}

export const userMessages = (events: SessionEvent[]) => events.filter((e) => e.type === 'user/message');
export const surfaceAnswers = (events: SessionEvent[]) =>
  userMessages(events).filter((e) => e.type === 'user/message' && e.source.taskSurface);

/** Resolves once the transcript row's status badge reads `status` (e.g. Open, Submitted). */
export async function rowStatus(page: Page, status: string, nth = 0): Promise<void> {
  await page
    .locator('task-surface-toolview')
    .nth(nth)
    .locator('.status')
    .filter({ hasText: new RegExp(`: ${status}$`) })
    .waitFor();
}

/** Polls until `check` holds (the test runner's timeout bounds it). */
export async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, 10));
}

/** With `autoAdmit: false`: waits for the session's next queued row and claims it (it turns `claiming`). */
export async function claimNext(demo: Demo, sessionId = demo.sessionId) {
  const host = demo.server.demo.host;
  await until(() => host.getView(sessionId).queue.length > 0);
  return host.inbox.claimNext(sessionId)!;
}

/** Claims and commits the next row, then waits for the agent's turn to finish. */
export async function admitNext(demo: Demo, sessionId = demo.sessionId): Promise<void> {
  (await claimNext(demo, sessionId)).commit();
  await demo.server.demo.host.whenIdle(sessionId);
}
