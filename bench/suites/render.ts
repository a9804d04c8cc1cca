// First render of a maximal model by task-surface-view (render call + one animation frame + a
// forced layout) against a fixed floor, static HTML of the same content written by hand
// (bench/staticFloor.ts), and against innerHTML of the renderer's own serialised markup (which
// moves with the renderer, so it cannot show markup growing); the DOM elements of each; and the
// DOM mutations one keystroke causes in a Dock.
import { build } from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { parseTaskSurfaceModel, type TaskSurfaceModelV1 } from '../../protocol/index.js';
import { maximalModel } from '../../fixtures/models.js';
import { median } from '../stats.js';
import { staticFloor } from '../staticFloor.js';

const ORIGIN = 'http://task-surface.bench';
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-frame-rate-limit',
  '--disable-gpu-vsync',
];

/** The bundle entry with its exports on `window.TS`, built in memory. */
export async function bundleForPage(): Promise<string> {
  const out = await build({
    stdin: { contents: "import * as TS from './components/bundle.ts'; globalThis.TS = TS;", resolveDir: process.cwd(), loader: 'ts' },
    bundle: true,
    format: 'esm',
    minify: true,
    write: false,
    target: 'es2022',
    platform: 'browser',
    logLevel: 'error',
  });
  return out.outputFiles[0]!.text;
}

/** A page at a real http origin serving `html` and the bundle at /bundle.js, with optional CSP. */
export async function componentsPage(
  browser: Browser,
  html: string,
  options: {
    csp?: string;
    width?: number;
    height?: number;
    colorScheme?: 'light' | 'dark';
    files?: Record<string, { type: string; body: string }>;
  } = {},
): Promise<Page> {
  const code = await bundleForPage();
  const page = await browser.newPage({
    viewport: { width: options.width ?? 1000, height: options.height ?? 900 },
    colorScheme: options.colorScheme ?? 'light',
  });
  // tsx compiles functions passed to page.evaluate with esbuild's keepNames helper.
  await page.addInitScript('globalThis.__name = (f) => f;');
  await page.route(`${ORIGIN}/**`, (route) => {
    const url = new URL(route.request().url());
    const headers: Record<string, string> = options.csp ? { 'content-security-policy': options.csp } : {};
    if (url.pathname === '/bundle.js') return route.fulfill({ contentType: 'text/javascript', body: code, headers });
    if (url.pathname === '/') return route.fulfill({ contentType: 'text/html', body: html, headers });
    const file = options.files?.[url.pathname];
    if (file) return route.fulfill({ contentType: file.type, body: file.body, headers });
    return route.fulfill({ status: 404, body: '' });
  });
  await page.goto(`${ORIGIN}/`);
  await page.waitForFunction(() => 'TS' in globalThis);
  return page;
}

export const launch = () => chromium.launch({ executablePath: process.env['CHROME_PATH'] ?? '/usr/bin/chromium', args: ARGS });

const PAGE =
  '<!doctype html><meta charset="utf-8"><body><div id="stage" style="width:760px"></div><script type="module" src="/bundle.js"></script></body>';

export default {
  title: 'Renderer (maximal model: 64 blocks incl. a 200-row table shown in full, 32 fields) in headless Chromium',
  async run() {
    const browser = await launch();
    try {
      const page = await componentsPage(browser, PAGE);
      const model = maximalModel();
      const result = await page.evaluate(
        async ({ model, floor, runs, warmup }) => {
          const stage = document.getElementById('stage')!;
          const frame = () => new Promise((r) => requestAnimationFrame(r));
          // The view's own markup, serialised (styles included), for the second ratio.
          // Every row of the 200-row table up front (`all-rows`), as in the static floor.
          const probe = document.createElement('task-surface-view') as HTMLElement & {
            model: unknown;
            allRows: boolean;
            updateComplete: Promise<unknown>;
          };
          probe.model = model;
          probe.allRows = true;
          // The page's first render also loads markdown-it and the diff library (dynamic imports; in
          // this one-file build they are modules to evaluate, not requests); every later one reuses them.
          const firstStart = performance.now();
          stage.append(probe);
          await probe.updateComplete;
          const firstLoad = performance.now() - firstStart;
          const styles = [...probe.shadowRoot!.adoptedStyleSheets].map((s) => [...s.cssRules].map((r) => r.cssText).join('\n')).join('\n');
          const markup = `<style>${styles}</style>${probe.shadowRoot!.innerHTML}`;
          probe.remove();
          async function renderer() {
            const t0 = performance.now();
            const el = document.createElement('task-surface-view') as typeof probe;
            el.model = model;
            el.allRows = true;
            stage.append(el);
            await el.updateComplete;
            await frame();
            void stage.offsetHeight;
            const t = performance.now() - t0;
            el.remove();
            return t;
          }
          async function innerHTML(html: string) {
            const t0 = performance.now();
            const host = document.createElement('div');
            stage.append(host);
            host.attachShadow({ mode: 'open' }).innerHTML = html;
            await frame();
            void stage.offsetHeight;
            const t = performance.now() - t0;
            host.remove();
            return t;
          }
          const floorHost = document.createElement('div');
          floorHost.attachShadow({ mode: 'open' }).innerHTML = floor;
          const floorNodes = floorHost.shadowRoot!.querySelectorAll(':not(style)').length;
          for (let i = 0; i < warmup; i++) {
            await renderer();
            await innerHTML(markup);
            await innerHTML(floor);
          }
          const a: number[] = [];
          const b: number[] = [];
          const c: number[] = [];
          for (let i = 0; i < runs; i++) {
            c.push(await innerHTML(floor));
            b.push(await innerHTML(markup));
            a.push(await renderer());
          }
          return { a, b, c, firstLoad, nodes: probe.shadowRoot!.querySelectorAll('*').length, floorNodes, bytes: markup.length };
        },
        { model, floor: staticFloor(model), runs: 40, warmup: 8 },
      );
      const subject = median(result.a);
      const baseline = median(result.c);
      const own = median(result.b);
      console.log(
        `DOM elements: task-surface-view ${result.nodes}, the static floor ${result.floorNodes} (${(result.nodes / result.floorNodes).toFixed(2)}x; aim ≤ 1,450 elements)`,
      );
      console.log(
        `static floor ${baseline.toFixed(1)} ms; innerHTML of the view's own markup (${result.bytes} chars) ${own.toFixed(1)} ms; task-surface-view ${subject.toFixed(1)} ms`,
      );
      console.log(
        `ratio first render / static floor: ${(subject / baseline).toFixed(2)} (aim ≤ 2.0; a new element each run, lazy modules already loaded)`,
      );
      console.log(`ratio first render / innerHTML of its own markup: ${(subject / own).toFixed(2)}`);
      console.log(
        `the page's very first render, loading markdown-it and diff on the way: ${result.firstLoad.toFixed(1)} ms (${(result.firstLoad / baseline).toFixed(2)}x the static floor)`,
      );

      const mutations = await page.evaluate(async (model) => {
        const TS = (globalThis as unknown as { TS: Record<string, unknown> }).TS;
        void TS;
        const active = { callId: 'call-1', surfaceId: 'sf-1' };
        const view = {
          sessionId: 's1',
          lastSeq: 1,
          readOnly: false,
          turn: 'idle',
          taskSurface: { active },
          queue: [],
          actionCards: { proposals: [], decisions: {} },
        };
        const transport = {
          watchSession(_s: string, listener: (v: unknown) => void) {
            queueMicrotask(() => listener(view));
            return () => {};
          },
          readLog: async () => ({ events: [], hasMore: false, lastSeq: 1 }),
          taskSurface: {
            getActive: async () => ({ active: true, ...active, model, pending: null }),
            submit: async () => ({}),
            dismiss: async () => ({}),
          },
          session: {},
          actionCards: {},
          dispose() {},
        };
        const dock = document.createElement('task-surface-dock') as HTMLElement & {
          transport: unknown;
          sessionId: string;
          draftStorage: null;
          state: string;
          updateComplete: Promise<unknown>;
        };
        dock.transport = transport;
        dock.sessionId = 's1';
        dock.draftStorage = null;
        document.getElementById('stage')!.replaceChildren(dock);
        while (dock.state !== 'editing') await new Promise((r) => setTimeout(r, 5));
        await dock.updateComplete;
        const inner = dock.shadowRoot!.querySelector('task-surface-view')! as HTMLElement & { updateComplete: Promise<unknown> };
        await inner.updateComplete;
        const input = inner.shadowRoot!.querySelector<HTMLInputElement>('input[type="text"], textarea')!;
        input.focus();
        input.setSelectionRange(input.value.length, input.value.length);
        const records: MutationRecord[] = [];
        const observer = new MutationObserver((list) => records.push(...list));
        for (const root of [dock.shadowRoot!, inner.shadowRoot!])
          observer.observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
        (globalThis as unknown as { __done: () => Promise<number> }).__done = async () => {
          await dock.updateComplete;
          await inner.updateComplete;
          await new Promise((r) => requestAnimationFrame(r));
          records.push(...observer.takeRecords());
          observer.disconnect();
          if (!input.value.endsWith('x')) throw new Error('the keystroke did not reach the text field');
          return records.length;
        };
        return 0;
      }, model);
      void mutations;
      await page.keyboard.type('x');
      const count = await page.evaluate(() => (globalThis as unknown as { __done: () => Promise<number> }).__done());
      console.log(`DOM mutations for one keystroke in a text field of a maximal model (Dock): ${count} (aim: a handful)`);

      await diffFigures(page);
      return {
        render: `${(subject / baseline).toFixed(2)}× the static floor (maximal model, 200 rows shown; aim ≤ 2.0), ${result.nodes} DOM elements (floor ${result.floorNodes})`,
      };
    } finally {
      await browser.close();
    }
  },
};

const diffModel = (before: string, after: string): TaskSurfaceModelV1 => ({
  version: 1,
  title: 'Diff',
  sections: [{ id: 's', blocks: [{ kind: 'diff', path: 'data.txt', before, after }] }],
  submit: { label: 'OK' },
});

/**
 * The largest diff the parser accepts, built for the worst case of a line diff: as many lines as
 * the 64 KiB model limit holds, every one different on each side.
 */
export function largestDiffModel(): TaskSurfaceModelV1 {
  let n = 11_000;
  for (;;) {
    const model = diffModel('a\n'.repeat(n), 'b\n'.repeat(n));
    if (parseTaskSurfaceModel(model).ok) return model;
    n -= 50;
  }
}

/** 32 diff blocks of 170 lines each, every line changed: each alone within the budget, together far past it. */
export function manyDiffsModel(): TaskSurfaceModelV1 {
  const blocks = Array.from({ length: 32 }, (_, i) => ({
    kind: 'diff' as const,
    path: `f${i}.txt`,
    before: `a${i}\n`.repeat(170),
    after: `b${i}\n`.repeat(170),
  }));
  return { version: 1, title: 'Diffs', sections: [{ id: 's', blocks }], submit: { label: 'OK' } };
}

/** A 200-line file with every fourth line changed (100 lines of + and -, plus context). */
export function diff200Model(): TaskSurfaceModelV1 {
  const before = Array.from({ length: 200 }, (_, i) => `  const value${i} = compute(${i}, options);`);
  const after = before.map((line, i) => (i % 4 === 0 ? line.replace('compute', 'computeFast') : line));
  return diffModel(`${before.join('\n')}\n`, `${after.join('\n')}\n`);
}

/** Render (+ one frame + forced layout) of the largest accepted diff against a 200-line diff, same page. */
async function diffFigures(page: Page): Promise<void> {
  const largest = largestDiffModel();
  const many = manyDiffsModel();
  const small = diff200Model();
  const bytes = new TextEncoder().encode(JSON.stringify(largest)).length;
  const result = await page.evaluate(
    async ({ largest, many, small, runs }) => {
      const stage = document.getElementById('stage')!;
      const frame = () => new Promise((r) => requestAnimationFrame(r));
      async function once(model: unknown) {
        // A fresh copy each time: the renderer caches a diff per block object.
        const copy = JSON.parse(JSON.stringify(model));
        const t0 = performance.now();
        const el = document.createElement('task-surface-view') as HTMLElement & { model: unknown; updateComplete: Promise<unknown> };
        el.model = copy;
        stage.replaceChildren(el);
        await el.updateComplete;
        const blocking = performance.now() - t0;
        await frame();
        void stage.offsetHeight;
        const t = performance.now() - t0;
        const fallback = el.shadowRoot!.querySelector('.diff-note') !== null;
        el.remove();
        return { t, blocking, fallback };
      }
      for (let i = 0; i < 5; i++) {
        await once(small);
        await once(largest);
      }
      const a: number[] = [];
      const b: number[] = [];
      const c: number[] = [];
      const blocking: number[] = [];
      let fallback = false;
      for (let i = 0; i < runs; i++) {
        b.push((await once(small)).t);
        const big = await once(largest);
        a.push(big.t);
        blocking.push(big.blocking);
        fallback = big.fallback;
        c.push((await once(many)).t);
      }
      return { a, b, c, blocking, fallback };
    },
    { largest, many, small, runs: 30 },
  );
  const subject = median(result.a);
  const baseline = median(result.b);
  console.log(
    `largest accepted diff (${bytes} bytes, every line changed${result.fallback ? ', shown as before/after' : ''}) ${subject.toFixed(1)} ms ` +
      `(render task ${median(result.blocking).toFixed(1)} ms, max ${Math.max(...result.blocking).toFixed(1)} ms); 200-line diff ${baseline.toFixed(1)} ms`,
  );
  console.log(`ratio largest diff / 200-line diff: ${(subject / baseline).toFixed(2)} (aim ≤ 2.0)`);
  console.log(
    `32 diff blocks of 170 changed lines each: ${median(result.c).toFixed(1)} ms, ratio to the 200-line diff ${(median(result.c) / baseline).toFixed(2)}`,
  );
}
