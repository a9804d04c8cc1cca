// Node tests: what a test opens is closed when it ends, passed or failed, so a failing assertion
// fails its test at once instead of leaving a server that keeps the file alive until the timeout.
import type { TestContext } from 'node:test';

/** Anything with a `close()` (servers, stores, sockets, clients). */
export interface Closable {
  close(): unknown;
}

/**
 * Closes `resource` after the test `t`, whatever happens in it. Returns a close that runs once, for
 * a test that closes it itself midway (a restart): the after-hook then does nothing.
 */
export function closeWhenDone(t: TestContext, resource: Closable): () => Promise<void> {
  let closing: Promise<void> | undefined;
  const close = () => (closing ??= Promise.resolve(resource.close()).then(() => undefined));
  t.after(close);
  return close;
}
