import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { createActor, fromPromise, type Actor, type SnapshotFrom } from 'xstate';
import { dockMachine, type DockMachineEmitted } from '../../machines/dockMachine.js';
import type { SessionId, SessionView, TaskSurfaceValues } from '../../protocol/index.js';
import type { HostTransport } from '../../transport/types.js';
import { createDraftStore, type DraftStore } from '../drafts/draftStore.js';
import { mergeDraft } from '../shared/values.js';

export type InspectOption = Parameters<typeof createActor>[1] extends infer O ? (O extends { inspect?: infer I } ? I : never) : never;

export interface DockConfig {
  transport: HostTransport | undefined;
  sessionId: SessionId | undefined;
  inspect: InspectOption | undefined;
  storage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null;
}

/**
 * Bridges the Dock element to its session: one watch on the transport, one dockMachine actor
 * (visible to `inspect`), one draft store. Everything is made on connect (or when the session or
 * transport changes) and released on disconnect.
 */
export class DockController implements ReactiveController {
  snapshot: SnapshotFrom<typeof dockMachine> | undefined;
  drafts: DraftStore | undefined;
  /** The values the Dock shows for the active surface (draft over initial values). */
  values: TaskSurfaceValues | undefined;
  /** The note the person is writing for the active surface (kept in the draft). */
  note = '';
  private actor: Actor<typeof dockMachine> | undefined;
  private release: (() => void)[] = [];
  private running: DockConfig | undefined;
  private valuesFor: string | undefined;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly config: () => DockConfig,
    private readonly onEmitted: (event: DockMachineEmitted) => void,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    this.sync();
  }
  hostDisconnected(): void {
    this.stop();
  }

  /** Restarts when the transport, session or inspector changed; no-op otherwise. */
  sync(): void {
    const next = this.config();
    const cur = this.running;
    if (cur && cur.transport === next.transport && cur.sessionId === next.sessionId && cur.inspect === next.inspect) return;
    this.stop();
    if (next.transport && next.sessionId) this.start(next.transport, next.sessionId, next);
  }

  send(event: Parameters<Actor<typeof dockMachine>['send']>[0]): void {
    this.actor?.send(event);
  }

  setValues(values: TaskSurfaceValues): void {
    this.values = values;
    this.saveDraft();
  }

  setNote(note: string): void {
    this.note = note;
    this.saveDraft();
  }

  private saveDraft(): void {
    const surfaceId = this.snapshot?.context.active?.surfaceId;
    if (surfaceId && this.values) this.drafts?.save(surfaceId, this.values, this.note);
  }

  private start(transport: HostTransport, sessionId: SessionId, config: DockConfig): void {
    this.running = config;
    const drafts = (this.drafts = createDraftStore(config.storage === undefined ? { sessionId } : { sessionId, storage: config.storage }));
    const actor = (this.actor = createActor(
      dockMachine.provide({
        actors: {
          getActive: fromPromise(({ input }) => transport.taskSurface.getActive(input)),
          submit: fromPromise(({ input }) => transport.taskSurface.submit(input)),
          dismiss: fromPromise(({ input }) => transport.taskSurface.dismiss(input)),
        },
      }),
      { input: { sessionId }, ...(config.inspect ? { inspect: config.inspect } : {}) },
    ));
    const sub = actor.subscribe((snapshot) => {
      this.snapshot = snapshot;
      const { active, model } = snapshot.context;
      const key = active && model ? active.surfaceId : undefined;
      if (key !== this.valuesFor) {
        this.valuesFor = key;
        this.values = key && model ? mergeDraft(model, drafts.get(key)) : undefined;
        this.note = (key && drafts.getNote(key)) ?? '';
      }
      this.host.requestUpdate();
    });
    const emitted = actor.on('*', (event) => {
      if (event.type === 'closed') drafts.clear(event.surfaceId);
      this.onEmitted(event);
    });
    actor.start();
    this.release.push(
      () => sub.unsubscribe(),
      () => emitted.unsubscribe(),
      () => actor.stop(),
      () => drafts.dispose(),
    );
    try {
      const unwatch = transport.watchSession(sessionId, (view) => this.onView(view));
      this.release.unshift(unwatch);
    } catch {
      // A disposed transport: the Dock stays hidden.
    }
  }

  private onView(view: SessionView): void {
    const active = view.taskSurface.active;
    // One surface is open per session: drafts of any other surface belong to closed surfaces.
    for (const surfaceId of Object.keys(this.drafts?.store.getSnapshot().context.drafts ?? {})) {
      if (surfaceId !== active?.surfaceId) this.drafts?.clear(surfaceId);
    }
    this.actor?.send({
      type: 'projection.changed',
      active: active && { callId: active.callId, surfaceId: active.surfaceId },
      pending: active?.pending ?? null,
    });
  }

  private stop(): void {
    for (const release of this.release.splice(0)) release();
    this.actor = undefined;
    this.drafts = undefined;
    this.snapshot = undefined;
    this.values = undefined;
    this.note = '';
    this.valuesFor = undefined;
    this.running = undefined;
  }
}
