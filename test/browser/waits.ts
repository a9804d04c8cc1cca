// Limits on what a browser test waits for. Mocha's per-test timeout (web-test-runner.config.mjs)
// names the test that hangs; these name the wait, in a few seconds, and the test fails at once.

/**
 * How long a browser test waits for something in its own page (an event, a turn of an in-page Host)
 * in milliseconds: ample for a loaded two-core machine, well under mocha's per-test timeout.
 */
export const WAIT_MS = 3_000;

/** `promise`, or a failure naming `what` once `limitMs` pass without it settling. */
export function inTime<T>(promise: Promise<T>, what: string, limitMs = WAIT_MS): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not within ${limitMs} ms: ${what}`)), limitMs);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** The next `type` event on `target`; a failure naming it when none comes within `limitMs`. */
export function nextEvent<E extends Event = CustomEvent>(target: EventTarget, type: string, limitMs = WAIT_MS): Promise<E> {
  let listener: ((event: Event) => void) | undefined;
  const fired = new Promise<E>((resolve) => {
    listener = (event) => resolve(event as E);
    target.addEventListener(type, listener, { once: true });
  });
  return inTime(fired, `a ${type} event`, limitMs).finally(() => target.removeEventListener(type, listener!));
}
