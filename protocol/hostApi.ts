/*
 * The client-facing contract of a Host: what a transport (local or WebSocket) needs of it. The
 * Host implements it (host/types.ts extends it); transport/ takes it. Both import it from here, so
 * neither imports the other.
 */
import type { ActRequest, ActResult } from './actionCards.js';
import type { SubmissionLocale } from './format.js';
import { describeIssues } from './wire.js';
import type { SessionId } from './ids.js';
import type { SendMessageRequest, SendMessageResult, UpdateQueueRequest, UpdateQueueResult } from './message.js';
import type { SessionSummary, SessionView } from './session.js';
import type { TaskSurfaceService } from './taskSurface.js';
import type { LogPage } from './events.js';
import type { Principal } from './principal.js';

/**
 * Input that fails its schema at the Host's edge (a bug in the caller, not a user action). A
 * transport answers it as a bad request.
 */
export class HostInputError extends Error {
  override name = 'HostInputError';
  constructor(
    readonly operation: string,
    readonly issues: readonly { path: readonly PropertyKey[]; message: string }[],
  ) {
    super(`${operation}: invalid input: ${describeIssues(issues)}`);
  }
}

/**
 * A session id the host does not know (neither live nor in its store), or one the caller's
 * principal may not see: the two are answered alike. A transport answers it `unknown-session`.
 */
export class UnknownSessionError extends Error {
  override name = 'UnknownSessionError';
  constructor(readonly sessionId: string) {
    super(`unknown session ${sessionId}`);
  }
}

/** Which page of a session's effective log to read. */
export interface ReadLogOptions {
  /** Return events with seq < before (omit for the newest page). */
  before?: number;
  limit: number;
  /**
   * Stop before the event that would take the page's JSON past this many bytes (the newest event
   * is always returned; `hasMore` says to go on with `before`). Default: no byte budget.
   */
  maxBytes?: number;
}

/** Called with a session's view as soon as it is known, then on every change. */
export type SessionListener = (view: SessionView) => void;

/** What a client may ask for when it opens a session. */
export interface ClientSessionOptions {
  title?: string;
  /** Locale of product-formatted text (submission messages). Default `en`. */
  locale?: SubmissionLocale;
}

/** The Host as a transport sees it. Every method validates its input at this edge. */
export interface HostApi {
  readonly taskSurface: TaskSurfaceService;
  readonly session: {
    send(input: SendMessageRequest): Promise<SendMessageResult>;
    updateQueue(input: UpdateQueueRequest): Promise<UpdateQueueResult>;
  };
  readonly actionCards: { act(input: ActRequest): Promise<ActResult> };
  openSession(options?: ClientSessionOptions): SessionId;
  hasSession(sessionId: SessionId): boolean;
  /**
   * Makes a stored session usable in this process: a store that keeps its sessions elsewhere
   * (PostgreSQL) reads it in; others answer at once. False when there is no such session. The
   * WebSocket server awaits it before every session-scoped request.
   */
  load(sessionId: SessionId): Promise<boolean>;
  /** Resolves when every change made so far to the session is durable (at once for synchronous stores). */
  whenDurable(sessionId: SessionId): Promise<void>;
  listSessions(): SessionSummary[];
  /** One session's summary (title, lastSeq) without listing the store. Throws for an unknown session. */
  sessionSummary(sessionId: SessionId): SessionSummary;
  getView(sessionId: SessionId): SessionView;
  watchSession(sessionId: SessionId, listener: SessionListener): () => void;
  readLog(sessionId: SessionId, options: ReadLogOptions): Promise<LogPage>;
}

/** What a principal may do with one session: nothing (answered as missing), look, or also change it. */
export type SessionAccess = 'none' | 'read' | 'write';

/**
 * The Host as one principal sees it: the same calls, with the Host's policy applied. A session the
 * policy refuses is answered exactly like a missing one; `read` access is a read-only session.
 */
export interface ScopedHostApi extends HostApi {
  readonly principal: Principal;
  /** What the policy gives this principal on the session ('none' also when it does not exist). */
  access(sessionId: SessionId): SessionAccess;
}

/** A Host that serves several principals: what a multi-user transport takes. */
export interface PrincipalHostApi {
  as(principal: Principal): ScopedHostApi;
}
