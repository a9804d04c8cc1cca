import type { JsonValue } from '../protocol/index.js';
import type { PanelLedger, PanelState } from './ledger.js';

/*
 * What the person has typed into an open panel, kept by the server so it survives the iframe
 * reloading: a view in a bare sandboxed iframe has no storage of its own. Bounded per ledger in all
 * (MAX_DRAFTS panels) and per person (MAX_DRAFTS_PER_PERSON: one person's drafts never push out
 * another's), each at most the ledger's submission limit, so a ledger holds at most MAX_DRAFTS ×
 * `submissionBytes` (256 × 32 KiB = 8 MiB by default) however many people its HTTP door sees. The
 * least recently written goes first. In memory: a draft is a convenience; the answer is what counts.
 */

/** Drafts held at once per ledger, everyone's together. */
export const MAX_DRAFTS = 256;
/** Drafts one person (principal) holds at once; their own oldest goes first. */
export const MAX_DRAFTS_PER_PERSON = 16;

/**
 * What a per-person view of a ledger (panelOwner.ts) answers for this key: the ledger it views and
 * whose view it is, so every person's drafts share one bound.
 */
export const DRAFT_SCOPE = Symbol('task-surface draft scope');
export interface DraftScope {
  ledger: PanelLedger;
  person: string;
}

type Values = Record<string, JsonValue>;
interface Draft {
  person: string;
  values: Values;
}
/** Per ledger, in write order (oldest first): viewId → its draft. */
const drafts = new WeakMap<PanelLedger, Map<string, Draft>>();

function scopeOf(ledger: PanelLedger): DraftScope {
  return ((ledger as unknown as Record<symbol, DraftScope | undefined>)[DRAFT_SCOPE] as DraftScope | undefined) ?? { ledger, person: '' };
}

function draftsOf(ledger: PanelLedger): Map<string, Draft> {
  let map = drafts.get(ledger);
  if (!map) drafts.set(ledger, (map = new Map()));
  return map;
}

/** The panel's state, with its draft when it is still open (a closed panel's draft is dropped). */
export function withDraft(ledger: PanelLedger, viewId: string, state: PanelState): PanelState & { draft?: Values } {
  const map = draftsOf(scopeOf(ledger).ledger);
  if (state.status !== 'open') {
    map.delete(viewId);
    return state;
  }
  const draft = map.get(viewId);
  return draft ? { ...state, draft: draft.values } : state;
}

/** Keeps `values` as the open panel's draft (a draft over the submission limit is not kept); the state with it. */
export function saveDraft(ledger: PanelLedger, viewId: string, values: Values, state: PanelState): PanelState & { draft?: Values } {
  const { ledger: root, person } = scopeOf(ledger);
  const map = draftsOf(root);
  if (state.status === 'open' && new TextEncoder().encode(JSON.stringify(values)).length <= root.limits.submissionBytes) {
    map.delete(viewId);
    map.set(viewId, { person, values });
    const own = [...map].filter(([, draft]) => draft.person === person);
    for (const [id] of own.slice(0, Math.max(0, own.length - MAX_DRAFTS_PER_PERSON))) map.delete(id);
    while (map.size > MAX_DRAFTS) map.delete(map.keys().next().value!);
  }
  return withDraft(ledger, viewId, state);
}
