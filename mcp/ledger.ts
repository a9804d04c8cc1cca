/*
 * The MCP server's memory of each panel. An MCP host's chat is not in our log, so every
 * `show_task_surface` call becomes a session of its own in the project's store, written with the
 * log's own event shapes: the call and its result (built by the Host's own tool), the person's
 * answer as the correlated `user/message` (through the Host's submit decision), a dismissal as
 * `task-surface/dismissed`, and the view's confirmation that the host took its `ui/message` as one
 * more tool call/result pair. Whether and how a panel closed is then the Host's fold, decided once.
 */
import { createHost } from '../host/createHost.js';
import type { QuotaOptions } from '../host/limits/options.js';
import { ConflictError } from '../host/store/postgres/writer.js';
import { isAsyncStore, type SessionLogStore } from '../host/store/types.js';
import { createShowTaskSurfaceTool } from '../host/taskSurface/tools.js';
import type { Host } from '../host/types.js';
import { isSystem, SYSTEM_PRINCIPAL, type Principal } from '../protocol/principal.js';
import {
  resolveLimits,
  SHOW_TASK_SURFACE,
  TaskSurfacePresentationMetaEnvelopeSchema,
  type JsonValue,
  type NormalizedTaskSurfaceModel,
  type SessionEvent,
  type SessionId,
  type TaskSurfaceDismissalId,
  type TaskSurfaceId,
  type TaskSurfaceLimits,
  type TaskSurfaceLimitsInput,
  type TaskSurfaceSubmissionId,
  type ToolMode,
} from '../protocol/index.js';
import { mintCallId, mintSessionId, mintTaskSurfaceId, mintTurnId } from '../protocol/mint.js';

import { ANSWER_TOOL, VIEW_TOOL } from './constants.js';

export { VIEW_TOOL };

/** What the view is told about its panel. */
export type PanelState =
  | { status: 'unknown' }
  | { status: 'open'; surfaceId: TaskSurfaceId; model: NormalizedTaskSurfaceModel }
  | {
      status: 'submitted';
      surfaceId: TaskSurfaceId;
      model: NormalizedTaskSurfaceModel;
      submissionId: TaskSurfaceSubmissionId;
      values: Record<string, JsonValue>;
      /** The user message's text: exactly what the view sends as `ui/message`. */
      text: string;
      /** Whether the answer reached the model: the host accepted its `ui/message`, or the model read it. */
      delivered: boolean;
      /** The channel that delivered it first (`sending`: a `ui/message` was under way, not confirmed). */
      channel: AnswerChannel;
    }
  | { status: 'dismissed'; surfaceId: TaskSurfaceId; model: NormalizedTaskSurfaceModel };

/** Which of the two channels carried an answer to the model first (see `channelOf`). */
export type AnswerChannel = 'message' | 'sending' | 'answer-tool' | null;

/** A step of an answer's delivery, recorded in the panel's log. */
export type DeliveryMark = 'sending' | 'delivered' | 'rejected' | 'answer-tool';

/**
 * The channel that delivered `submissionId` first, folded from its delivery marks in log order: the
 * view's `ui/message` (claimed while under way, released when the host rejects it) or the model's
 * own read through `task_surface_answer`. Whichever comes first wins; the other then reports it.
 */
function channelOf(events: readonly SessionEvent[], submissionId: string): AnswerChannel {
  let channel: AnswerChannel = null;
  let readWhileSending = false;
  for (const e of events) {
    if (e.type !== 'tool/call' || (e.name !== VIEW_TOOL && e.name !== ANSWER_TOOL)) continue;
    const args = typeof e.args === 'object' && e.args !== null && !Array.isArray(e.args) ? e.args : {};
    if (args['submissionId'] !== submissionId) continue;
    const mark = args['action'];
    if (mark === 'answer-tool') {
      if (channel === null) channel = 'answer-tool';
      else if (channel === 'sending') readWhileSending = true;
    } else if (mark === 'sending' && channel === null) channel = 'sending';
    else if (mark === 'delivered' && (channel === null || channel === 'sending')) channel = 'message';
    else if (mark === 'rejected' && channel === 'sending') channel = readWhileSending ? 'answer-tool' : null;
  }
  return channel;
}

const causeOf = (error: Error): unknown => (error.cause instanceof Error ? causeOf(error.cause) : error);

/** A shown panel: the tool result's parts. */
export type ShowOutcome =
  | { ok: true; viewId: SessionId; surfaceId: TaskSurfaceId; model: NormalizedTaskSurfaceModel; content: string }
  | { ok: false; content: string };

export interface PanelLedgerOptions {
  /**
   * Where panels are kept. A store several processes share (PostgreSQL) is read afresh for every
   * operation on a panel, so a panel shown or answered by another process is seen; two answers that
   * race are settled by the store's stated seq: one is written, the other reads the winner's.
   */
  store: SessionLogStore;
  limits?: TaskSurfaceLimitsInput;
  /** `code`: the tool is refused as the Host refuses a call from code. Default `native`. */
  toolMode?: ToolMode;
  /** A principal's panels count as its sessions and stored bytes (the Host's quotas; docs/security.md). */
  quotas?: QuotaOptions;
  /** Panels held in memory at once (older ones are read back from the store when asked). Default 256. */
  maxLoadedPanels?: number;
  /**
   * A store several processes share by file (SQLite opened `{ shared: true }`, mcp/sharedSqlite.ts):
   * runs each operation as one transaction of the file. The panel is then read afresh inside it, as
   * on PostgreSQL, and no other process writes until it ends.
   */
  exclusive?: <T>(run: () => Promise<T>) => Promise<T>;
}

export interface PanelLedger {
  readonly limits: TaskSurfaceLimits;
  /**
   * Runs the Host's own `show_task_surface` tool on `args`. A valid call with `record` opens a panel
   * the view can answer (without: the model is only checked and normalised, for the fallbacks).
   */
  show(args: unknown, origin: 'model' | 'code', options: { record: boolean; owner?: Principal }): Promise<ShowOutcome>;
  state(viewId: string): Promise<PanelState>;
  /** Records the answer (idempotent by submissionId); the panel's state after it, or why not. */
  submit(
    viewId: string,
    answer: { submissionId: TaskSurfaceSubmissionId; values: Record<string, JsonValue>; locale?: string; note?: string; by?: Principal },
  ): Promise<PanelState | { status: 'invalid'; reason: string }>;
  /** Whether `principal` may answer the panel (a panel shown with an `owner` is its owner's alone). */
  owns(viewId: string, principal: Principal): Promise<boolean>;
  /** Records that the host accepted the `ui/message` of this submission. */
  delivered(viewId: string, submissionId: TaskSurfaceSubmissionId): Promise<PanelState>;
  /** Records a step of the answer's delivery (see `channelOf`); the panel's state after it. */
  mark(viewId: string, submissionId: TaskSurfaceSubmissionId, mark: DeliveryMark): Promise<PanelState>;
  dismiss(viewId: string, dismissalId: TaskSurfaceDismissalId): Promise<PanelState>;
  close(): Promise<void>;
}

/** The ledger over `store` (the caller closes the store). */
export function createPanelLedger(options: PanelLedgerOptions): PanelLedger {
  const limits = resolveLimits(options.limits);
  const host: Host = createHost({
    store: options.store,
    limits,
    maxLoadedSessions: options.maxLoadedPanels ?? 256,
    ...(options.quotas ? { quotas: options.quotas } : {}),
    // A write another process made first (a race of two answers) is the expected end of that race.
    onError: (error) => void (causeOf(error) instanceof ConflictError || console.error(error)),
  });
  const tool = createShowTaskSurfaceTool({ limits, mintSurfaceId: () => mintTaskSurfaceId(), activeSurface: () => null });
  const toolMode = options.toolMode ?? 'native';

  const shown = (events: readonly SessionEvent[]) => {
    for (const event of events) {
      if (event.type !== 'tool/result' || event.name !== SHOW_TASK_SURFACE || !event.ok) continue;
      const meta = TaskSurfacePresentationMetaEnvelopeSchema.safeParse(event.meta);
      if (meta.success) return { surfaceId: meta.data.surfaceId, model: meta.data.model as NormalizedTaskSurfaceModel };
    }
    return null;
  };

  const shared = isAsyncStore(options.store) ? options.store : null;
  const { exclusive } = options;
  /** Whether other processes write the store too: every operation reads the panel afresh. */
  const fresh = shared !== null || exclusive !== undefined;
  /** Operations on one panel in this process, one at a time (each reads the panel afresh when shared). */
  const running = new Map<string, Promise<unknown>>();
  const serial = <T>(viewId: string, run: () => Promise<T>): Promise<T> => {
    if (!fresh) return run();
    const step = exclusive ? () => exclusive(run) : run;
    const next = (running.get(viewId) ?? Promise.resolve()).catch(() => undefined).then(step);
    running.set(viewId, next);
    const settled = () => void (running.get(viewId) === next && running.delete(viewId));
    next.then(settled, settled);
    return next;
  };
  /** A shared store: drops this process's copy and reads what is stored now (another process may have written). */
  const refresh = async (viewId: string): Promise<void> => {
    if (!fresh) return;
    const sessionId = viewId as SessionId;
    if (host.hasSession(sessionId)) host.unload(sessionId);
    await host
      .as(SYSTEM_PRINCIPAL)
      .load(sessionId)
      .catch(() => false);
  };
  /** A shared store: whether this process's writes to the panel are stored (false: another process wrote first). */
  const stored = async (viewId: string): Promise<boolean> => {
    if (!shared) return true;
    try {
      await shared.flush(viewId as SessionId);
      return true;
    } catch {
      await refresh(viewId);
      return false;
    }
  };

  const state = async (viewId: string): Promise<PanelState> => {
    const sessionId = viewId as SessionId;
    if (!host.hasSession(sessionId)) return { status: 'unknown' };
    const events = [...host.plugins.events(sessionId)];
    const panel = shown(events);
    if (!panel) return { status: 'unknown' };
    const outcome = await host.taskSurface.getOutcome({ sessionId, surfaceId: panel.surfaceId });
    if (outcome.status === 'dismissed') return { status: 'dismissed', ...panel };
    if (outcome.status !== 'submitted') return { status: 'open', ...panel };
    const message = events.find((e) => e.type === 'user/message' && e.messageId === outcome.messageId);
    const correlation = message?.type === 'user/message' ? message.source.taskSurface : undefined;
    if (message?.type !== 'user/message' || !correlation) return { status: 'open', ...panel };
    const channel = channelOf(events, correlation.submissionId);
    return {
      status: 'submitted',
      ...panel,
      submissionId: correlation.submissionId,
      values: outcome.values,
      text: message.text,
      delivered: channel === 'message' || channel === 'answer-tool',
      channel,
    };
  };

  const append = (sessionId: SessionId, name: string, args: JsonValue, result: { ok: boolean; content: string; meta?: JsonValue }) => {
    const callId = mintCallId();
    const turnId = mintTurnId();
    host.plugins.append(sessionId, { type: 'tool/call', callId, turnId, name, args, origin: 'model', agent: 'root' });
    host.plugins.append(sessionId, { type: 'tool/result', callId, turnId, name, ...result });
  };

  const mark = (viewId: string, submissionId: TaskSurfaceSubmissionId, step: DeliveryMark): Promise<PanelState> =>
    serial(viewId, async () => {
      await refresh(viewId);
      const now = await state(viewId);
      if (now.status !== 'submitted' || now.submissionId !== submissionId || now.delivered) return now;
      const name = step === 'answer-tool' ? ANSWER_TOOL : VIEW_TOOL;
      append(viewId as SessionId, name, { action: step, submissionId }, { ok: true, content: step });
      await stored(viewId);
      return state(viewId);
    });

  /** A shared store: a write refused because another process wrote first is that process's answer, read back. */
  const settled = async (viewId: string, error: unknown): Promise<PanelState> => {
    if (!shared) throw error;
    await refresh(viewId);
    const now = await state(viewId);
    if (now.status === 'open' || now.status === 'unknown') throw error;
    return now;
  };

  const submit: PanelLedger['submit'] = async (viewId, answer) => {
    await refresh(viewId);
    const before = await state(viewId);
    if (before.status !== 'open') return before;
    const sessionId = viewId as SessionId;
    const { by, ...given } = answer;
    let result;
    try {
      result = await (by ? host.as(by) : host).taskSurface.submit({ sessionId, surfaceId: before.surfaceId, ...given });
    } catch (error) {
      return settled(viewId, error);
    }
    if (!result.accepted && result.reason === 'invalid-submission') {
      return { status: 'invalid', reason: 'the values do not fit the panel' };
    }
    // The owner's limits (messages per minute, stored bytes): the limit's own sentence.
    if (!result.accepted && 'message' in result && typeof result.message === 'string') return { status: 'invalid', reason: result.message };
    await host.whenIdle(sessionId);
    await stored(viewId);
    return state(viewId);
  };

  const show: PanelLedger['show'] = async (args, origin, { record, owner }) => {
    let sessionId = mintSessionId();
    const callId = mintCallId();
    const turnId = mintTurnId();
    const ctx = { sessionId, callId, turnId, origin: toolMode === 'code' ? ('code' as const) : origin, agent: 'root' as const };
    const outcome = await tool.execute(args as JsonValue, { ...ctx, concludeTurn: () => undefined });
    if (!outcome.ok) return { ok: false, content: outcome.content };
    if (!record) {
      const checked = shown([{ type: 'tool/result', seq: 1, at: 0, callId, turnId, name: SHOW_TASK_SURFACE, ...outcome }])!;
      return { ok: true, viewId: sessionId, ...checked, content: outcome.content };
    }
    // A principal's panel is its session: counted against its sessions and stored bytes, and its alone.
    if (owner && !isSystem(owner)) {
      // A shared store: the owner's panels that other processes showed count too (one indexed query).
      await (shared as { fetchSessionsOf?(owner: string): Promise<unknown> } | null)?.fetchSessionsOf?.(owner.id);
      sessionId = host.as(owner).openSession({ title: SHOW_TASK_SURFACE });
    } else host.openSession({ sessionId, title: SHOW_TASK_SURFACE });
    host.plugins.append(sessionId, {
      type: 'tool/call',
      callId,
      turnId,
      name: SHOW_TASK_SURFACE,
      args: args as JsonValue,
      origin,
      agent: 'root',
    });
    host.plugins.append(sessionId, { type: 'tool/result', callId, turnId, name: SHOW_TASK_SURFACE, ...outcome });
    await shared?.flush(sessionId);
    const panel = shown([...host.plugins.events(sessionId)])!;
    return { ok: true, viewId: sessionId, ...panel, content: outcome.content };
  };

  return {
    limits,

    show: (args, origin, options) =>
      exclusive && options.record ? exclusive(() => show(args, origin, options)) : show(args, origin, options),

    state: (viewId) =>
      serial(viewId, async () => {
        await refresh(viewId);
        return state(viewId);
      }),

    submit: (viewId, answer) => serial(viewId, () => submit(viewId, answer)),

    delivered: (viewId, submissionId) => mark(viewId, submissionId, 'delivered'),

    mark,

    dismiss: (viewId, dismissalId) =>
      serial(viewId, async () => {
        await refresh(viewId);
        const now = await state(viewId);
        if (now.status !== 'open') return now;
        try {
          await host.taskSurface.dismiss({ sessionId: viewId as SessionId, surfaceId: now.surfaceId, dismissalId });
        } catch (error) {
          return settled(viewId, error);
        }
        return state(viewId);
      }),

    owns: (viewId, principal) =>
      serial(viewId, async () => {
        await refresh(viewId);
        const scoped = host.as(principal);
        const id = viewId as SessionId;
        return (await scoped.load(id).catch(() => false)) && scoped.access(id) === 'write';
      }),

    async close() {
      await host.dispose();
    },
  };
}
