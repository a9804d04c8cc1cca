import { createActor, fromPromise, type Actor } from 'xstate';
import { cardMachine, type CardOperationInput } from '../../machines/cardMachine.js';
import {
  ActRequestSchema,
  JsonObjectSchema,
  PrincipalIdSchema,
  type ActRequest,
  type ActResult,
  type ActionCardsView,
  type SessionEvent,
  type SessionId,
} from '../../protocol/index.js';
import { parseInput } from '../errors.js';
import { SYSTEM_PRINCIPAL } from '../principal.js';
import { inspectSession } from '../inspect.js';
import type { ActingAs, ActionCardsService, CardKind, HostPluginApi, RecordDecisionInput } from '../types.js';
import { buildNotice } from './notice.js';
import { actRefusal, runCardOperation } from './operation.js';
import { cardPhase, cardsView, foldCards, foldCardsEvent, type CardChange, type CardsState } from './projection.js';
import { KindRegistry } from './registry.js';
import { createProposeActionTool, createSkillTool } from './tools.js';

export interface ActionCardsOptions {
  /** Queued next-turn user messages at or above which propose_action refuses. Default 2. */
  queuedMessageLimit?: number;
  /** Whether acts on the session may use verbs that need `global` access. Default: allowed. */
  globalAccess?: (sessionId: SessionId) => boolean;
}

/** The service as createHost holds it: the public contract plus teardown. */
export interface ActionCardsHostService extends ActionCardsService {
  /** Refuses further acts as `closing`, aborts running operations, stops every card actor. */
  dispose(): void;
}

interface SessionCards {
  state: CardsState;
  actors: Map<string, Actor<typeof cardMachine>>;
}

/** Creates the action-cards service on a host through its plugin API. */
export function createActionCardsService(api: HostPluginApi, options: ActionCardsOptions = {}): ActionCardsHostService {
  const queuedMessageLimit = options.queuedMessageLimit ?? 2;
  if (!Number.isInteger(queuedMessageLimit) || queuedMessageLimit < 1) {
    throw new RangeError(`actionCards.queuedMessageLimit must be a positive integer, got ${String(queuedMessageLimit)}`);
  }
  const registry = new KindRegistry();
  const sessions = new Map<SessionId, SessionCards>();
  /** Sessions whose live root agent loaded a card skill by its own direct call (in memory, per agent). */
  const active = new Set<SessionId>();
  /** One shared operation per card, keyed by session and callId (survives a refold). */
  const operations = new Map<string, Promise<ActResult>>();
  /** Who the act being handed to a card actor right now acts as (read once, synchronously, by the operation). */
  let acting: ActingAs = { initiator: SYSTEM_PRINCIPAL, canWrite: true };
  const lifetime = new AbortController();
  let closing = false;

  const load = (sessionId: SessionId): SessionCards => {
    let session = sessions.get(sessionId);
    if (session === undefined) {
      session = { state: foldCards(api.events(sessionId)), actors: new Map() };
      sessions.set(sessionId, session);
      if (!closing) for (const callId of session.state.cards.keys()) startActor(sessionId, session, callId);
    }
    return session;
  };

  const unload = (sessionId: SessionId) => {
    const session = sessions.get(sessionId);
    sessions.delete(sessionId);
    for (const actor of session?.actors.values() ?? []) actor.stop();
  };

  function startActor(sessionId: SessionId, session: SessionCards, callId: string) {
    const card = session.state.cards.get(callId);
    if (card === undefined || closing) return;
    const logic = cardMachine.provide({
      actors: {
        operation: fromPromise<ActResult, CardOperationInput>(({ input }) => {
          const key = `${sessionId}\u0000${callId}`;
          const operation = runCardOperation(deps, sessionId, callId, input.verb, input.payload, acting)
            .catch((): ActResult => ({ status: 'unconfirmed' }))
            .finally(() => operations.delete(key));
          operations.set(key, operation);
          return operation;
        }),
      },
    });
    const input = { callId, action: card.proposal.action, phase: cardPhase(card) };
    const actor = createActor(logic, {
      input,
      id: `card:${callId}`,
      ...(api.inspect ? { inspect: inspectSession(api.inspect, sessionId) } : {}),
    });
    session.actors.set(callId, actor.start());
  }

  const apply = (sessionId: SessionId, event: SessionEvent) => {
    const session = sessions.get(sessionId);
    if (session === undefined) return; // folded lazily, from the whole log, on first use
    const changes = foldCardsEvent(session.state, event);
    if (changes.some((c) => c.type === 'reset')) {
      unload(sessionId);
      load(sessionId);
    } else {
      for (const change of changes) mirror(sessionId, session, change);
    }
    // No publish here: the host publishes every appended event after its listeners ran.
  };

  const mirror = (sessionId: SessionId, session: SessionCards, change: CardChange) => {
    if (change.type === 'proposed') startActor(sessionId, session, change.callId);
    else if (change.type === 'decided') session.actors.get(change.callId)?.send({ type: 'log.decided', phase: change.phase });
    else if (change.type === 'replaced') session.actors.get(change.callId)?.send({ type: 'log.replaced' });
  };

  const record = (input: RecordDecisionInput): SessionEvent => {
    const { sessionId, callId, action, phase } = input;
    if (!api.hasSession(sessionId)) throw new Error(`actionCards.record: unknown session "${sessionId}"`);
    if (!registry.wasEverRegistered(action)) throw new Error(`actionCards.record: no kind ever registered action "${action}"`);
    if (phase === 'replaced' || phase === 'proposed') {
      throw new Error(`actionCards.record: "${phase}" is derived from the log and cannot be recorded`);
    }
    if (typeof phase !== 'string' || phase.trim() === '') throw new Error('actionCards.record: phase must be a non-empty string');
    const card = load(sessionId).state.cards.get(callId);
    if (card === undefined) throw new Error(`actionCards.record: session "${sessionId}" has no card "${callId}"`);
    if (card.proposal.action !== action) {
      throw new Error(`actionCards.record: card "${callId}" is a "${card.proposal.action}" card, not "${action}"`);
    }
    const data = JsonObjectSchema.safeParse(input.data ?? {});
    if (!data.success) throw new Error('actionCards.record: data must be a JSON object');
    const by = input.by === undefined ? undefined : PrincipalIdSchema.safeParse(input.by);
    if (by !== undefined && !by.success) throw new Error('actionCards.record: by must be a principal id');
    const event = api.append(sessionId, {
      type: 'action-cards/decision',
      callId,
      action,
      phase,
      data: data.data,
      ...(by === undefined ? {} : { by: by.data }),
    });
    apply(sessionId, event);
    return event;
  };

  const deps = {
    api,
    registry,
    record,
    signal: lifetime.signal,
    isClosing: () => closing,
    card: (sessionId: SessionId, callId: string) => load(sessionId).state.cards.get(callId),
  };

  const toolDeps = {
    api,
    registry,
    queuedMessageLimit,
    state: (sessionId: SessionId) => load(sessionId).state,
    activate: (sessionId: SessionId) => void active.add(sessionId),
    isActive: (sessionId: SessionId) => {
      // The flag lives as long as the live root agent does.
      if (!api.isLiveRoot(sessionId)) active.delete(sessionId);
      return active.has(sessionId);
    },
  };

  const disposers = [
    api.onEvent(apply),
    api.onReset((sessionId) => unload(sessionId)),
    // The agent's activation ends with it; its cards' actors stop and refold on the next use.
    api.onAgentDisposed?.((sessionId) => {
      active.delete(sessionId);
      unload(sessionId);
    }) ?? (() => {}),
    api.registerTool(createSkillTool(toolDeps)),
    api.registerTool(createProposeActionTool(toolDeps)),
    // The notice phase runs after every other step hook: the notice follows the request's new context.
    api.onBeforeStep(
      ({ sessionId }) => {
        const notice = buildNotice(load(sessionId).state, registry);
        if (notice === undefined) return;
        apply(sessionId, api.append(sessionId, { type: 'action-cards/notice', through: notice.through, text: notice.text }));
      },
      { phase: 'notice' },
    ),
  ];

  const act = async (request: ActRequest, as: ActingAs = { initiator: SYSTEM_PRINCIPAL, canWrite: true }): Promise<ActResult> => {
    const { sessionId, callId, verb, payload } = parseInput('actionCards.act', ActRequestSchema, request);
    if (closing) return { status: 'refused', reason: 'closing' };
    if (!api.hasSession(sessionId)) return { status: 'refused', reason: 'unknown' };
    if (!api.isLiveRoot(sessionId)) return { status: 'refused', reason: 'not-live-root' };
    const session = load(sessionId);
    const card = session.state.cards.get(callId);
    if (card === undefined) return { status: 'refused', reason: 'unknown' };
    const refused = actRefusal(registry.get(card.proposal.action), verb, {
      canWrite: as.canWrite && !api.isReadOnly(sessionId),
      global: () => options.globalAccess?.(sessionId) ?? true,
    });
    if (refused !== undefined) return refused;
    const key = `${sessionId}\u0000${callId}`;
    const running = operations.get(key);
    if (running !== undefined) return running;
    acting = as;
    try {
      session.actors.get(callId)?.send({ type: 'user.acted', verb, ...(payload === undefined ? {} : { payload }) });
    } finally {
      acting = { initiator: SYSTEM_PRINCIPAL, canWrite: true };
    }
    return operations.get(key) ?? { status: 'unconfirmed' };
  };

  return {
    register: (kind: CardKind) => registry.register(kind),
    act,
    view: (sessionId: SessionId): ActionCardsView =>
      api.hasSession(sessionId) ? cardsView(load(sessionId).state) : { proposals: [], decisions: {} },
    record,
    dispose() {
      if (closing) return;
      closing = true;
      lifetime.abort();
      for (const dispose of disposers) dispose();
      for (const sessionId of [...sessions.keys()]) unload(sessionId);
    },
  };
}

export { buildNotice } from './notice.js';
export { cardPhase, cardsView, foldCards } from './projection.js';
export { PROPOSE_ACTION_DEFINITION, SKILL_DEFINITION } from './tools.js';
export { NOTICE_CONTINUE, NOTICE_PREAMBLE, refusal as proposeActionTexts } from './texts.js';
