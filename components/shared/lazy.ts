import type { ReactiveController, ReactiveControllerHost } from 'lit';

/**
 * A module the elements load when they first need it (markdown-it, the diff library): a dynamic
 * `import()`, so the drop-in bundle keeps it in its own chunk, fetched relative to the bundle's URL.
 * Until it arrives the elements render a plain-text placeholder and render again when it lands.
 */
export interface LazyModule<T> {
  /** The module, once loaded; otherwise starts loading it (once, never again after a failure) and returns undefined. */
  get(): T | undefined;
  /** Whether the last load failed (the page keeps its placeholder; `load()` tries again). */
  failed(): boolean;
  /** Loads it (once) and resolves with it; after a failure, tries again. */
  load(): Promise<T>;
}

const inFlight = new Set<Promise<unknown>>();
const listeners = new Set<() => void>();
let arrivals = 0;

/** How many lazy modules have arrived so far: a `guard()` dependency for content that uses them. */
export const lazyModulesArrived = (): number => arrivals;

/** A module loaded on first use by `loader` (a dynamic `import()`). */
export function lazyModule<T>(loader: () => Promise<T>): LazyModule<T> {
  let value: T | undefined;
  let loading: Promise<T> | undefined;
  let failed = false;
  const load = (): Promise<T> => {
    if (value !== undefined) return Promise.resolve(value);
    if (!loading) {
      failed = false;
      const started: Promise<T> = loader().then(
        (module) => {
          value = module;
          arrivals++;
          inFlight.delete(started);
          for (const listener of listeners) listener();
          return module;
        },
        (error: unknown) => {
          // The placeholder stays for the page's life: renders do not retry (offline, that would
          // be a loop); the elements render once more so that a card can say it cannot show.
          loading = undefined;
          failed = true;
          inFlight.delete(started);
          for (const listener of listeners) listener();
          throw error;
        },
      );
      loading = started;
      inFlight.add(started);
      started.catch(() => undefined); // a render-triggered load must not become an unhandled rejection
    }
    return loading;
  };
  return {
    get() {
      if (value === undefined && !failed) void load().catch(() => undefined);
      return value;
    },
    failed: () => failed,
    load,
  };
}

/** Resolves when every lazy module being loaded now has arrived (or failed). */
export async function lazyModulesSettled(): Promise<void> {
  while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
}

/** Whether a lazy module is still on its way. */
export const lazyModulesPending = (): boolean => inFlight.size > 0;

/**
 * Re-renders its element whenever a lazy module arrives, so a placeholder gives way to the real
 * render. Elements that use it also make `updateComplete` wait for the modules their render asked for.
 */
export class LazyModulesController implements ReactiveController {
  readonly #host: ReactiveControllerHost;
  readonly #listener = () => this.#host.requestUpdate();
  constructor(host: ReactiveControllerHost) {
    this.#host = host;
    host.addController(this);
  }
  hostConnected(): void {
    listeners.add(this.#listener);
  }
  hostDisconnected(): void {
    listeners.delete(this.#listener);
  }
}

/**
 * `updateComplete` for an element with a `LazyModulesController`: resolves once the render shows
 * the real content, not the placeholder (each module its render asked for has loaded or failed).
 */
export async function settledUpdate(superComplete: () => Promise<boolean>): Promise<boolean> {
  let done = await superComplete();
  while (lazyModulesPending()) {
    await lazyModulesSettled();
    done = await superComplete();
  }
  return done;
}
