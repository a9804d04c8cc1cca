// Loaded into every node test process (`node --import ./scripts/testTimeout.mjs --test …`): each test
// gets a timeout of its own, well under the per-file one, so a test that hangs fails under its own
// name instead of the whole file being cancelled at the runner's timeout.
//
// Node 20's `--test-timeout` bounds each test *file* (its child process), not each test in it, and
// node:test has no setting for a default per-test timeout: so `it` and `test` are wrapped here to
// add `{ timeout }` where a test (or hook) gives none. A `describe(name, { timeout }, …)` raises the default
// for the tests declared in it (slow suites: clusters, browsers).
import { createRequire, syncBuiltinESMExports } from 'node:module';

/** Milliseconds a test may take unless it or its suite says otherwise. */
export const PER_TEST_TIMEOUT_MS = Number(process.env.TEST_TIMEOUT_MS) || 30_000;

const nodeTest = createRequire(import.meta.url)('node:test');
const suiteTimeouts = [];
const currentDefault = () => suiteTimeouts.at(-1) ?? PER_TEST_TIMEOUT_MS;

/** `[name, options, body]` with `options.timeout` set to `timeout()` when the caller gave none. */
function withDefault(args, timeout) {
  const [name, options, body] = args;
  if (typeof name === 'function') return [{ timeout: timeout() }, name];
  if (typeof options === 'function') return [name, { timeout: timeout() }, options];
  if (options === undefined || options === null) return [name, { timeout: timeout() }, body];
  return [name, options.timeout === undefined ? { ...options, timeout: timeout() } : options, body];
}

const wrapTest = (original) =>
  Object.assign(function (...args) {
    return original.apply(this, withDefault(args, currentDefault));
  }, original);

const wrapSuite = (original) =>
  Object.assign(function (...args) {
    const at = args.findIndex((arg) => typeof arg === 'function');
    if (at === -1) return original.apply(this, args);
    const options = args.find((arg) => typeof arg === 'object' && arg !== null);
    const timeout = options?.timeout ?? currentDefault();
    const body = args[at];
    // The suite's body declares its tests synchronously: they inherit its timeout as their default.
    args[at] = function (...inner) {
      suiteTimeouts.push(timeout);
      try {
        return body.apply(this, inner);
      } finally {
        suiteTimeouts.pop();
      }
    };
    return original.apply(this, args);
  }, original);

const wrapHook = (original) =>
  function (fn, options) {
    return original.call(this, fn, options?.timeout === undefined ? { ...options, timeout: currentDefault() } : options);
  };

for (const key of ['it', 'test']) nodeTest[key] = wrapTest(nodeTest[key]);
for (const key of ['before', 'after', 'beforeEach', 'afterEach']) nodeTest[key] = wrapHook(nodeTest[key]);
for (const key of ['describe', 'suite']) nodeTest[key] = wrapSuite(nodeTest[key]);
syncBuiltinESMExports();
