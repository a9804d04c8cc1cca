/*
 * An AI SDK app's `UIMessage[]` read as the session log's events, so the Host's pure fold and
 * decisions run on them unchanged. Only what the Task Surface needs is mapped: user messages (with
 * their `metadata.taskSurface` correlation), `show_task_surface` tool parts, and dismissal data parts.
 */
import type { UIMessage } from 'ai';
import * as z from 'zod/mini';
import { cardPartEvents, isOkOutput, toolPartOf, type ToolPart } from './cardMessages.js';
import {
  JsonValueSchema,
  SHOW_TASK_SURFACE,
  TaskSurfaceIdSchema,
  TaskSurfaceSubmissionIdSchema,
  TaskSurfaceDismissalIdSchema,
  type CallId,
  type MessageId,
  type RpcId,
  type SessionEvent,
  type TurnId,
} from '../protocol/index.js';

/** The data part a dismissal adds to the conversation's last assistant message. */
export const TASK_SURFACE_DISMISSAL_PART = 'data-task-surface-dismissal';

/** What `metadata.taskSurface` of a submission's user message holds. */
export const TaskSurfaceSubmissionMetadataSchema = z.strictObject({
  version: z.literal(1),
  submissionId: TaskSurfaceSubmissionIdSchema,
  /** The tool call's id as the AI SDK gave it (any non-empty string). */
  callId: z.string().check(z.minLength(1), z.maxLength(256)),
  surfaceId: TaskSurfaceIdSchema,
  values: z.record(z.string(), JsonValueSchema),
  note: z.optional(z.string()),
});
export type TaskSurfaceSubmissionMetadata = z.infer<typeof TaskSurfaceSubmissionMetadataSchema>;

/** The `data` of a dismissal part. */
export const TaskSurfaceDismissalDataSchema = z.strictObject({
  dismissalId: TaskSurfaceDismissalIdSchema,
  callId: z.string().check(z.minLength(1), z.maxLength(256)),
  surfaceId: TaskSurfaceIdSchema,
});
export type TaskSurfaceDismissalData = z.infer<typeof TaskSurfaceDismissalDataSchema>;

/** A message's correlation, when its metadata carries a well-formed one (anything else: an ordinary message). */
export function submissionMetadataOf(message: UIMessage): TaskSurfaceSubmissionMetadata | null {
  const metadata: unknown = message.metadata;
  if (typeof metadata !== 'object' || metadata === null || !('taskSurface' in metadata)) return null;
  const parsed = TaskSurfaceSubmissionMetadataSchema.safeParse(metadata.taskSurface);
  return parsed.success ? parsed.data : null;
}

/** A `show_task_surface` call in a message part: static (`tool-show_task_surface`) or dynamic. */
export type ShowPart = ToolPart;

/** The part as a show_task_surface call, or null. */
export function showPartOf(part: UIMessage['parts'][number]): ShowPart | null {
  return toolPartOf(part, SHOW_TASK_SURFACE);
}

/** Where each mapped event came from: the message's index and id. */
export interface MappedEvents {
  events: SessionEvent[];
  /** By seq (1-based): the message that event came from. */
  messageOf: string[];
  /** By seq: the decisionId of an `action-cards/decision` event. */
  decisionOf: Map<number, string>;
}
const RPC = 'ai-sdk' as RpcId;

/**
 * The messages as session-log events, in order, numbered from 1: a user message is `user/message`
 * (correlated when its metadata says so); a show_task_surface part with an output is a `tool/call`
 * and its `tool/result` (ok when the output is the tool's success); a dismissal part is
 * `task-surface/dismissed`; card parts as `cardPartEvents` maps them. Each assistant message is
 * one turn (its id the turnId). Malformed items are skipped; nothing throws.
 */
export function taskSurfaceEvents(messages: readonly UIMessage[]): MappedEvents {
  const events: SessionEvent[] = [];
  const messageOf: string[] = [''];
  const decisionOf = new Map<number, string>();
  const push = (message: UIMessage, event: DistributiveOmit<SessionEvent, 'seq' | 'at'>) => {
    events.push({ ...event, seq: events.length + 1, at: 0 } as SessionEvent);
    messageOf.push(message.id);
  };
  for (const message of Array.isArray(messages) ? messages : []) {
    if (typeof message !== 'object' || message === null || !Array.isArray(message.parts)) continue;
    if (message.role === 'user') {
      const correlation = submissionMetadataOf(message);
      const taskSurface = correlation && {
        version: 1 as const,
        submissionId: correlation.submissionId,
        callId: correlation.callId as CallId,
        surfaceId: correlation.surfaceId,
        values: correlation.values,
      };
      const text = message.parts.map((p: { type?: unknown; text?: unknown }) => (p?.type === 'text' ? String(p.text) : '')).join('');
      const source = taskSurface ? { kind: 'user' as const, rpcId: RPC, taskSurface } : { kind: 'user' as const, rpcId: RPC };
      push(message, { type: 'user/message', messageId: message.id as MessageId, text, source });
      continue;
    }
    if (message.role !== 'assistant') continue;
    const turnId = String(message.id) as TurnId;
    for (const part of message.parts) {
      if (typeof part !== 'object' || part === null) continue;
      const cards = cardPartEvents(part, turnId);
      for (const event of cards.events) push(message, event);
      if (cards.decisionId !== undefined) decisionOf.set(events.length, cards.decisionId);
      const show = showPartOf(part);
      if (show) {
        if (show.state !== 'output-available' && show.state !== 'output-error') continue;
        const callId = String(show.toolCallId) as CallId;
        const ok = show.state === 'output-available' && isShown(show.output);
        push(message, {
          type: 'tool/call',
          callId,
          turnId,
          name: SHOW_TASK_SURFACE,
          args: null,
          origin: 'model',
          agent: 'root',
        });
        push(message, {
          type: 'tool/result',
          callId,
          turnId,
          name: SHOW_TASK_SURFACE,
          ok,
          content: '',
          ...(ok ? { meta: show.output as never } : {}),
        });
      } else if (part.type === TASK_SURFACE_DISMISSAL_PART) {
        const data = TaskSurfaceDismissalDataSchema.safeParse((part as { data?: unknown }).data);
        if (!data.success) continue;
        push(message, { type: 'task-surface/dismissed', ...data.data, callId: data.data.callId as CallId });
      }
    }
  }
  return { events, messageOf, decisionOf };
}

/** The tool's success output: `ok: true` (the presentation meta beside it is checked by the fold). */
export const isShown = isOkOutput;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
