import { createStore } from '@xstate/store';
import type { SessionId, TaskSurfaceValues } from '../../protocol/index.js';
import { draftStorageKey } from './draftKey.js';

/** One surface's unsubmitted values (and note, when there is one) and when they last changed. */
export interface Draft {
  values: TaskSurfaceValues;
  note?: string;
  at: number;
}

export interface DraftStoreOptions {
  sessionId: SessionId;
  /** Where drafts persist; `null` keeps them in memory only. Default `localStorage` when present. */
  storage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null;
  /** UTF-8 bytes of one draft's JSON (default 32 KiB, the submission limit). A bigger draft is not kept. */
  maxDraftBytes?: number;
  /** UTF-8 bytes of all of a session's drafts (default 128 KiB); the oldest drafts go first. */
  maxSessionBytes?: number;
  now?: () => number;
}

export { draftStorageKey } from './draftKey.js';

const encoder = new TextEncoder();
const bytesOf = (value: unknown) => encoder.encode(JSON.stringify(value)).length;

/** `localStorage`, or null where reading it throws (opaque origins, some privacy modes). */
function defaultStorage(): DraftStoreOptions['storage'] {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

function load(storage: DraftStoreOptions['storage'], key: string): Record<string, Draft> {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(key) ?? '{}');
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
    const drafts: Record<string, Draft> = {};
    for (const [surfaceId, draft] of Object.entries(parsed as Record<string, unknown>)) {
      const d = draft as Partial<Draft> | null;
      if (d && typeof d.values === 'object' && d.values !== null && !Array.isArray(d.values) && typeof d.at === 'number') {
        drafts[surfaceId] =
          typeof d.note === 'string' && d.note !== '' ? { values: d.values, note: d.note, at: d.at } : { values: d.values, at: d.at };
      }
    }
    return drafts;
  } catch {
    return {}; // unreadable storage or JSON: start empty rather than fail the Dock
  }
}

/**
 * A bounded, per-session draft store (`@xstate/store`) persisted to storage on every change.
 * Drafts never leave the browser: they are cleared when their surface closes.
 */
export function createDraftStore(options: DraftStoreOptions) {
  const storage = options.storage === undefined ? defaultStorage() : options.storage;
  const key = draftStorageKey(options.sessionId);
  const maxDraft = options.maxDraftBytes ?? 32 * 1024;
  const maxSession = options.maxSessionBytes ?? 128 * 1024;
  const now = options.now ?? Date.now;

  const store = createStore({
    context: { drafts: load(storage, key) },
    on: {
      save: (context, event: { surfaceId: string; values: TaskSurfaceValues; note?: string }) => {
        const draft: Draft = event.note ? { values: event.values, note: event.note, at: now() } : { values: event.values, at: now() };
        if (bytesOf(draft) > maxDraft) return context;
        const drafts = { ...context.drafts, [event.surfaceId]: draft };
        // Evict the oldest other drafts until the session fits its bound.
        const others = Object.keys(drafts)
          .filter((id) => id !== event.surfaceId)
          .sort((a, b) => drafts[a]!.at - drafts[b]!.at);
        while (bytesOf(drafts) > maxSession && others.length) delete drafts[others.shift()!];
        return { drafts };
      },
      clear: (context, event: { surfaceId: string }) => {
        if (!(event.surfaceId in context.drafts)) return context;
        const { [event.surfaceId]: _, ...drafts } = context.drafts;
        return { drafts };
      },
    },
  });

  const persist = store.subscribe(({ context }) => {
    try {
      if (Object.keys(context.drafts).length === 0) storage?.removeItem(key);
      else storage?.setItem(key, JSON.stringify(context.drafts));
    } catch {
      // Quota or privacy mode: the in-memory draft still works for this page.
    }
  });

  return {
    store,
    /** The saved values of a surface, if any. */
    get: (surfaceId: string): TaskSurfaceValues | undefined => store.getSnapshot().context.drafts[surfaceId]?.values,
    /** The saved note of a surface, if any. */
    getNote: (surfaceId: string): string | undefined => store.getSnapshot().context.drafts[surfaceId]?.note,
    /** Saves a draft (values and the optional note); returns false when it is over the per-draft bound and was not kept. */
    save(surfaceId: string, values: TaskSurfaceValues, note?: string): boolean {
      store.trigger.save(note ? { surfaceId, values, note } : { surfaceId, values });
      return store.getSnapshot().context.drafts[surfaceId]?.values === values;
    },
    clear: (surfaceId: string) => store.trigger.clear({ surfaceId }),
    /** Stops persisting; the stored drafts stay for the next mount. */
    dispose: () => persist.unsubscribe(),
  };
}

export type DraftStore = ReturnType<typeof createDraftStore>;
