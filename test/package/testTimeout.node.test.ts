// The suite's own rule (README, "Working on it"): a hanging test fails under its own name, well
// before its file's timeout, and a test that fails with a server open does not keep its file alive.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';

const PRELOAD = resolve('scripts/testTimeout.mjs');
const DRAIN = resolve('scripts/drainBeforeExit.mjs');

/** Runs one test file the way scripts/test.mjs does, with a per-test timeout of 300 ms. */
function runFile(t: { after(fn: () => void): void }, source: string) {
  const dir = mkdtempSync(join(tmpdir(), 'ts-timeout-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'sample.test.mjs');
  writeFileSync(file, source);
  // Without the runner's own marker, which would make the child answer in its binary protocol.
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  const started = Date.now();
  const run = spawnSync(
    process.execPath,
    ['--import', PRELOAD, '--test', '--test-reporter=tap', '--test-timeout=20000', '--test-force-exit', file],
    { encoding: 'utf8', env: { ...env, TEST_TIMEOUT_MS: '300' } },
  );
  return { output: run.stdout, ms: Date.now() - started };
}

describe('the test runner settings', () => {
  it('are the ones npm test passes to every node test process', () => {
    const script = readFileSync('scripts/test.mjs', 'utf8');
    // The preloads go by file URL (tsx resolved once), so a busy machine never falls back to a bare name.
    assert.match(script, /'--import',\s*TSX,/);
    assert.match(script, /'--import',\s*preload\('\.\/testTimeout\.mjs'\)/);
    assert.match(script, /'--test-force-exit'/);
    assert.match(script, /'--import',\s*preload\('\.\/drainBeforeExit\.mjs'\)/);
    assert.match(script, /`--test-timeout=\$\{fileTimeoutMs\}`/);
    assert.match(
      script,
      /nodeTest\(nodePlan\(\)\.paths, 2, 120_000\)/,
      'node test files as scripts/nodeTestPlan.mjs groups them, two processes at a time, 120 s each',
    );
    assert.match(script, /nodeTest\(e2ePlan\(\)\.paths, 2, 120_000\)/, 'an end-to-end process 120 s, two at a time');
    assert.match(script, /SIDE_BY_SIDE = new Set\(\['typecheck', 'lint', 'format', 'commits'\]\)/, 'the four static checks side by side');
  });

  it('fails a hanging test under its own name at the per-test timeout; a suite timeout raises it', (t) => {
    const { output, ms } = runFile(
      t,
      `import { describe, it } from 'node:test';
const wait = (ms) => new Promise((r) => setTimeout(r, ms));
it('hangs', () => new Promise(() => setInterval(() => {}, 1000)));
it('runs after', () => {});
describe('slow suite', { timeout: 5000 }, () => {
  it('takes 600 ms', () => wait(600));
});
it('takes 600 ms with its own timeout', { timeout: 5000 }, () => wait(600));
`,
    );
    assert.match(output, /not ok \d+ - hangs\n[\s\S]*?test timed out after 300ms/);
    assert.match(output, /\nok \d+ - runs after/);
    assert.match(output, /ok \d+ - takes 600 ms\n/);
    assert.match(output, /\nok \d+ - takes 600 ms with its own timeout/);
    assert.ok(ms < 10_000, `${ms} ms: well before the file's 20 s`);
  });

  it('ends a file whose failed test left a server open as soon as its tests are done', (t) => {
    const { output, ms } = runFile(
      t,
      `import { it } from 'node:test';
import { createServer } from 'node:http';
it('fails with a server open', async () => {
  const server = createServer();
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  throw new Error('a failed assertion');
});
`,
    );
    assert.match(output, /not ok \d+ - fails with a server open/);
    assert.doesNotMatch(output, /test timed out/);
    assert.ok(ms < 10_000, `${ms} ms: well before the file's 20 s`);
  });

  it('counts every result of every file under --test-force-exit, a failure in the last test too', (t) => {
    // Node drops the last results of a file at times when --test-force-exit ends it (nodejs/node#64833):
    // six files of 400 tests with long names, run two at a time as npm test runs them, twice.
    const dir = mkdtempSync(join(tmpdir(), 'ts-drain-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const files = ['a', 'b', 'c', 'd', 'e', 'f'].map((name) => join(dir, `${name}.test.mjs`));
    for (const [at, file] of files.entries()) {
      const last =
        at === files.length - 1
          ? `test('the last test', () => { throw new Error('failed on purpose, last'); });`
          : `test('the last test', () => {});`;
      writeFileSync(
        file,
        `import { test } from 'node:test';\nconst long = 'x'.repeat(2000);\nfor (let i = 0; i < 399; i++) test(\`t\${i} \${long}\`, () => {});\n${last}\n`,
      );
    }
    const { NODE_TEST_CONTEXT: _, ...env } = process.env;
    for (let run = 0; run < 2; run++) {
      const { stdout, status } = spawnSync(
        process.execPath,
        ['--import', DRAIN, '--test', '--test-reporter=spec', '--test-concurrency=2', '--test-force-exit', ...files],
        { encoding: 'utf8', env, maxBuffer: 64 * 1024 * 1024 },
      );
      // The summary's counts, not the 5 MB of output, so a failure says what was lost.
      const summary = stdout.match(/^ℹ (tests|pass|fail|cancelled) \d+$/gm)?.join(', ') ?? `no summary (${stdout.length} chars)`;
      assert.equal(status, 1, `run ${run + 1}: the failed test fails the run (${summary})`);
      assert.equal(summary, 'ℹ tests 2400, ℹ pass 2399, ℹ fail 1, ℹ cancelled 0', `run ${run + 1}: every result counted`);
      assert.ok(stdout.includes('failed on purpose, last'), `run ${run + 1}: the failure is reported with its error`);
    }
  });
});
