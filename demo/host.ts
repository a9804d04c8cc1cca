import { join } from 'node:path';
import { createHost } from '../host/createHost.js';
import { createMemoryPageStore, createMemoryFollowUps, createPageKind, scheduleFollowUpKind } from '../host/actionCards/kinds/index.js';
import { createMemoryStore } from '../host/store/memory.js';
import { privateDir } from '../host/store/fileModes.js';
import { createSqliteStore } from '../host/store/sqlite.js';
import type { SessionLogStore } from '../host/store/types.js';
import type { SharedMessageRate } from '../host/limits/admission.js';
import type { AgentDriver, Host, InspectObserver } from '../host/types.js';
import type { Principal, SessionId } from '../protocol/index.js';
import { createScriptedAgent } from './agent/driver.js';

export interface DemoHostOptions {
  /** `sqlite` (default): `<dataDir>/demo.sqlite`; `memory`: gone when the process ends. */
  store?: 'sqlite' | 'memory';
  dataDir?: string;
  /** The scripted agent's pause before it answers. */
  thinkMs?: number;
  /** The scripted agent writes each panel's call at this many tokens a second (its preview grows); unset: at once. */
  tokensPerSecond?: number;
  inspect?: InspectObserver;
  /** Pass a store to share it across host restarts in one process (tests, PostgreSQL). */
  logStore?: SessionLogStore;
  /** What the start banner calls a passed store. */
  logStoreLabel?: string;
  /** false: queued rows wait until host code claims them (tests step queued → claiming by hand). */
  autoAdmit?: boolean;
  /** A real model's driver (see demo/agent/model.ts); the scripted agent without one. */
  driver?: AgentDriver;
  /** Each principal's messages per minute counted with the other processes' (`--workers`: in PostgreSQL). */
  messageRate?: SharedMessageRate;
}

export interface DemoHost {
  host: Host;
  store: SessionLogStore;
  /** Where the log lives, for the start banner. */
  storeLabel: string;
  /** The identity's first session: a "Welcome" chat it owns, opened when it has none. */
  welcome(principal: Principal): SessionId;
  dispose(): Promise<void>;
}

/** The demo's Host: the scripted agent, both shipped card kinds, and a store that survives restarts. */
export function createDemoHost(options: DemoHostOptions = {}): DemoHost {
  let store = options.logStore;
  let storeLabel = options.logStoreLabel ?? 'a store passed in';
  if (!store) {
    if (options.store === 'memory') {
      store = createMemoryStore();
      storeLabel = 'memory (gone on exit)';
    } else {
      const dir = options.dataDir ?? '.data';
      privateDir(dir); // 0700: the logs and the identity secret are the demo user's alone
      storeLabel = join(dir, 'demo.sqlite');
      store = createSqliteStore(storeLabel);
    }
  }
  const host = createHost({
    store,
    driver:
      options.driver ??
      createScriptedAgent({
        thinkMs: options.thinkMs ?? 0,
        ...(options.tokensPerSecond ? { tokensPerSecond: options.tokensPerSecond } : {}),
      }),
    ...(options.autoAdmit === false ? { autoAdmit: false } : {}),
    ...(options.inspect ? { inspect: options.inspect } : {}),
    ...(options.messageRate ? { messageRate: options.messageRate } : {}),
  });
  host.actionCards.register(createPageKind({ pages: createMemoryPageStore() }));
  host.actionCards.register(scheduleFollowUpKind({ scheduler: createMemoryFollowUps() }));
  const owned = !options.logStore;
  return {
    host,
    store,
    storeLabel,
    welcome(principal) {
      // One lookup in the owner index: the visitor's oldest session, whatever else the store holds.
      return host.listSessionsOf(principal.id)[0]?.sessionId ?? host.as(principal).openSession({ title: 'Welcome' });
    },
    async dispose() {
      await host.dispose();
      if (owned) store.close();
    },
  };
}
