/*
 * A run's input, checked once at the edge: the AG-UI `RunAgentInput` (its own schema), the thread
 * as a Host session, and what the person sent, which is the input's last message when it is a user
 * message: a panel's answer when its `metadata.taskSurface` carries the correlation, else an
 * ordinary message. Earlier messages are the client's copy of the conversation; the Host's log is
 * the record, so they are not read again.
 *
 * Browser-safe.
 */
import * as z from 'zod/mini';
import { RunAgentInputSchema } from '@ag-ui/core/schemas';
import type { RunAgentInput } from '@ag-ui/core';
import {
  JsonValueSchema,
  MessageIdSchema,
  SessionIdSchema,
  TaskSurfaceIdSchema,
  TaskSurfaceSubmissionIdSchema,
  describeIssues,
  type JsonValue,
  type MessageId,
  type SessionId,
  type TaskSurfaceId,
  type TaskSurfaceSubmissionId,
} from '../protocol/index.js';
import { LocaleTagSchema } from '../protocol/localeSchema.js';

/** The key of a user message's `metadata` that carries a panel's answer. */
export const ANSWER_METADATA_KEY = 'taskSurface';

/** A panel's answer, as a user message's `metadata.taskSurface` carries it. */
export const TaskSurfaceAnswerSchema = z.strictObject({
  surfaceId: TaskSurfaceIdSchema,
  submissionId: TaskSurfaceSubmissionIdSchema,
  values: z.record(z.string(), JsonValueSchema),
  note: z.optional(z.string()),
  locale: z.optional(LocaleTagSchema),
});
export interface TaskSurfaceAnswer {
  surfaceId: TaskSurfaceId;
  submissionId: TaskSurfaceSubmissionId;
  values: Record<string, JsonValue>;
  note?: string;
  locale?: string;
}

/** Why a run's input was refused before anything was written (an HTTP route answers 400). */
export type AgUiInputReason = 'invalid-input' | 'invalid-thread' | 'unknown-thread' | 'invalid-answer' | 'empty-message';

/** A run's input the adapter cannot take: nothing was written. */
export class AgUiInputError extends Error {
  override name = 'AgUiInputError';
  constructor(
    readonly reason: AgUiInputReason,
    message: string,
  ) {
    super(message);
  }
}

/** What the person sent with one run. */
export type RunWrite =
  | { kind: 'answer'; messageId: MessageId; answer: TaskSurfaceAnswer }
  | { kind: 'message'; messageId: MessageId; text: string }
  /** No new user message (a reconnect after a reload, a run a tool result started): nothing to write. */
  | { kind: 'none' };

/** A run's input, checked. */
export interface RunRequest {
  input: RunAgentInput;
  sessionId: SessionId;
  write: RunWrite;
}

const textOf = (content: unknown): string => {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: { type?: string; text?: unknown }) => (part.type === 'text' && typeof part.text === 'string' ? part.text : ''))
    .join('');
};

/** Checks a run's input; throws `AgUiInputError` with a specific reason. */
export function parseRunInput(body: unknown): RunRequest {
  const parsed = RunAgentInputSchema.safeParse(body);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(input)'}: ${i.message}`).join('; ');
    throw new AgUiInputError('invalid-input', `not an AG-UI RunAgentInput: ${issues}`);
  }
  const input = parsed.data as RunAgentInput;
  const thread = SessionIdSchema.safeParse(input.threadId);
  if (!thread.success) throw new AgUiInputError('invalid-thread', `threadId: ${describeIssues(thread.error.issues)}`);
  const last = input.messages.at(-1);
  if (!last || last.role !== 'user') return { input, sessionId: thread.data, write: { kind: 'none' } };
  const id = MessageIdSchema.safeParse(last.id);
  if (!id.success) throw new AgUiInputError('invalid-input', `the user message's id: ${describeIssues(id.error.issues)}`);
  const carried = (last.metadata as Record<string, unknown> | undefined)?.[ANSWER_METADATA_KEY];
  if (carried !== undefined) {
    const answer = TaskSurfaceAnswerSchema.safeParse(carried);
    if (!answer.success) {
      throw new AgUiInputError('invalid-answer', `metadata.${ANSWER_METADATA_KEY}: ${describeIssues(answer.error.issues)}`);
    }
    return { input, sessionId: thread.data, write: { kind: 'answer', messageId: id.data, answer: answer.data as TaskSurfaceAnswer } };
  }
  const text = textOf(last.content);
  if (text.trim() === '') throw new AgUiInputError('empty-message', "the user message has no text (the Host's messages are text)");
  return { input, sessionId: thread.data, write: { kind: 'message', messageId: id.data, text } };
}
