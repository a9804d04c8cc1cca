/*
 * The Host's public contract and its extension points. `createHost` (host/createHost.ts) implements
 * `Host`; the action-cards service plugs in through `HostPluginApi`.
 */
import type {
  ActRequest,
  ActResult,
  ActionCardsView,
  CallId,
  HostApi,
  InboxItemId,
  JsonValue,
  Principal,
  QueuedMessage,
  LogPage,
  NewSessionEvent,
  SendMessageRequest,
  SendMessageResult,
  SessionEvent,
  SessionId,
  SessionSummary,
  SessionView,
  SessionListener,
  ReadLogOptions,
  ScopedHostApi,
  TaskSurfaceLimitsInput,
  TaskSurfaceService,
  ToolDefinition,
  ToolMode,
  TurnId,
  UpdateQueueRequest,
  UpdateQueueResult,
  UserMessageEvent,
} from '../protocol/index.js';
import type { InspectionEvent, Observer } from 'xstate';
import type { SessionPolicy } from './principal.js';
import type { AgentDriver, ToolOutcome } from './agentTypes.js';

export type { AgentDriver, AgentTurn, ModelRequest, PromptMessage, ToolCallOptions, ToolOutcome } from './agentTypes.js';

/** A BCP 47 language tag: the submission text is written in its language (see `localeChain`). */
export type Locale = string;
export type InspectObserver = Observer<InspectionEvent> | ((event: InspectionEvent) => void);

export interface OpenSessionOptions {
  sessionId?: SessionId;
  title?: string;
  /** Tools are advertised by mode: `code` never advertises show_task_surface. Default `native`. */
  toolMode?: ToolMode;
  /** A read-only session refuses card verbs that write. */
  readOnly?: boolean;
  /** Locale of product-formatted text (submission messages). Default `en`. */
  locale?: Locale;
}

/**
 * The Host as one principal sees it (`host.as(principal)`): the client-facing calls a person or a
 * connection makes, plus forking. Sessions it opens or forks are its own; every call on a session
 * asks the Host's policy first, and a session the policy refuses is answered exactly like a missing one.
 */
export interface ScopedHost extends ScopedHostApi {
  /** Opens a session owned by this principal (its opening event names it). The id is always minted. */
  openSession(options?: Omit<OpenSessionOptions, 'sessionId'>): SessionId;
  /** A fork owned by this principal (read access to the source suffices). */
  fork(sessionId: SessionId, options?: { throughSeq?: number; title?: string }): SessionId;
}

/**
 * The Host as host code drives it (as the system principal): the client-facing `HostApi`
 * (protocol/hostApi.ts) and the rest. Every method validates its input at this edge.
 */
export interface Host extends HostApi {
  /** The same Host as `principal` sees it: the policy applied, the owner and `by` recorded. */
  as(principal: Principal): ScopedHost;
  readonly taskSurface: TaskSurfaceService;
  readonly actionCards: ActionCardsService;
  readonly session: {
    send(input: SendMessageRequest): Promise<SendMessageResult>;
    updateQueue(input: UpdateQueueRequest): Promise<UpdateQueueResult>;
  };
  openSession(options?: OpenSessionOptions): SessionId;
  hasSession(sessionId: SessionId): boolean;
  listSessions(): SessionSummary[];
  /**
   * The sessions `owner` (a principal id) owns, oldest first: one lookup in the store's owner index,
   * O(those sessions), no log read. What `host.as(principal).listSessions()` starts from.
   */
  listSessionsOf(owner: string): SessionSummary[];
  /** Sessions held in memory now (bounded by `maxLoadedSessions`; idle ones are unloaded). */
  loadedSessionCount(): number;
  /** One session's summary (title, lastSeq) without listing the store. Throws for an unknown session. */
  sessionSummary(sessionId: SessionId): SessionSummary;
  /** Disposes the session's live agent; its log stays. Reopened lazily by the next use. */
  closeSession(sessionId: SessionId): void;
  /**
   * Drops the session from this process's memory (its actors stop, the store's copy is dropped
   * first, so a turn cut off writes nothing more); the next `load` reads it again. What a cluster
   * does with a session another process now owns.
   */
  unload(sessionId: SessionId): void;
  getView(sessionId: SessionId): SessionView;
  watchSession(sessionId: SessionId, listener: SessionListener): () => void;
  readLog(sessionId: SessionId, options: ReadLogOptions): Promise<LogPage>;
  /** A new session whose log is this one's prefix through `throughSeq` (default: all). */
  fork(sessionId: SessionId, options?: { throughSeq?: number; title?: string }): SessionId;
  /** Cuts the session back to `toSeq`: later events stop counting (the log itself only grows). */
  rewind(sessionId: SessionId, toSeq: number): void;
  /**
   * Resolves when the session's (or every live session's) turn loop is idle: no running turn and,
   * with `autoAdmit`, no queued or claimed row (without it, rows and claims wait for host code).
   */
  whenIdle(sessionId?: SessionId): Promise<void>;
  /** Host code's hand on the inbox (for `autoAdmit: false`). */
  readonly inbox: HostInbox;
  /** The plugin API the host gives its action-cards service (and any other plugin). */
  readonly plugins: HostPluginApi;
  /** Cancels running turns, discards queued and claimed rows, stops every actor. The store stays open. */
  dispose(): Promise<void>;
}

/** Stepping the inbox by hand: claim the next row, then commit it (durable) or discard it. */
export interface HostInbox {
  /**
   * Claims the session's next row (steering rows first): the row leaves the queue and a correlated
   * Task Surface submission turns `claiming`. Null when nothing is queued or the loop takes no row
   * now (a concluded turn is still finishing).
   */
  claimNext(sessionId: SessionId): ClaimHandle | null;
  /** Rows claimed and not yet committed or discarded. */
  claimed(sessionId: SessionId): QueuedMessage[];
}

/** One claimed inbox row. Exactly one of commit/discard settles it; a second call throws. */
export interface ClaimHandle {
  readonly itemId: InboxItemId;
  readonly row: QueuedMessage;
  /** Appends the row's durable `user/message` (a turn starts once no other claim is open). */
  commit(): UserMessageEvent;
  /** Rejects the row before it became durable (`reason` defaults to 'rejected'). */
  discard(reason?: string): void;
}

export interface ActionCardsService {
  register(kind: CardKind): () => void;
  /** `as`: who acts (the kind's handler and `reconcile` see the initiator). Default: the system principal, with write access. */
  act(input: ActRequest, as?: ActingAs): Promise<ActResult>;
  view(sessionId: SessionId): ActionCardsView;
  /** Records a decision for a card (used by kind handlers). */
  record(input: RecordDecisionInput): SessionEvent;
}

/** Who an act runs as: the initiator, and whether the policy gives them write access to the session. */
export interface ActingAs {
  initiator: Principal;
  /** false: verbs with the `writes` check are refused `read-only`, as in a read-only session. */
  canWrite: boolean;
}

export interface RecordDecisionInput {
  sessionId: SessionId;
  callId: CallId;
  action: string;
  phase: string;
  data?: Record<string, JsonValue>;
  /** The principal id who decided (the act's initiator). */
  by?: string;
}

/* ---- extension points ---- */

export interface ToolContext {
  sessionId: SessionId;
  callId: CallId;
  turnId: TurnId;
  origin: 'model' | 'code';
  agent: 'root' | 'subagent';
  /** Ends the turn after this call: the agent does not continue past a human checkpoint. */
  concludeTurn(): void;
}

export interface HostTool {
  definition: ToolDefinition;
  /** Omitted or false: an exclusive ordering barrier within its step (the spec's default). */
  concurrencySafe?: boolean;
  /** Tool modes that advertise it. */
  modes: readonly ToolMode[];
  /** Extra advertisement condition for a session's agent, checked at every step. */
  when?(ctx: { sessionId: SessionId; agent: 'root' | 'subagent' }): boolean;
  execute(args: JsonValue, ctx: ToolContext): ToolOutcome | Promise<ToolOutcome>;
}

export interface StepContext {
  sessionId: SessionId;
  turnId: TurnId;
}

/** What a plugin (the action-cards service) may use of the host. */
export interface HostPluginApi {
  now(): number;
  append(sessionId: SessionId, event: NewSessionEvent): SessionEvent;
  /** The session's effective log (rewinds applied), oldest first. */
  events(sessionId: SessionId): Iterable<SessionEvent>;
  /** Listen to every appended event of every session (after it is durable). */
  onEvent(listener: (sessionId: SessionId, event: SessionEvent) => void): () => void;
  /** A session's state must be rebuilt (fork, rewind, reopen): fold its effective log again. */
  onReset(listener: (sessionId: SessionId) => void): () => void;
  registerTool(tool: HostTool): () => void;
  /**
   * Runs at each model step before the request is built; may append events. Hooks run in
   * registration order within a phase, every `context` hook (the default) before any `notice` hook,
   * so a notice always follows the request's other new context.
   */
  onBeforeStep(hook: (ctx: StepContext) => void, options?: { phase?: 'context' | 'notice' }): () => void;
  /** User messages waiting for a later turn. */
  queuedMessageCount(sessionId: SessionId): number;
  /** The session has a live (not disposed) root agent in this process. */
  isLiveRoot(sessionId: SessionId): boolean;
  isReadOnly(sessionId: SessionId): boolean;
  hasSession(sessionId: SessionId): boolean;
  /** Notify watchers that the session's view changed. */
  publish(sessionId: SessionId): void;
  /** The session's live root agent was disposed (closeSession, dispose): in-memory activations end. */
  onAgentDisposed?(listener: (sessionId: SessionId) => void): () => void;
  inspect?: InspectObserver;
}

/* ---- action-card kinds ---- */

export type CardVerbCheck = 'global' | 'writes';

export interface CardKindContext {
  sessionId: SessionId;
  callId: CallId;
  card: { action: string; title: string; brief: string; details: Record<string, JsonValue> };
  /** Who acted (host code: the system principal). Decisions recorded through `record` name them. */
  initiator: Principal;
  /** The card's latest recorded phase ('proposed' when none). */
  phase: string;
  /** The data of the card's latest recorded decision (`{}` when none). Optional for older callers. */
  data?: Record<string, JsonValue>;
  record(phase: string, data?: Record<string, JsonValue>): SessionEvent;
  signal: AbortSignal;
}

export type CardHandlerResult =
  { status: 'accepted' } | { status: 'settled' } | { status: 'refused'; reason: string } | { status: 'unconfirmed' };

export interface CardKind {
  action: string;
  /** `purpose`: one line the `skill` tool lists so a model can discover the kind (default: the text's first line). */
  skill: { name: string; text: string; purpose?: string };
  /** One or two sentences: how to invite the user to the card, in the user's language. */
  invitation: string;
  /** zod (or zod/mini) schema of `details`. The Host passes OWN_WORDS, so its refusals read alike in every process. */
  details: {
    safeParse(
      input: unknown,
      options?: { error?: () => string },
    ):
      | { success: true; data: unknown }
      | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };
  };
  verbs: Record<
    string,
    { checks?: readonly CardVerbCheck[]; handler(ctx: CardKindContext, payload: JsonValue | undefined): Promise<CardHandlerResult> }
  >;
  /** Recorded phases that still offer Not now. */
  dismissibleIn?: readonly string[];
  /** Sentences the status notice carries for this kind. */
  statusGuidance?: string;
  /** Decision data fields the notice reports. */
  reportedFields?: readonly string[];
  reconcile?(ctx: CardKindContext): Promise<void>;
}

export interface CreateHostOptions {
  store: import('./store/types.js').SessionLogStore;
  limits?: TaskSurfaceLimitsInput;
  inspect?: InspectObserver;
  /** Id minters (deterministic ids in tests); each defaults to random UUIDs. */
  ids?: {
    session?: () => string;
    call?: () => string;
    message?: () => string;
    surface?: () => string;
    rpc?: () => string;
    item?: () => string;
    turn?: () => string;
  };
  clock?: () => number;
  /**
   * Who may read or write which session, for every principal but the system one. Default
   * `ownerOnly`: the principal a session's opening event names reads and writes it; nobody else
   * sees it. A product passes its own for shared sessions or admins.
   */
  policy?: SessionPolicy;
  /**
   * For a policy that shares sessions: the ones it shares with `principal` (each is still asked of
   * the policy). `host.as(principal).listSessions()` lists the principal's own sessions from the
   * store's owner index, then these; without this option a shared session is usable but not listed.
   */
  sharedSessions?: (principal: Principal) => Iterable<SessionId>;
  /**
   * Per-principal limits (docs/security.md): sessions owned (200), bytes per session (16 MiB) and in
   * all (128 MiB), messages per minute (30), turns at once (4), model calls at once per owner (2) and
   * for the whole Host (32, queued fairly). Each a positive integer or `Infinity` (off); a bad value throws.
   */
  quotas?: import('./limits/options.js').QuotaOptions;
  /**
   * Several processes serving one principal: its `quotas.messagesPerMinute` counted in a bucket they
   * share (`createPostgresMessageRate` from `task-surface/host/postgres`), so the rate holds for
   * them all. A message that would be admitted takes its token there, then its checks run again
   * before it is queued. Default: counted in this process's memory.
   */
  messageRate?: import('./limits/admission.js').SharedMessageRate;
  /** The agent of every session. Without one, admitted turns end at once ('completed'). */
  driver?: AgentDriver;
  /** false: rows wait until host code claims them (tests step the loop by hand). Default true. */
  autoAdmit?: boolean;
  /**
   * Told of every failure the host settles by itself instead of throwing to a caller (a store error
   * while admitting a row or ending a turn, say: the row is discarded, the turn ends in memory).
   * Default: `console.error`.
   */
  onError?: (error: Error) => void;
  /**
   * Rows one session's queue may hold; `session.send` past it answers `{ accepted: false, reason:
   * 'queue-full' }` and adds nothing. Task Surface submissions are not refused (one per surface).
   * Default 100.
   */
  maxQueuedMessages?: number;
  /**
   * Sessions kept in memory. Past it, idle sessions (no watcher, no running turn, no claimed row, no
   * Task Surface row) are unloaded, least recently used first; they come back from the store on
   * their next use, answering exactly as before. Default 1,000.
   */
  maxLoadedSessions?: number;
  /** An idle session unused this long is unloaded from memory (checked at most every minute). Default 5 min. */
  sessionIdleMs?: number;
  actionCards?: {
    queuedMessageLimit?: number;
    /** Whether acts on a session may use card verbs that need `global` access. Default: allowed. */
    globalAccess?: (sessionId: SessionId) => boolean;
  };
}
