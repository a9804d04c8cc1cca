// `npm test`: type-check, lint, format, node tests, browser tests, build and bundle budget, the docs site, the built
// package as a user imports it, end-to-end tests.
// `node scripts/test.mjs node browser` runs only the named steps.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { ensurePostgres } from './ensure-postgres.mjs';
import { e2eTestPlan, nodeTestPlan } from './nodeTestPlan.mjs';

// The native TypeScript 7 compiler type-checks; the root `typescript` (5.9) is only there for
// typescript-eslint, which needs the JavaScript compiler API that 7 no longer has.
const TSC = 'node_modules/typescript-native/bin/tsc';
const find = (dir, suffix) =>
  existsSync(dir)
    ? readdirSync(dir, { recursive: true })
        .filter((f) => f.endsWith(suffix))
        .map((f) => `${dir}/${f}`)
        .sort()
    : [];
const nodeTests = find('test', '.node.test.ts');
const e2eTests = find('test/e2e', '.e2e.ts');
// Each test process may take 120 s (two run side by side; an end-to-end one with a Chromium); each
// test in it 30 s (scripts/testTimeout.mjs), so a hang is named. Node test files of
// some folders share a process, up to 12 at a time (scripts/nodeTestPlan.mjs says which and why).
// --test-force-exit: a file whose tests are done exits even if a failed test left a server open, once its
// results are out (scripts/drainBeforeExit.mjs: without it, Node drops the last ones of a file at times).
// The preloads as file URLs, resolved once here: `--import tsx` makes every test process look up
// tsx's package.json to find its entry, and on a loaded machine a failed read of it (Node treats an
// unreadable package.json as none) sent every later process to `node_modules/tsx/index.js`, which
// does not exist (ERR_MODULE_NOT_FOUND, seen after the first two end-to-end files of a busy run).
const TSX = import.meta.resolve('tsx');
const preload = (file) => new URL(file, import.meta.url).href;
const nodeTest = (files, concurrency, fileTimeoutMs = 60_000) => [
  '--import',
  TSX,
  '--import',
  preload('./testTimeout.mjs'),
  '--import',
  preload('./drainBeforeExit.mjs'),
  '--test',
  '--test-reporter=spec',
  `--test-concurrency=${concurrency}`,
  `--test-timeout=${fileTimeoutMs}`,
  '--test-force-exit',
  ...files,
];

const steps = {
  typecheck: ['type-check', 'node', [TSC, '--noEmit', '-p', 'tsconfig.json']],
  lint: ['lint', 'npx', ['eslint', '--max-warnings=0', '.']],
  format: ['format (Prettier)', 'npx', ['prettier', '--check', '.']],
  commits: ['commit subjects', 'node', ['scripts/check-commits.mjs']],
  // The MCP tests serve dist/mcp/panel.html: built once here, not inside a test's time budget.
  panel: ['MCP app document', 'node', ['scripts/mcp-app.mjs', '--if-missing']],
  // 120 s a file: the cluster files take 20–40 s on an idle machine and start real processes; a hung
  // test still fails under its own name at its own timeout (scripts/testTimeout.mjs) long before.
  node: ['node tests', 'node', () => nodeTest(nodePlan().paths, 2, 120_000)],
  chromium: ['chromium', 'node', ['scripts/ensure-chromium.mjs']],
  browser: ['browser tests', 'npx', ['web-test-runner']],
  build: ['build', 'node', ['scripts/build.mjs']],
  docs: ['docs site (dist/docs)', 'node', ['--import', TSX, 'site/build.ts']],
  exports: ['package exports (from dist/)', 'node', nodeTest(['test/package/exports.dist.ts'], 1)],
  // Two end-to-end processes at a time (three took longer: their Chromiums keep both cores busy). The
  // docs site's files share a process, four at a time (scripts/nodeTestPlan.mjs).
  examples: ['the CopilotKit example’s packages', 'node', ['scripts/ensure-examples.mjs']],
  e2e: ['end-to-end tests', 'node', () => nodeTest(e2ePlan().paths, 2, 120_000)],
};
let plan;
let e2eGroups;
const nodePlan = () => (plan ??= nodeTestPlan(nodeTests));
const e2ePlan = () => (e2eGroups ??= e2eTestPlan(e2eTests));
let chosen = process.argv.slice(2);
if (chosen.length === 0) chosen = Object.keys(steps).filter((s) => !['e2e', 'examples'].includes(s) || e2eTests.length > 0);
if (chosen.includes('browser') && !chosen.includes('chromium')) chosen.unshift('chromium');
if (chosen.includes('e2e') && !chosen.includes('examples')) chosen.splice(chosen.indexOf('e2e'), 0, 'examples');
if (chosen.includes('node') && !chosen.includes('panel')) chosen.splice(chosen.indexOf('node'), 0, 'panel');

// The steps that run the host suites against PostgreSQL get TEST_DATABASE_URL: the one given, or a
// throwaway server started here (installed with apt as root when missing) and stopped at the end.
const NEEDS_POSTGRES = new Set(['node', 'exports', 'e2e']);
let postgres;
if (chosen.some((key) => NEEDS_POSTGRES.has(key))) {
  console.log('\n== PostgreSQL ==');
  try {
    postgres = await ensurePostgres();
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
  console.log(`✓ PostgreSQL at ${postgres.url}`);
}
const cleanUp = () => {
  postgres?.stop();
  for (const made of [plan, e2eGroups]) if (made) rmSync(made.dir, { recursive: true, force: true });
};
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => (cleanUp(), process.exit(130)));

// The static checks only read the tree: they run side by side, each one's output printed whole when
// all are done, in order. Every other step runs alone, its output live.
const SIDE_BY_SIDE = new Set(['typecheck', 'lint', 'format', 'commits']);
const env = { ...process.env, FORCE_COLOR: '0', ...(postgres ? { TEST_DATABASE_URL: postgres.url } : {}) };

/** Runs one step: its exit status, how long it took, and its output when `keep` (else it is live). */
function run(key, keep) {
  const [, command, argsOf] = steps[key];
  const args = typeof argsOf === 'function' ? argsOf() : argsOf;
  const started = Date.now();
  const child = spawn(command, args, { env, stdio: keep ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
  let output = '';
  if (keep) for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk) => (output += chunk));
  return new Promise((resolve) => {
    child.on('error', (error) => resolve({ status: 1, output: `${output}${error.message}\n`, ms: Date.now() - started }));
    child.on('close', (status) => resolve({ status, output, ms: Date.now() - started }));
  });
}

/** Prints a step's result; on failure stops everything with its exit status. */
function report(key, { status, ms }) {
  const [name] = steps[key];
  if (status !== 0) {
    console.error(`\n✗ ${name} failed (exit ${status})`);
    cleanUp();
    process.exit(status ?? 1);
  }
  console.log(`✓ ${name} (${(ms / 1000).toFixed(1)} s)`);
}

for (let i = 0; i < chosen.length;) {
  let together = 0;
  while (SIDE_BY_SIDE.has(chosen[i + together] ?? '')) together++;
  if (together > 1) {
    const keys = chosen.slice(i, i + together);
    const results = await Promise.all(keys.map((key) => run(key, true)));
    keys.forEach((key, at) => {
      console.log(`\n== ${steps[key][0]} ==`);
      process.stdout.write(results[at].output);
      report(key, results[at]);
    });
    i += together;
    continue;
  }
  const key = chosen[i++];
  console.log(`\n== ${steps[key][0]} ==`);
  report(key, await run(key, false));
}
cleanUp();
