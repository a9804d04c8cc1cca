import type { JsonValue } from '../protocol/index.js';
import type { PanelLedger, PanelState } from './ledger.js';

/*
 * What the person has typed into an open panel, kept by the server so it survives the iframe
 * reloading: a view in a bare sandboxed iframe has no storage of its own. Bounded: at most
 * MAX_DRAFTS panels per ledger (the least recently written goes first), each at most the ledger's
 * submission limit; in memory, because a draft is a convenience and the answer is what counts.
 */

/** Drafts held at once per ledger. */
export const MAX_DRAFTS = 256;

type Values = Record<string, JsonValue>;
const drafts = new WeakMap<PanelLedger, Map<string, Values>>();

function draftsOf(ledger: PanelLedger): Map<string, Values> {
  let map = drafts.get(ledger);
  if (!map) drafts.set(ledger, (map = new Map()));
  return map;
}

/** The panel's state, with its draft when it is still open (a closed panel's draft is dropped). */
export function withDraft(ledger: PanelLedger, viewId: string, state: PanelState): PanelState & { draft?: Values } {
  const map = draftsOf(ledger);
  if (state.status !== 'open') {
    map.delete(viewId);
    return state;
  }
  const draft = map.get(viewId);
  return draft ? { ...state, draft } : state;
}

/** Keeps `values` as the open panel's draft (a draft over the submission limit is not kept); the state with it. */
export function saveDraft(ledger: PanelLedger, viewId: string, values: Values, state: PanelState): PanelState & { draft?: Values } {
  const map = draftsOf(ledger);
  if (state.status === 'open' && new TextEncoder().encode(JSON.stringify(values)).length <= ledger.limits.submissionBytes) {
    map.delete(viewId);
    map.set(viewId, values);
    while (map.size > MAX_DRAFTS) map.delete(map.keys().next().value!);
  }
  return withDraft(ledger, viewId, state);
}
