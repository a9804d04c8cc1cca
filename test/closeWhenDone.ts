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

/**
 * Closes what a test opens when it ends, last opened first (a client before the server it reaches, a
 * server before its Host): pass each resource to the returned `opened` as soon as it exists. Every
 * one is closed even if another's close fails; the first failure is then reported.
 */
export function closeLastFirst(t: TestContext): <T extends Closable>(resource: T) => T {
  const resources: Closable[] = [];
  t.after(async () => {
    let failure: { error: unknown } | undefined;
    for (const resource of resources.reverse()) {
      try {
        await resource.close();
      } catch (error) {
        failure ??= { error };
      }
    }
    if (failure) throw failure.error;
  });
  return (resource) => (resources.push(resource), resource);
}
