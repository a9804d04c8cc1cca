import { createActor, fromPromise, type Actor, type SnapshotFrom } from 'xstate';
import { dockMachine, type DockMachineEmitted } from '../../machines/dockMachine.js';
import type { SessionId, SessionView } from '../../protocol/index.js';
import type { HostTransport } from '../../transport/types.js';
import { createDraftStore, type DraftStore, type DraftStoreOptions } from '../drafts/draftStore.js';

/*
 * The Dock's working part: its statechart (xstate) and its draft store (@xstate/store). The drop-in
 * bundle loads this module as a chunk the first time a session has a surface (or drafts) to show,
 * so a page whose Dock stays hidden never fetches it.
 */

export type DockSnapshot = SnapshotFrom<typeof dockMachine>;
export type DockEvent = Parameters<Actor<typeof dockMachine>['send']>[0];

export interface DockRuntimeOptions {
  transport: HostTransport;
  sessionId: SessionId;
  inspect: (Parameters<typeof createActor>[1] extends infer O ? (O extends { inspect?: infer I } ? I : never) : never) | undefined;
  storage: DraftStoreOptions['storage'] | undefined;
  onSnapshot(snapshot: DockSnapshot, drafts: DraftStore): void;
  onEmitted(event: DockMachineEmitted): void;
}

export interface DockRuntime {
  readonly drafts: DraftStore;
  send(event: DockEvent): void;
  /** A pushed view of the session: drafts of closed surfaces go, the machine hears of the open one. */
  view(view: SessionView): void;
  stop(): void;
}

/** Starts the Dock's actor (visible to `inspect`) and draft store for one session. */
export function startDockRuntime(options: DockRuntimeOptions): DockRuntime {
  const { transport, sessionId } = options;
  const drafts = createDraftStore(options.storage === undefined ? { sessionId } : { sessionId, storage: options.storage });
  const actor = createActor(
    dockMachine.provide({
      actors: {
        getActive: fromPromise(({ input }) => transport.taskSurface.getActive(input)),
        submit: fromPromise(({ input }) => transport.taskSurface.submit(input)),
        dismiss: fromPromise(({ input }) => transport.taskSurface.dismiss(input)),
      },
    }),
    { input: { sessionId }, ...(options.inspect ? { inspect: options.inspect } : {}) },
  );
  const sub = actor.subscribe((snapshot) => options.onSnapshot(snapshot, drafts));
  const emitted = actor.on('*', (event) => {
    if (event.type === 'closed') drafts.clear(event.surfaceId);
    options.onEmitted(event);
  });
  actor.start();
  return {
    drafts,
    send: (event) => actor.send(event),
    view(view) {
      const active = view.taskSurface.active;
      // One surface is open per session: drafts of any other surface belong to closed surfaces.
      for (const surfaceId of Object.keys(drafts.store.getSnapshot().context.drafts)) {
        if (surfaceId !== active?.surfaceId) drafts.clear(surfaceId);
      }
      actor.send({
        type: 'projection.changed',
        active: active && { callId: active.callId, surfaceId: active.surfaceId },
        pending: active?.pending ?? null,
      });
    },
    stop() {
      sub.unsubscribe();
      emitted.unsubscribe();
      actor.stop();
      drafts.dispose();
    },
  };
}
