import type { ActionCardsView } from './actionCards.js';
import type { SessionId } from './ids.js';
import type { QueuedMessage } from './message.js';
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
}

export interface SessionSummary {
  sessionId: SessionId;
  title: string;
  lastSeq: number;
}
