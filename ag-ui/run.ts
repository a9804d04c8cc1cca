/*
 * One AG-UI run over the Host: the person's write goes through the Host's own decisions (a panel's
 * answer through `taskSurface.submit`, an ordinary message through `session.send`, both idempotent
 * by their ids, so a retried or doubled run adds nothing), then the log's new events stream out as
 * the standard events (text messages, tool calls and results), and the panels and cards as
 * activities, until the Host has nothing left to do for the thread.
 *
 * Browser-safe (no Node module); the events are plain objects an encoder writes.
 */
import { EventType, type BaseEvent, type Message, type RunAgentInput } from '@ag-ui/core';
import { foldTaskSurface, foldTaskSurfaceEvent, type TaskSurfaceFold } from '../host/taskSurface/projection.js';
import {
  SHOW_TASK_SURFACE,
  mintRpcId,
  type HostApi,
  type JsonValue,
  type SessionEvent,
  type SessionId,
  type SessionView,
} from '../protocol/index.js';
import { activitiesOf, contentPatch, previewActivityId, type Activity, type SurfaceRecord } from './activity.js';
import { ANSWER_METADATA_KEY, AgUiInputError, parseRunInput, type RunRequest } from './input.js';

/** What the adapter needs of a Host: the client-facing API (`host`, or `host.as(principal)` for a door). */
export type AgUiHost = Pick<HostApi, 'taskSurface' | 'session' | 'actionCards' | 'load' | 'getView' | 'watchSession' | 'readLog'>;

/** Every event of the session's effective log, oldest first, after `afterSeq`. */
export async function readLogAfter(host: AgUiHost, sessionId: SessionId, afterSeq: number): Promise<SessionEvent[]> {
  const events: SessionEvent[] = [];
  let before: number | undefined;
  for (;;) {
    const page = await host.readLog(sessionId, before === undefined ? { limit: 200 } : { before, limit: 200 });
    const fresh = page.events.filter((e) => e.seq > afterSeq);
    events.unshift(...fresh);
    if (!page.hasMore || page.events.length === 0 || fresh.length < page.events.length) return events;
    before = page.events[0]!.seq;
  }
}

/** The surfaces a session showed, with their models and how the fold says each closed. */
export class SurfaceRecords {
  readonly fold: TaskSurfaceFold = foldTaskSurface([]);
  private readonly shown = new Map<string, { callId: string; model: JsonValue }>();
  lastSeq = 0;

  add(event: SessionEvent): void {
    this.lastSeq = event.seq;
    foldTaskSurfaceEvent(this.fold, event);
    if (event.type !== 'tool/result' || event.name !== SHOW_TASK_SURFACE || !event.ok) return;
    const meta = event.meta as { kind?: unknown; surfaceId?: unknown; model?: JsonValue } | undefined;
    if (meta?.kind === 'task-surface' && typeof meta.surfaceId === 'string') {
      this.shown.set(meta.surfaceId, { callId: event.callId, model: meta.model ?? null });
    }
  }

  /** Whether the call opened a panel (its result is the person's to give, in a later run). */
  opened(callId: string): boolean {
    return [...this.shown.values()].some((s) => s.callId === callId);
  }

  records(): SurfaceRecord[] {
    return [...this.shown].map(([surfaceId, { callId, model }]) => ({
      surfaceId,
      callId,
      model,
      closed: this.fold.active?.surfaceId === surfaceId ? null : (this.fold.outcomes.get(surfaceId as never)?.status ?? null),
    }));
  }
}

/** The standard events one log event stands for (a panel's show leaves its call pending: no result). */
export function eventsOf(event: SessionEvent, records: SurfaceRecords): BaseEvent[] {
  if (event.type === 'assistant/message') {
    if (event.text === '') return [];
    return [
      { type: EventType.TEXT_MESSAGE_START, messageId: event.messageId, role: 'assistant' },
      { type: EventType.TEXT_MESSAGE_CONTENT, messageId: event.messageId, delta: event.text },
      { type: EventType.TEXT_MESSAGE_END, messageId: event.messageId },
    ] as BaseEvent[];
  }
  if (event.type === 'tool/call') {
    return [
      { type: EventType.TOOL_CALL_START, toolCallId: event.callId, toolCallName: event.name },
      { type: EventType.TOOL_CALL_ARGS, toolCallId: event.callId, delta: JSON.stringify(event.args) },
      { type: EventType.TOOL_CALL_END, toolCallId: event.callId },
    ] as BaseEvent[];
  }
  if (event.type === 'tool/result' && !records.opened(event.callId)) {
    const result = {
      type: EventType.TOOL_CALL_RESULT,
      messageId: `result:${event.callId}`,
      toolCallId: event.callId,
      content: event.content,
      role: 'tool',
    };
    return [result as BaseEvent];
  }
  return [];
}

/** The thread's user and assistant messages as AG-UI messages (a panel's answer with its correlation). */
export function transcriptOf(events: readonly SessionEvent[]): Message[] {
  return events.flatMap((event): Message[] => {
    if (event.type === 'assistant/message' && event.text !== '') return [{ id: event.messageId, role: 'assistant', content: event.text }];
    if (event.type !== 'user/message') return [];
    const answer = event.source.taskSurface;
    const metadata = answer && {
      [ANSWER_METADATA_KEY]: { surfaceId: answer.surfaceId, submissionId: answer.submissionId, values: answer.values },
    };
    return [{ id: event.messageId, role: 'user', content: event.text, ...(metadata ? { metadata } : {}) } as Message];
  });
}

/** The client's activity messages, by id (what a delta is computed from). */
function clientActivities(input: RunAgentInput): Map<string, Record<string, unknown>> {
  const known = new Map<string, Record<string, unknown>>();
  for (const message of input.messages) {
    if (message.role === 'activity' && message.content && typeof message.content === 'object') {
      known.set(message.id, message.content as Record<string, unknown>);
    }
  }
  return known;
}

/** The events that bring `known` (updated in place) to `current`: a snapshot for a new activity, a delta for a changed one. */
export function activityEvents(known: Map<string, Record<string, unknown>>, current: readonly Activity[]): BaseEvent[] {
  const out: BaseEvent[] = [];
  for (const { messageId, activityType, content } of current) {
    const next = content as unknown as Record<string, unknown>;
    const before = known.get(messageId);
    if (!before) {
      out.push({ type: EventType.ACTIVITY_SNAPSHOT, messageId, activityType, content: next } as BaseEvent);
    } else {
      const patch = contentPatch(before, next);
      if (patch.length > 0) out.push({ type: EventType.ACTIVITY_DELTA, messageId, activityType, patch } as BaseEvent);
    }
    known.set(messageId, structuredClone(next));
  }
  return out;
}

/** Nothing left to do for the thread: no turn, no row waiting, no submission pending. */
const settled = (view: SessionView) => view.turn === 'idle' && view.queue.length === 0 && !view.taskSurface.active?.pending;

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** How runs are answered. */
export interface AgUiRunOptions {
  /**
   * Name the panel's call in `RUN_FINISHED`'s `outcome.pendingToolCallIds` (AG-UI 1.1). Default
   * true; false for a client from before 1.1 whose schema refuses the key (CopilotKit 1.74 bundles
   * @ag-ui/client 0.0.59, which fails the run on it): the call is then still left without a result.
   */
  pendingToolCallIds?: boolean;
}

/** A run whose input was checked and whose thread was found: its events, in order. */
export interface AgUiRun {
  readonly request: RunRequest;
  events(): AsyncGenerator<BaseEvent>;
}

/**
 * Checks a run's input and finds its thread (the Host session whose id is the `threadId`); throws
 * `AgUiInputError` before anything is written. The returned run writes and streams when iterated.
 */
export async function startRun(host: AgUiHost, body: unknown, options: AgUiRunOptions = {}): Promise<AgUiRun> {
  const request = parseRunInput(body);
  const found = await host.load(request.sessionId).catch(() => false);
  if (!found) throw new AgUiInputError('unknown-thread', `unknown thread ${request.sessionId}: the app opens a session for it first`);
  return { request, events: () => runEvents(host, request, options.pendingToolCallIds ?? true) };
}

async function* runEvents(host: AgUiHost, request: RunRequest, namePending: boolean): AsyncGenerator<BaseEvent> {
  const { threadId, runId } = request.input;
  yield { type: EventType.RUN_STARTED, threadId, runId } as BaseEvent;
  try {
    yield* runBody(host, request, namePending);
  } catch (error) {
    // The Host failed (its store, a bug): the run ends as an error, never as a cut stream.
    const message = error instanceof Error ? error.message : String(error);
    yield { type: EventType.RUN_ERROR, message: `the run failed: ${message}`, code: 'server-error' } as BaseEvent;
  }
}

async function* runBody(host: AgUiHost, { input, sessionId, write }: RunRequest, namePending: boolean): AsyncGenerator<BaseEvent> {
  const { threadId, runId } = input;
  const records = new SurfaceRecords();
  const history = await readLogAfter(host, sessionId, 0);
  for (const event of history) records.add(event);
  // A client with no messages (a page just loaded): the thread's transcript first.
  if (input.messages.length === 0 && history.length > 0) {
    yield { type: EventType.MESSAGES_SNAPSHOT, messages: transcriptOf(history) } as BaseEvent;
  }
  const known = clientActivities(input);
  yield* activityEvents(known, activitiesOf(records.records(), host.getView(sessionId), known.has(previewActivityId(sessionId))));

  const refused = await writeOf(host, sessionId, write);
  if (refused) {
    yield { type: EventType.RUN_ERROR, message: refused.message, code: refused.reason } as BaseEvent;
    return;
  }
  /** Calls this run started: only those can be left pending (AG-UI 1.1's `pendingToolCallIds`). */
  const started = new Set<string>();
  let wake = () => {};
  let changed = true;
  const stop = host.watchSession(sessionId, () => {
    changed = true;
    wake();
  });
  try {
    for (;;) {
      if (!changed) await new Promise<void>((resolve) => (wake = resolve));
      changed = false;
      for (const event of await readLogAfter(host, sessionId, records.lastSeq)) {
        records.add(event);
        if (event.type === 'tool/call') started.add(event.callId);
        yield* eventsOf(event, records);
      }
      const view = host.getView(sessionId);
      yield* activityEvents(known, activitiesOf(records.records(), view, known.has(previewActivityId(sessionId))));
      if (settled(view)) {
        await tick();
        if (!changed && settled(host.getView(sessionId))) break;
      }
    }
  } finally {
    stop();
  }
  const open = records.fold.active;
  const pendingToolCallIds = open && namePending && started.has(open.callId) ? [open.callId] : [];
  yield {
    type: EventType.RUN_FINISHED,
    threadId,
    runId,
    outcome: { type: 'success', ...(pendingToolCallIds.length > 0 ? { pendingToolCallIds } : {}) },
  } as BaseEvent;
}

/** Writes the person's message through the Host's decision; the refusal, if any. */
async function writeOf(
  host: AgUiHost,
  sessionId: SessionId,
  write: RunRequest['write'],
): Promise<{ reason: string; message: string } | null> {
  if (write.kind === 'none') return null;
  if (write.kind === 'answer') {
    const { answer } = write;
    const result = await host.taskSurface.submit({
      sessionId,
      surfaceId: answer.surfaceId,
      submissionId: answer.submissionId,
      values: answer.values,
      ...(answer.note === undefined ? {} : { note: answer.note }),
      ...(answer.locale === undefined ? {} : { locale: answer.locale }),
    });
    return result.accepted ? null : { reason: result.reason, message: `the panel's answer was refused: ${result.reason}` };
  }
  const result = await host.session.send({ sessionId, messageId: write.messageId, rpcId: mintRpcId(), text: write.text });
  return result.accepted ? null : { reason: result.reason, message: `the message was refused: ${result.reason}` };
}
