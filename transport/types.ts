import type {
  ActRequest,
  ActResult,
  DismissTaskSurfaceRequest,
  DismissTaskSurfaceResult,
  GetActiveTaskSurfaceRequest,
  GetActiveTaskSurfaceResult,
  GetTaskSurfaceOutcomeRequest,
  LimitCode,
  LogPage,
  ReadLogOptions,
  SendMessageRequest,
  SendMessageResult,
  SessionId,
  SessionListener,
  SubmitTaskSurfaceRequest,
  SubmitTaskSurfaceResult,
  TaskSurfaceOutcome,
  UpdateQueueRequest,
  UpdateQueueResult,
} from '../protocol/index.js';

export type { ReadLogOptions, SessionListener };

/**
 * Everything the components see of a Host. A local transport calls a Host in the same process;
 * the WebSocket client calls one over the network. Every mutation carries a client-minted id and is
 * idempotent by it, so a retry returns the first result.
 */
export interface HostTransport {
  /** Calls `listener` with the current view as soon as it is known, then on every change. */
  watchSession(sessionId: SessionId, listener: SessionListener): () => void;
  readLog(sessionId: SessionId, options: ReadLogOptions): Promise<LogPage>;
  taskSurface: {
    getActive(input: GetActiveTaskSurfaceRequest): Promise<GetActiveTaskSurfaceResult>;
    /** How one surface stands (open, submitted, dismissed, bypassed, unknown): what a transcript row shows. */
    getOutcome(input: GetTaskSurfaceOutcomeRequest): Promise<TaskSurfaceOutcome>;
    submit(input: SubmitTaskSurfaceRequest): Promise<SubmitTaskSurfaceResult>;
    dismiss(input: DismissTaskSurfaceRequest): Promise<DismissTaskSurfaceResult>;
  };
  session: {
    send(input: SendMessageRequest): Promise<SendMessageResult>;
    updateQueue(input: UpdateQueueRequest): Promise<UpdateQueueResult>;
  };
  actionCards: {
    act(input: ActRequest): Promise<ActResult>;
  };
  /** Releases every subscription and connection; later calls reject with TransportDisposedError. */
  dispose(): void;
}

/**
 * Raised by a transport call that cannot reach the Host (after its retries) or after dispose, or
 * that the server refused: `quota-exceeded`, `too-busy` and `too-many-connections` are its limits
 * (docs/security.md), with `retryAfterMs` when waiting helps; `busy` when the server kept answering
 * `busy` past the client's `busyRetries`.
 */
export class TransportError extends Error {
  override name = 'TransportError';
  constructor(
    readonly code: 'disposed' | 'unreachable' | 'busy' | 'unknown-session' | 'bad-request' | 'server-error' | LimitCode,
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}
