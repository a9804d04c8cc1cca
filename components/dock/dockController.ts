import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { retryDelay, type DockMachineEmitted } from '../../machines/dockTypes.js';
import type { SessionId, SessionView, TaskSurfaceModelV1, TaskSurfaceValues } from '../../protocol/index.js';
import type { HostTransport } from '../../transport/types.js';
import { draftStorageKey } from '../drafts/draftKey.js';
import type { DraftStore } from '../drafts/draftStore.js';
import { lazyModule } from '../shared/lazy.js';
import { mergeDraft } from '../shared/values.js';
import type { DockEvent, DockRuntime, DockRuntimeOptions, DockSnapshot } from './dockRuntime.js';

export type InspectOption = Exclude<DockRuntimeOptions['inspect'], undefined>;

export interface DockConfig {
  transport: HostTransport | undefined;
  sessionId: SessionId | undefined;
  inspect: InspectOption | undefined;
  storage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null;
}

/** The statechart and draft store: a chunk of the drop-in bundle, fetched when a Dock first has work. */
const runtimeModule = lazyModule(() => import('./dockRuntime.js'));

/** Whether `storage` holds drafts of the session (they must be pruned even when nothing is open). */
function hasStoredDrafts(config: DockConfig, sessionId: SessionId): boolean {
  try {
    const storage = config.storage === undefined ? globalThis.localStorage : config.storage;
    return (storage?.getItem(draftStorageKey(sessionId)) ?? null) !== null;
  } catch {
    return false;
  }
}

/**
 * Bridges the Dock element to its session: one watch on the transport, one dockMachine actor
 * (visible to `inspect`), one draft store. The watch is made on connect (or when the session or
 * transport changes); the actor and draft store when the session first has a surface to show (or
 * drafts to prune), which loads them if they have not arrived yet (`loading` meanwhile). All of it
 * is released on disconnect.
 */
export class DockController implements ReactiveController {
  snapshot: DockSnapshot | undefined;
  drafts: DraftStore | undefined;
  /** The values the Dock shows for the active surface (draft over initial values). */
  values: TaskSurfaceValues | undefined;
  /** The note the person is writing for the active surface (kept in the draft). */
  note = '';
  /**
   * The panel a streaming call is writing (the view's `preview`), read-only. Kept while the surface
   * it became loads, so the same elements turn into the panel; dropped when the view has neither.
   */
  preview: TaskSurfaceModelV1 | undefined;
  /** The Dock's runtime is on its way (or its fetch is tried again). */
  private booting = false;
  private runtime: DockRuntime | undefined;
  private release: (() => void)[] = [];
  private running: DockConfig | undefined;
  private valuesFor: string | undefined;
  /** The newest view, kept until the runtime can hear it. */
  private latest: SessionView | undefined;
  /** Failed fetches of the runtime in a row, and the timer of the next try. */
  private bootFailures = 0;
  private bootTimer: ReturnType<typeof setTimeout> | undefined;

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

  /**
   * The session has a surface to show and the runtime is on its way: the Dock says it loads the
   * task. A runtime fetched only to prune stored drafts shows nothing.
   */
  get loadingRuntime(): boolean {
    return this.booting && Boolean(this.latest?.taskSurface.active);
  }

  send(event: DockEvent): void {
    this.runtime?.send(event);
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
    // A session whose drafts are stored needs the runtime at once, to prune them or show them.
    if (hasStoredDrafts(config, sessionId)) this.boot(transport, sessionId, config);
    try {
      const unwatch = transport.watchSession(sessionId, (view) => this.onView(transport, sessionId, config, view));
      this.release.unshift(unwatch);
    } catch {
      // A disposed transport: the Dock stays hidden.
    }
  }

  private onView(transport: HostTransport, sessionId: SessionId, config: DockConfig, view: SessionView): void {
    const preview = view.preview?.model ?? (view.taskSurface.active && !this.snapshot?.context.model ? this.preview : undefined);
    if (preview !== this.preview) {
      this.preview = preview;
      this.host.requestUpdate();
    }
    if (this.runtime) return this.runtime.view(view);
    this.latest = view;
    this.host.requestUpdate();
    // A preview fetches the runtime too: the panel it becomes is answerable at once.
    if (view.taskSurface.active || view.preview) this.boot(transport, sessionId, config);
  }

  /**
   * Makes the runtime now when its module is here, else once it arrives. A failed fetch is tried
   * again with the getActive back-off (250 ms doubling to 8 s), `loading` meanwhile.
   */
  private boot(transport: HostTransport, sessionId: SessionId, config: DockConfig): void {
    const module = runtimeModule.get();
    if (!module) {
      if (this.booting) return;
      this.booting = true;
      this.host.requestUpdate();
      runtimeModule.load().then(
        () => {
          if (this.running !== config) return;
          this.booting = false;
          this.bootFailures = 0;
          this.boot(transport, sessionId, config);
        },
        () => {
          if (this.running !== config) return;
          this.bootTimer = setTimeout(() => {
            this.booting = false;
            if (this.running === config && !this.runtime) this.boot(transport, sessionId, config);
          }, retryDelay(++this.bootFailures));
        },
      );
      return;
    }
    if (this.runtime) return;
    const runtime = module.startDockRuntime({
      transport,
      sessionId,
      inspect: config.inspect,
      storage: config.storage,
      onSnapshot: (snapshot, drafts) => this.onSnapshot(snapshot, drafts),
      onEmitted: (event) => this.onEmitted(event),
    });
    this.runtime = runtime;
    this.drafts = runtime.drafts;
    this.release.push(() => runtime.stop());
    if (this.latest) runtime.view(this.latest);
    this.latest = undefined;
  }

  private onSnapshot(snapshot: DockSnapshot, drafts: DraftStore): void {
    this.snapshot = snapshot;
    const { active, model } = snapshot.context;
    if (model) this.preview = undefined;
    const key = active && model ? active.surfaceId : undefined;
    if (key !== this.valuesFor) {
      this.valuesFor = key;
      this.values = key && model ? mergeDraft(model, drafts.get(key)) : undefined;
      this.note = (key && drafts.getNote(key)) ?? '';
    }
    this.host.requestUpdate();
  }

  private stop(): void {
    for (const release of this.release.splice(0)) release();
    this.runtime = undefined;
    this.drafts = undefined;
    this.snapshot = undefined;
    this.values = undefined;
    this.note = '';
    this.preview = undefined;
    this.valuesFor = undefined;
    this.running = undefined;
    this.latest = undefined;
    this.booting = false;
    clearTimeout(this.bootTimer);
    this.bootFailures = 0;
  }
}
