import type { ActResult, JsonValue, SessionEvent, SessionId } from '../../protocol/index.js';
import { isSystem } from '../principal.js';
import type { ActingAs, CardHandlerResult, CardKind, CardKindContext, HostPluginApi, RecordDecisionInput } from '../types.js';
import { cardPhase, type CardRecord } from './projection.js';
import type { KindRegistry } from './registry.js';

export interface OperationDeps {
  /** Only what an operation asks of the host (the AI SDK integration answers these for an app's chat). */
  api: Pick<HostPluginApi, 'isLiveRoot' | 'isReadOnly'>;
  registry: KindRegistry;
  card(sessionId: SessionId, callId: string): CardRecord | undefined;
  record(input: RecordDecisionInput): SessionEvent;
  isClosing(): boolean;
  signal: AbortSignal;
}

const refused = (reason: string): ActResult => ({ status: 'refused', reason });

/**
 * The checks an act passes before it joins a card's operation, in the spec's order: Not now needs
 * write access (it records a decision); any other verb needs its kind, the verb, `global` access
 * and, for a writing verb, write access. Undefined when the act may go on.
 */
export function actRefusal(
  kind: CardKind | undefined,
  verb: string,
  access: { canWrite: boolean; global(): boolean },
): ActResult | undefined {
  if (verb === 'dismiss') return access.canWrite ? undefined : refused('read-only');
  if (kind === undefined) return refused('unavailable');
  const entry = Object.hasOwn(kind.verbs, verb) ? kind.verbs[verb] : undefined;
  if (entry === undefined) return refused('unknown');
  if ((entry.checks ?? []).includes('global') && !access.global()) return refused('access-denied');
  if ((entry.checks ?? []).includes('writes') && !access.canWrite) return refused('read-only');
  return undefined;
}

/**
 * One card's shared operation, in the spec's order: the kind's reconcile, the live root again,
 * dismissed/replaced settle unchanged, Not now, then the kind's verb (read-only refuses a writing
 * verb) with the kind's handler. The kind is looked up again after every await: it may unregister.
 */
export async function runCardOperation(
  deps: OperationDeps,
  sessionId: SessionId,
  callId: string,
  verb: string,
  payload: JsonValue | undefined,
  as: ActingAs,
): Promise<ActResult> {
  const current = () => deps.card(sessionId, callId);
  const start = current();
  if (start === undefined) return refused('unknown');
  const ctx = kindContext(deps, sessionId, start, current, as);
  const reconciling = deps.registry.get(start.proposal.action);
  try {
    if (reconciling?.reconcile !== undefined) await reconciling.reconcile(ctx);
  } catch {
    return { status: 'unconfirmed' };
  }
  if (deps.isClosing()) return refused('closing');
  if (!deps.api.isLiveRoot(sessionId)) return refused('not-live-root');
  const card = current();
  if (card === undefined) return refused('unknown');
  const phase = cardPhase(card);
  if (phase === 'dismissed' || phase === 'replaced') return { status: 'settled', phase };
  const kind = deps.registry.get(card.proposal.action);
  if (verb === 'dismiss') return dismiss(deps, ctx, kind, phase);
  if (kind === undefined) return refused('unavailable');
  const entry = Object.hasOwn(kind.verbs, verb) ? kind.verbs[verb] : undefined;
  if (entry === undefined) return refused('unknown');
  if (!kind.details.safeParse(card.proposal.details).success) return refused('unavailable');
  if ((entry.checks ?? []).includes('writes') && (!as.canWrite || deps.api.isReadOnly(sessionId))) return refused('read-only');
  let result: CardHandlerResult;
  try {
    result = await entry.handler(ctx, payload);
  } catch {
    return { status: 'unconfirmed' };
  }
  return settle(result, ctx.phase);
}

function dismiss(deps: OperationDeps, ctx: CardKindContext, kind: CardKind | undefined, phase: string): ActResult {
  // Without its kind, Not now still dismisses an unstarted card; a started one needs the kind.
  if (phase === 'proposed' || (kind?.dismissibleIn?.includes(phase) ?? false)) {
    ctx.record('dismissed');
    return { status: 'accepted', phase: 'dismissed' };
  }
  return kind === undefined ? refused('unavailable') : { status: 'settled', phase };
}

function settle(result: CardHandlerResult, phase: string): ActResult {
  switch (result.status) {
    case 'accepted':
    case 'settled':
      return { status: result.status, phase };
    case 'refused':
      return refused(result.reason);
    default:
      return { status: 'unconfirmed' };
  }
}

function kindContext(
  deps: OperationDeps,
  sessionId: SessionId,
  start: CardRecord,
  current: () => CardRecord | undefined,
  as: ActingAs,
): CardKindContext {
  const { callId, action, title, brief, details } = start.proposal;
  // Decisions name who decided; host code's (the system principal's) carry no `by`.
  const by = isSystem(as.initiator) ? {} : { by: as.initiator.id };
  return {
    sessionId,
    callId,
    initiator: as.initiator,
    card: { action, title, brief, details },
    get phase() {
      const card = current();
      return card === undefined ? 'proposed' : cardPhase(card);
    },
    get data() {
      return current()?.decision?.data ?? {};
    },
    record: (phase, data) => deps.record({ sessionId, callId, action, phase, ...(data === undefined ? {} : { data }), ...by }),
    signal: deps.signal,
  };
}
