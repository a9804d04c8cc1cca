/*
 * A panel belongs to whoever showed it. `ownedPanels(ledger).as(principal)` is the ledger as one
 * principal of an HTTP door sees it: the panels it shows are opened as its sessions (counted against
 * its sessions and stored bytes by the Host's quotas), shown at most `showsPerMinute`, answered
 * through its message limits; another principal's `viewUUID` answers `unknown`, exactly as an id
 * that never existed. Host code (`SYSTEM_PRINCIPAL`: stdio, `allowAnonymous`) sees every panel.
 */
import { MessageRate } from '../host/limits/rate.js';
import { isSystem, LimitExceededError, type Principal } from '../protocol/index.js';
import type { PanelLedger } from './ledger.js';
import { DRAFT_SCOPE, type DraftScope } from './drafts.js';

export interface PanelOwnerOptions {
  /** Panels one principal may show per minute (a bucket of this many, refilled evenly). Default 30. */
  showsPerMinute?: number;
}

/** Principals whose view of the ledger is kept at once. */
const MAX_VIEWS = 64;

const UNKNOWN = Object.freeze({ status: 'unknown' as const });

/** Methods whose first argument is a viewId; any method the ledger adds later is checked the same way. */
const UNSCOPED = new Set<PropertyKey>(['limits', 'show', 'submit', 'owns', 'close']);

/** The ledger per principal (see the file's comment). */
export function ownedPanels(ledger: PanelLedger, options: PanelOwnerOptions = {}): { as(principal: Principal): PanelLedger } {
  const perMinute = options.showsPerMinute ?? 30;
  const rate = new MessageRate(perMinute);
  const scoped = (principal: Principal): PanelLedger => {
    const show: PanelLedger['show'] = async (args, origin, opts) => {
      const wait = rate.take(principal.id);
      if (wait > 0) {
        return {
          ok: false,
          content: `quota-exceeded: this principal showed ${perMinute} panels in the last minute (at most ${perMinute}); show again in ${Math.ceil(wait / 1000)} s`,
        };
      }
      try {
        return await ledger.show(args, origin, { ...opts, owner: principal });
      } catch (error) {
        if (error instanceof LimitExceededError) return { ok: false, content: `${error.code}: ${error.message}` };
        throw error;
      }
    };
    const submit: PanelLedger['submit'] = async (viewId, answer) =>
      (await ledger.owns(viewId, principal)) ? ledger.submit(viewId, { ...answer, by: principal }) : UNKNOWN;
    // Drafts are kept per ledger, not per view: every person's count against one bound (drafts.ts).
    const draftScope: DraftScope = { ledger, person: principal.id };
    return new Proxy(ledger, {
      get(target, key, receiver) {
        if (key === 'show') return show;
        if (key === 'submit') return submit;
        if (key === DRAFT_SCOPE) return draftScope;
        const value: unknown = Reflect.get(target, key, receiver);
        if (UNSCOPED.has(key) || typeof value !== 'function') return value;
        return async (viewId: string, ...rest: unknown[]) =>
          (await target.owns(viewId, principal)) ? (value as (...a: unknown[]) => unknown).call(target, viewId, ...rest) : UNKNOWN;
      },
    });
  };
  // One view per principal, kept while it is in use (what the ledger keys per-panel state on, such as
  // drafts, stays the same object across requests); the least recently used of MAX_VIEWS goes first.
  const views = new Map<string, PanelLedger>();
  return {
    as(principal) {
      if (isSystem(principal)) return ledger;
      const view = views.get(principal.id) ?? scoped(principal);
      views.delete(principal.id);
      views.set(principal.id, view);
      if (views.size > MAX_VIEWS) views.delete(views.keys().next().value!);
      return view;
    },
  };
}
