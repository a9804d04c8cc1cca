// The built drop-in bundle (rollup.config.mjs) served from a folder under the demo's CSP: the
// entry defines the elements, and markdown-it, the diff library and card bodies arrive as chunks
// only when a page needs them, with a readable placeholder until then.
import assert from 'node:assert/strict';
import {
  copyFileSync,
  createReadStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type Page, type Route } from 'playwright-core';
import { rollup, type RollupOptions, type OutputOptions } from 'rollup';
import { contentSecurityPolicy } from '../../demo/csp.js';
import { CHROMIUM_ARGS } from './harness.js';

let root: string;
let server: Server;
let origin: string;
let browser: Browser;

/** What the bundle is built from besides the modules its source maps name: a change to one builds it again. */
const BUILD_INPUTS = ['rollup.config.mjs', 'scripts/browserShims.mjs', 'package.json', 'package-lock.json', 'tsconfig.json'];

/**
 * `dist/`'s bundle (`npm test` builds it with this config just before the end-to-end step), when it is
 * newer than every module its source maps name and every file of BUILD_INPUTS: its entry and chunks,
 * without their source map comments (as the test's own build writes them). Else undefined.
 */
function freshDistBundle(): Map<string, string> | undefined {
  const entry = 'dist/task-surface.js';
  if (!existsSync(entry) || !existsSync('dist/chunks')) return undefined;
  const builtAt = statSync(entry).mtimeMs;
  const files = [
    'task-surface.js',
    ...readdirSync('dist/chunks')
      .filter((f) => f.endsWith('.js'))
      .map((f) => `chunks/${f}`),
  ];
  const sources = new Set(BUILD_INPUTS);
  for (const file of files) {
    const map = join('dist', `${file}.map`);
    // Every file of one build (a chunk left by an earlier one is not this build's).
    const built = [join('dist', file), map].map((f) => (existsSync(f) ? statSync(f).mtimeMs : -Infinity));
    if (built.some((at) => Math.abs(at - builtAt) > 60_000)) return undefined;
    for (const source of (JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] }).sources) sources.add(join(dirname(map), source));
  }
  for (const source of sources) if (!existsSync(source) || statSync(source).mtimeMs > builtAt) return undefined;
  return new Map(files.map((file) => [file, readFileSync(join('dist', file), 'utf8').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n')]));
}

/** Builds the bundle with the project's rollup config into `dir` (entry plus chunks/), or copies dist's when it is fresh. */
async function buildBundle(dir: string): Promise<void> {
  const fresh = freshDistBundle();
  if (fresh) {
    mkdirSync(join(dir, 'chunks'));
    for (const [file, text] of fresh) writeFileSync(join(dir, file), text);
    return;
  }
  const configUrl = new URL('../../rollup.config.mjs', import.meta.url).href; // plain JS: typed here
  const config = ((await import(configUrl)) as { default: RollupOptions }).default;
  const bundle = await rollup({ ...config, onwarn: () => undefined });
  await bundle.write({ ...(config.output as OutputOptions), dir, sourcemap: false });
  await bundle.close();
}

/** Serves `/` (the probe page) and `/assets/*` (the bundle and its chunks) with the demo's CSP. */
function serve(dir: string): Promise<Server> {
  const types: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8' };
  const http = createServer((request, response) => {
    const host = request.headers.host ?? '';
    response.setHeader('Content-Security-Policy', contentSecurityPolicy(host));
    const pathname = new URL(request.url ?? '/', 'http://x').pathname;
    const file = pathname === '/' ? 'index.html' : pathname.startsWith('/assets/') ? pathname.slice('/assets/'.length) : '';
    const path = normalize(join(dir, file));
    if (!file || !path.startsWith(dir + '/') || !existsSync(path) || !statSync(path).isFile()) {
      response.writeHead(404).end('not found');
      return;
    }
    response.writeHead(200, { 'Content-Type': types[path.slice(path.lastIndexOf('.'))] ?? 'application/octet-stream' });
    createReadStream(path).pipe(response);
  });
  return new Promise((resolve) => http.listen(0, '127.0.0.1', () => resolve(http)));
}

before(async () => {
  root = mkdtempSync(join(tmpdir(), 'ts-bundle-'));
  await buildBundle(root);
  copyFileSync('test/e2e/bundle/index.html', join(root, 'index.html'));
  copyFileSync('test/e2e/bundle/probe.js', join(root, 'probe.js'));
  server = await serve(root);
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
});

after(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
  rmSync(root, { recursive: true, force: true });
});

interface Probe {
  page: Page;
  chunks: string[];
  violations(): Promise<string[]>;
  close(): Promise<void>;
}

/** Opens the probe page; requests for chunks matching `hold` wait until `release` is called. */
async function open(scenario: string, hold?: RegExp): Promise<Probe & { release(): void }> {
  const context = await browser.newContext();
  context.setDefaultTimeout(20_000);
  await context.addInitScript(() => {
    const w = window as unknown as { __violations: string[] };
    w.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => w.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const chunks: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/assets/chunks/')) chunks.push(new URL(request.url()).pathname);
  });
  let release = () => {};
  if (hold) {
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(hold, async (route: Route) => {
      await held;
      await route.continue();
    });
  }
  await page.goto(`${origin}/?scenario=${scenario}`);
  await page.locator('body[data-ready="yes"]').waitFor({ state: 'attached' });
  return {
    page,
    chunks,
    release: () => release(),
    async violations() {
      return [...errors, ...(await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations))];
    },
    close: () => context.close(),
  };
}

describe('the drop-in bundle, built and served under the demo CSP', () => {
  it('ships its chunks: the package publishes dist/chunks beside the entry', () => {
    const { files } = JSON.parse(readFileSync('package.json', 'utf8')) as { files: string[] };
    const chunks = readdirSync(join(root, 'chunks')).filter((f) => f.endsWith('.js'));
    assert.ok(chunks.length >= 4, `markdown-it, diffEngine and two card bodies: ${chunks.join(', ')}`);
    assert.ok(
      files.includes('dist/task-surface.js') && files.includes('dist/chunks'),
      'package.json files names the entry and dist/chunks',
    );
  });

  it('defines every element from the entry and loads no chunk a page does not need', async () => {
    const probe = await open('none');
    const defined = await probe.page.evaluate(() =>
      ['task-surface-dock', 'task-surface-toolview', 'task-surface-view', 'task-surface-markdown', 'action-card'].filter(
        (tag) => customElements.get(tag) !== undefined,
      ),
    );
    assert.deepEqual(defined, ['task-surface-dock', 'task-surface-toolview', 'task-surface-view', 'task-surface-markdown', 'action-card']);
    assert.equal(await probe.page.locator('task-surface-dock').getAttribute('state'), 'hidden');
    await probe.page.waitForTimeout(200); // a chunk requested late would show up here
    assert.deepEqual(probe.chunks, [], 'a page without markdown, diffs or cards fetches only the entry');
    assert.deepEqual(await probe.violations(), []);
    await probe.close();
  });

  it('shows markdown and a diff as plain text while their chunks load, then renders them', async () => {
    const probe = await open('content', /\/assets\/chunks\/(markdown-it|diffEngine)-/);
    const { page } = probe;
    const md = page.locator('task-surface-markdown');
    const view = page.locator('task-surface-view');
    // Placeholder: the source as text, nothing missing, no markup yet.
    await md.locator('.md-pending').waitFor();
    assert.match(
      (await md.locator('.md-pending').textContent()) ?? '',
      /^# Release notes\n\nTwo \*\*options\*\* &amp; a `flag`\.\n\n\[例え\]/,
    );
    await view.locator('.md-pending', { hasText: 'See *the* notes.' }).waitFor();
    await view.locator('.diff-side').first().waitFor();
    assert.match((await view.locator('figure.diff').textContent()) ?? '', /const b = 2;[\s\S]*const b = 3;/);
    assert.equal(await view.locator('.diff-note').count(), 0, 'no "too large" note on a placeholder');
    assert.equal(await view.getByRole('textbox', { name: 'Name' }).isEnabled(), true, 'fields work while chunks load');
    probe.release();
    // The real render.
    await md.getByRole('heading', { name: 'Release notes' }).waitFor();
    assert.equal(await md.locator('strong').textContent(), 'options');
    assert.match((await md.locator('p').first().textContent()) ?? '', /Two options & a flag\./);
    // HTML 4's named references decode; a rarer HTML5 name stays as written; numeric ones decode.
    assert.equal(await md.locator('p').last().textContent(), '© → α &HilbertSpace; ⟨');
    assert.equal(await md.locator('.md-pending').count(), 0);
    // An internationalised host becomes its ASCII form; an autolink shows the host as written.
    assert.deepEqual(await md.locator('a').evaluateAll((links) => links.map((a) => [a.textContent, (a as HTMLAnchorElement).href])), [
      ['例え', 'https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9'],
      ['https://xn--r8jz45g.jp/a', 'https://xn--r8jz45g.jp/a'],
    ]);
    await view.locator('em', { hasText: 'the' }).waitFor();
    await view.locator('.diff-body .del', { hasText: '-const b = 2;' }).waitFor();
    await view.locator('.diff-body .add', { hasText: '+const b = 3;' }).waitFor();
    assert.equal(await view.locator('.diff-side').count(), 0);
    assert.deepEqual(probe.chunks.map((c) => c.replace(/-[\w-]{8}\.js$/, '')).sort(), [
      '/assets/chunks/diffEngine',
      '/assets/chunks/markdown-it',
    ]);
    assert.deepEqual(await probe.violations(), []);
    await probe.close();
  });

  it('loads a card body when a card of its kind renders, saying so meanwhile', async () => {
    const probe = await open('card', /\/assets\/chunks\/createPage-/);
    const card = probe.page.locator('action-card');
    await card.getByRole('heading', { name: /Save as a page/ }).waitFor();
    await card.getByRole('status').filter({ hasText: 'Loading the card…' }).waitFor();
    assert.equal(await card.getByText('This card cannot be shown here.').count(), 0);
    probe.release();
    await card.getByRole('listitem').filter({ hasText: 'Day 2' }).waitFor();
    await card.getByRole('button', { name: 'Create page' }).waitFor();
    assert.equal(await card.getByText('Loading the card…').count(), 0);
    // The body checks its details with zod, which comes in the schemas chunk.
    assert.deepEqual(probe.chunks.map((c) => c.replace(/-[\w-]{8}\.js$/, '')).sort(), [
      '/assets/chunks/createPage',
      '/assets/chunks/schemas',
    ]);
    assert.deepEqual(await probe.violations(), []);
    await probe.close();
  });

  it('starts the Dock only when its session has a surface, saying it loads the task while the chunk does', async () => {
    const idle = await open('idle');
    await idle.page.waitForTimeout(300); // a view arrived: a chunk requested for it would show up here
    assert.equal(await idle.page.locator('task-surface-dock').getAttribute('state'), 'hidden');
    assert.deepEqual(idle.chunks, [], 'a Dock with nothing to show fetches nothing');
    assert.deepEqual(await idle.violations(), []);
    await idle.close();

    const probe = await open('dock', /\/assets\/chunks\/dockRuntime-/);
    const dock = probe.page.locator('task-surface-dock');
    await probe.page.locator('task-surface-dock[state="loading"]').waitFor();
    await dock.getByRole('status').filter({ hasText: 'Loading the task…' }).waitFor();
    assert.equal(await dock.getByRole('textbox').count(), 0);
    probe.release();
    await probe.page.locator('task-surface-dock[state="editing"]').waitFor();
    await dock.getByRole('region', { name: 'Task: Pick a plan' }).waitFor();
    await dock.getByRole('textbox', { name: 'Name' }).fill('Ada');
    assert.equal(await dock.getByRole('button', { name: 'Send' }).isEnabled(), true);
    assert.deepEqual(
      probe.chunks.map((c) => c.replace(/-[\w-]{8}\.js$/, '')),
      ['/assets/chunks/dockRuntime'],
    );
    assert.deepEqual(await probe.violations(), []);
    await probe.close();
  });

  it('fetches no parser for a transcript row that shows its plain text (no transport)', async () => {
    const probe = await open('row-plain');
    await probe.page.locator('task-surface-toolview').getByText('Task: Pick a plan').waitFor();
    await probe.page.waitForTimeout(200);
    assert.deepEqual(probe.chunks, []);
    await probe.close();
  });

  it("fetches the Dock's runtime to prune a closed surface's stored draft, showing nothing", async () => {
    const probe = await open('stale-draft');
    const { page } = probe;
    await page.waitForFunction(() => localStorage.getItem('task-surface:drafts:s1')?.includes('"old"') !== true);
    assert.deepEqual(
      probe.chunks.map((c) => c.replace(/-[\w-]{8}\.js$/, '')),
      ['/assets/chunks/dockRuntime'],
    );
    await page.waitForTimeout(100);
    const states = await page.evaluate(() => (window as unknown as { dockStates: string[] }).dockStates);
    assert.ok(!states.includes('loading'), `never "Loading the task…": ${states.join(', ')}`);
    assert.equal(await page.locator('task-surface-dock').getAttribute('state'), 'hidden');
    assert.deepEqual(await probe.violations(), []);
    await probe.close();
  });

  it("shows a transcript row's frame and title while its parser loads, then its status", async () => {
    const probe = await open('row', /\/assets\/chunks\/(toolviewParse|schemas)-/);
    const row = probe.page.locator('task-surface-toolview');
    const base = row.locator('[part~="base"]');
    await base.and(row.locator('[aria-busy="true"]')).waitFor();
    assert.equal(await row.locator('.title').textContent(), 'Pick a plan');
    assert.equal(await row.getByText('Task: Pick a plan').count(), 0, 'not the plain-text fallback');
    probe.release();
    await row.getByText('Answer in the panel below.').waitFor();
    assert.equal(await row.locator('[part~="status"]').textContent(), 'Status: Open');
    assert.equal(await row.locator('[aria-busy]').count(), 0);
    assert.deepEqual(probe.chunks.map((c) => c.replace(/-[\w-]{8}\.js$/, '')).sort(), [
      '/assets/chunks/schemas',
      '/assets/chunks/toolviewParse',
    ]);
    assert.deepEqual(await probe.violations(), []);
    await probe.close();
  });

  /** Opens `scenario` with the first request for a chunk matching `chunk` failing (a dropped connection). */
  /**
   * A page whose first fetch of `chunk` fails. With `holdRetry`, the fetch after it waits until
   * `release()`, so what the page shows in between is there to see (a fast retry can skip it).
   */
  async function openFailingOnce(scenario: string, chunk: RegExp, { holdRetry = false } = {}) {
    const context = await browser.newContext();
    context.setDefaultTimeout(20_000);
    const fetches = { count: 0 };
    let release = () => {};
    const held = holdRetry ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
    await context.route(chunk, async (route) => {
      if (fetches.count++ === 0) return route.abort('connectionreset');
      await held;
      return route.continue();
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${origin}/?scenario=${scenario}`);
    await page.locator('body[data-ready="yes"]').waitFor({ state: 'attached' });
    return { page, fetches, errors, release, close: () => context.close() };
  }

  it("fetches the Dock's runtime again after a failed fetch, saying it loads the task meanwhile", async () => {
    const { page, fetches, errors, release, close } = await openFailingOnce('dock', /\/assets\/chunks\/dockRuntime-/, { holdRetry: true });
    // The retry is held: the Dock says it loads until the runtime arrives (the outcome, not a transient).
    await page.locator('task-surface-dock[state="loading"]').waitFor();
    release();
    await page.locator('task-surface-dock[state="editing"]').waitFor({ timeout: 10_000 });
    assert.equal(fetches.count, 2, 'one failed fetch, then one that arrived');
    assert.deepEqual(errors, []);
    await close();
  });

  it('refuses a WebSocket call as unreachable when the checks do not arrive, and fetches them for the next', async () => {
    const { page, fetches, errors, close } = await openFailingOnce('ws', /\/assets\/chunks\/clientChecks-/);
    const listSessions = () => page.evaluate(() => (window as unknown as { listSessions(): Promise<unknown> }).listSessions());
    assert.equal(await listSessions(), "TransportError unreachable: could not load the WebSocket client's checks");
    assert.deepEqual(await listSessions(), ['One']);
    assert.equal(fetches.count, 2);
    assert.deepEqual(errors, []);
    await close();
  });

  it('keeps the frames that arrived while the checks could not be fetched, and hands them over once they are', async () => {
    const { page, fetches, errors, close } = await openFailingOnce('ws&watch', /\/assets\/chunks\/clientChecks-/);
    const views = () => page.evaluate(() => (window as unknown as { views: number[] }).views);
    await page.waitForFunction(() => (window as unknown as { views: number[] }).views !== undefined);
    await page.waitForTimeout(300); // the watch's answer and the view arrived; the fetch they started failed
    assert.deepEqual(await views(), [], 'nothing reaches a listener unchecked');
    assert.equal(fetches.count, 1);
    assert.deepEqual(await page.evaluate(() => (window as unknown as { listSessions(): Promise<unknown> }).listSessions()), ['One']);
    assert.deepEqual(await views(), [3], 'the call fetched the checks: the waiting view is delivered');
    assert.deepEqual(errors, []);
    await close();
  });

  it("shows a row's plain result text when its parser cannot be fetched", async () => {
    const { page, errors, close } = await openFailingOnce('row', /\/assets\/chunks\/toolviewParse-/);
    const row = page.locator('task-surface-toolview');
    await row.locator('[part~="fallback"]', { hasText: 'Task: Pick a plan' }).waitFor();
    assert.equal(await row.locator('[aria-busy]').count(), 0);
    assert.deepEqual(errors, []);
    await close();
  });
});
