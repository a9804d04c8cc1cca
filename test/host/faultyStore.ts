// Test helper: a store that throws on chosen calls, as a full disk or a locked database would.
import type { SessionLogStore } from '../../host/store/types.js';

type Method = Exclude<keyof SessionLogStore, 'close'>;

export interface FaultyStore {
  store: SessionLogStore;
  /** The next `times` calls of `method` whose arguments match `when` throw (`Infinity`: until healed). */
  fail(method: Method, when?: (...args: never[]) => boolean, times?: number): void;
  /** Stops every planned failure. */
  heal(): void;
  /** How many calls failed so far. */
  readonly failures: number;
}

export const INJECTED = /disk I\/O error \(injected\)/;

/** Wraps a real store; `append` matching takes the event as its second argument. */
export function faultyStore(inner: () => SessionLogStore): FaultyStore {
  let rules: { method: Method; when: (...args: never[]) => boolean; left: number }[] = [];
  let failures = 0;
  const store = new Proxy({} as SessionLogStore, {
    get(_target, prop: keyof SessionLogStore) {
      const real = inner();
      const value = real[prop];
      if (typeof value !== 'function') return value;
      return (...args: never[]) => {
        const rule = rules.find((r) => r.method === prop && r.left > 0 && r.when(...args));
        if (rule) {
          rule.left--;
          failures++;
          throw new Error(`disk I/O error (injected) in ${String(prop)}`);
        }
        return (value as (...a: never[]) => unknown).apply(real, args);
      };
    },
  });
  return {
    store,
    fail(method, when = () => true, times = 1) {
      rules.push({ method, when, left: times });
    },
    heal() {
      rules = [];
    },
    get failures() {
      return failures;
    },
  };
}

/** `append` matcher: the event has this type (and, optionally, passes `also`). */
export function appending(type: string, also: (event: Record<string, unknown>) => boolean = () => true) {
  return ((_sessionId: string, event: { type: string }) => event.type === type && also(event as never)) as (...args: never[]) => boolean;
}
