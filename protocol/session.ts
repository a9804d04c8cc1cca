import type { ActionCardsView } from './actionCards.js';
import type { SessionId, TurnId } from './ids.js';
import type { QueuedMessage } from './message.js';
import type { TaskSurfaceModelV1 } from './model.js';
import type { TaskSurfaceProjection } from './taskSurface.js';

export type ToolMode = 'native' | 'both' | 'code';

/** What a client sees of one session, pushed on every change. */
export interface SessionView {
  sessionId: SessionId;
  /** seq of the newest log event: a client re-reads the log tail when it grows. */
  lastSeq: number;
  readOnly: boolean;
  /** Whether a turn is running (the agent is working). */
  turn: 'idle' | 'running';
  taskSurface: TaskSurfaceProjection;
  queue: QueuedMessage[];
  actionCards: ActionCardsView;
  /**
   * The agent's reply while it streams: everything so far, transient (never logged). Absent when
   * nothing streams; the final text arrives once, as an `assistant/message` in the log.
   */
  streaming?: { turnId: TurnId; text: string };
  /**
   * The panel a `show_task_surface` call is writing while its arguments stream: the part whole
   * enough to show, normalised (protocol/preview.ts). Transient (never logged), read-only: it
   * cannot be answered. Absent otherwise; the completed call opens the surface or is refused.
   */
  preview?: { turnId: TurnId; model: TaskSurfaceModelV1 };
  /**
   * `model`: the running turn's next model call waits for a slot (the Host's model-call limits,
   * docs/security.md): the turn's pending state. Absent otherwise.
   */
  waiting?: 'model';
}

export interface SessionSummary {
  sessionId: SessionId;
  title: string;
  lastSeq: number;
}
