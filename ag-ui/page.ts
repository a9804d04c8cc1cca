/*
 * The page side, framework-neutral: a `HostTransport` over an AG-UI agent (an `HttpAgent`, or the
 * agent CopilotKit's `useAgent` hands a page), so the Dock, the transcript row and the card work
 * unchanged. What is open comes from the agent's `task-surface` activity messages; a submission is
 * one user message carrying `metadata.taskSurface`, sent with the next run; a dismissal and a card's
 * act go to the adapter's own routes and start no run.
 */
import type { ActivityMessage, Message } from '@ag-ui/core';
import {
  mintMessageId,
  type ActResult,
  type CardDecision,
  type CardProposal,
  type CallId,
  type DismissTaskSurfaceResult,
  type MessageId,
  type NormalizedTaskSurfaceModel,
  type SessionId,
  type SessionListener,
  type SessionView,
  type SubmitTaskSurfaceResult,
  type TaskSurfaceId,
  type TaskSurfaceModelV1,
  type TaskSurfaceOutcome,
  type TaskSurfaceValues,
  type TurnId,
  formatSubmission,
} from '../protocol/index.js';
import { TransportError, type HostTransport } from '../transport/types.js';
import {
  CARD_ACTIVITY,
  PANEL_ACTIVITY,
  PREVIEW_ACTIVITY,
  type Activity,
  type CardActivityContent,
  type PanelActivityContent,
  type PreviewActivityContent,
} from './activity.js';
import { ANSWER_METADATA_KEY } from './input.js';
import type { AgUiActResponse, AgUiDismissResponse } from './routes.js';

/** What the transport needs of an AG-UI agent (`AbstractAgent` has it all). */
export interface AgUiAgentLike {
  threadId: string;
  messages: Message[];
  isRunning: boolean;
  addMessage(message: Message): void;
  setMessages(messages: Message[]): void;
  subscribe(subscriber: {
    onMessagesChanged?(): void;
    onRunFinalized?(): void;
    onRunErrorEvent?(params: { event: { code?: string; message: string }; input?: { messages: readonly { id: string }[] } }): void;
  }): { unsubscribe(): void };
}

export interface AgUiTaskSurfaceOptions {
  /** Starts a run with the agent's messages (default: none; CopilotKit pages pass `copilotkit.runAgent`). */
  run(): Promise<unknown>;
  /** Posts a dismissal to the adapter's `dismiss` route and returns its answer. */
  dismiss(request: { threadId: string; surfaceId: string; dismissalId: string }): Promise<AgUiDismissResponse>;
  /** Posts a card's act to the adapter's `act` route and returns its answer. */
  act(request: { threadId: string; callId: string; verb: string; payload?: unknown }): Promise<AgUiActResponse>;
  /** The language the page writes a submission's text in (the Host writes its own from the values). Default `en`. */
  locale?: string;
}

/** The adapter: hand `transport` and `sessionId` to the elements. */
export interface AgUiTaskSurface {
  readonly transport: HostTransport;
  readonly sessionId: SessionId;
  dispose(): void;
}

const activities = <C>(messages: readonly Message[], type: string) =>
  messages.filter((m): m is ActivityMessage => m.role === 'activity' && m.activityType === type).map((m) => m.content as C);

/** The agent's messages with `updates` applied: each activity's content replaced, or added. */
export function withActivities(messages: readonly Message[], updates: readonly Activity[]): Message[] {
  const next = [...messages];
  for (const { messageId, activityType, content } of updates) {
    const message: ActivityMessage = {
      id: messageId,
      role: 'activity',
      activityType,
      content: content as unknown as Record<string, unknown>,
    };
    const at = next.findIndex((m) => m.id === messageId);
    if (at >= 0) next[at] = message;
    else next.push(message);
  }
  return next;
}

/** A user message's panel answer, if it carries one. */
const answerOf = (message: Message) =>
  (message.metadata as Record<string, { submissionId?: string } | undefined> | undefined)?.[ANSWER_METADATA_KEY];

/** The submission's text as the person reads it in the page (the Host writes the model's own from the values). */
function answerText(model: unknown, values: TaskSurfaceValues, note: string | undefined, locale: string): string {
  try {
    return formatSubmission(model as NormalizedTaskSurfaceModel, values, note, { locale });
  } catch {
    return (model as { title?: string }).title ?? 'Submitted';
  }
}

/** Creates the transport for one AG-UI agent (one thread). */
export function createAgUiTaskSurface(agent: AgUiAgentLike, options: AgUiTaskSurfaceOptions): AgUiTaskSurface {
  const sessionId = agent.threadId as SessionId;
  const listeners = new Set<SessionListener>();
  const locale = options.locale ?? 'en';
  /** Submissions whose run is in flight, by submissionId: a double click sends one message. */
  const inFlight = new Map<string, { surfaceId: string; messageId: string; done: Promise<SubmitTaskSurfaceResult> }>();
  /** Each refused run's code, by the id of the message it carried last (runs may overlap: a reload's, a person's). */
  const refusals = new Map<string, string>();
  let seq = 0;
  let disposed = false;

  const panels = () => activities<PanelActivityContent>(agent.messages, PANEL_ACTIVITY);
  const open = () => panels().findLast((p) => p.status === 'open' || p.status === 'pending') ?? null;
  const view = (): SessionView => {
    const shown = open();
    const sent = shown ? [...inFlight.entries()].find(([, s]) => s.surfaceId === shown.surfaceId) : undefined;
    const pending = shown?.pending ?? (sent ? { submissionId: sent[0], messageId: sent[1].messageId, phase: 'queued' as const } : null);
    const cards = activities<CardActivityContent>(agent.messages, CARD_ACTIVITY);
    const decisions: Record<string, CardDecision> = {};
    for (const card of cards) if (card.decision) decisions[card.callId] = card.decision;
    const preview = activities<PreviewActivityContent>(agent.messages, PREVIEW_ACTIVITY).at(-1);
    return {
      ...(preview?.model && preview.turnId
        ? { preview: { turnId: preview.turnId as TurnId, model: preview.model as unknown as TaskSurfaceModelV1 } }
        : {}),
      sessionId,
      lastSeq: seq,
      readOnly: false,
      turn: agent.isRunning ? 'running' : 'idle',
      taskSurface: {
        active: shown && { callId: shown.callId as CallId, surfaceId: shown.surfaceId as TaskSurfaceId, pending: pending as never },
      },
      queue: [],
      actionCards: { proposals: cards.map((c): CardProposal => c.proposal), decisions },
    };
  };
  let last = '';
  const publish = () => {
    const next = view();
    const key = JSON.stringify({ ...next, lastSeq: 0 });
    if (key === last) return;
    last = key;
    seq++;
    for (const listener of [...listeners]) listener({ ...next, lastSeq: seq });
  };
  const subscription = agent.subscribe({
    onMessagesChanged: publish,
    onRunFinalized: publish,
    onRunErrorEvent: ({ event, input }) => {
      const last = input?.messages.at(-1)?.id;
      if (last !== undefined) refusals.set(last, event.code ?? 'failed');
    },
  });
  const live = () => {
    if (disposed) throw new TransportError('disposed', 'the Task Surface adapter of this agent is disposed');
  };
  const own = (id: string) => {
    if (id !== sessionId) throw new TransportError('unknown-session', `this adapter serves thread ${sessionId}, not ${id}`);
  };
  /** Sends `message` with a run; the run's refusal code, or null. The message is taken out again when refused. */
  const send = async (message: Message): Promise<string | null> => {
    agent.addMessage(message);
    publish();
    let failed: string | null = null;
    try {
      await options.run();
    } catch (error) {
      failed = refusals.get(message.id) ?? (error instanceof Error ? error.message : 'failed');
    }
    failed ??= refusals.get(message.id) ?? null;
    refusals.delete(message.id);
    if (failed !== null) agent.setMessages(agent.messages.filter((m) => m.id !== message.id));
    return failed;
  };
  const apply = (updates: readonly Activity[]) => {
    agent.setMessages(withActivities(agent.messages, updates));
    publish();
  };

  const transport: HostTransport = {
    watchSession(id, listener) {
      live();
      own(id);
      listeners.add(listener);
      listener({ ...view(), lastSeq: seq });
      return () => void listeners.delete(listener);
    },
    readLog: () => Promise.reject(new TransportError('bad-request', "an AG-UI thread's transcript is the agent's messages")),
    taskSurface: {
      async getActive({ sessionId: id, surfaceId }) {
        live();
        own(id);
        const shown = open();
        if (!shown || shown.surfaceId !== surfaceId) return { active: false, reason: 'not-open' };
        const pending = view().taskSurface.active?.pending ?? null;
        const model = shown.model as unknown as TaskSurfaceModelV1;
        return { active: true, callId: shown.callId as CallId, surfaceId: surfaceId, model, pending };
      },
      async getOutcome({ sessionId: id, surfaceId }): Promise<TaskSurfaceOutcome> {
        own(id);
        const panel = panels().find((p) => p.surfaceId === surfaceId);
        if (!panel) return { status: 'unknown' };
        const callId = panel.callId as CallId;
        if (panel.status === 'open' || panel.status === 'pending')
          return { status: 'open', callId, pending: (panel.pending as never) ?? null };
        if (panel.status === 'submitted') return { status: 'submitted', callId, seq: 0, messageId: '' as never, values: {} };
        return { status: panel.status, callId, seq: 0 };
      },
      async submit({ sessionId: id, surfaceId, submissionId, values, note, locale: asked }) {
        live();
        own(id);
        const already = inFlight.get(submissionId);
        if (already) return already.done;
        // Already in the thread (the first answer of a retry): the Host has it, nothing is sent again.
        const first = agent.messages.find((m) => m.role === 'user' && answerOf(m)?.submissionId === submissionId);
        if (first) return { accepted: true, messageId: first.id as MessageId, phase: 'queued' };
        // Whether the panel is still open, stale or answered is the Host's to say, in the run.
        const shown = panels().find((p) => p.surfaceId === surfaceId);
        const messageId = mintMessageId();
        const answer = { surfaceId, submissionId, values, ...(note === undefined ? {} : { note }), locale: asked ?? locale };
        const text = answerText(shown?.model ?? {}, values as TaskSurfaceValues, note, asked ?? locale);
        const message = { id: messageId, role: 'user', content: text, metadata: { [ANSWER_METADATA_KEY]: answer } } as Message;
        const done = (async (): Promise<SubmitTaskSurfaceResult> => {
          const refused = await send(message);
          inFlight.delete(submissionId);
          publish();
          return refused === null ? { accepted: true, messageId, phase: 'queued' } : { accepted: false, reason: refused as never };
        })();
        inFlight.set(submissionId, { surfaceId, messageId, done });
        publish();
        return done;
      },
      async dismiss({ sessionId: id, surfaceId, dismissalId }): Promise<DismissTaskSurfaceResult> {
        live();
        own(id);
        const answer = await options.dismiss({ threadId: sessionId, surfaceId, dismissalId });
        apply(answer.activities);
        return answer.result;
      },
    },
    session: {
      async send({ sessionId: id, messageId, text }) {
        live();
        own(id);
        const refused = await send({ id: messageId, role: 'user', content: text });
        return refused === null ? { accepted: true, messageId, itemId: messageId as never } : { accepted: false, reason: refused as never };
      },
      updateQueue: async () => ({ ok: false, reason: 'queue-item-not-found' }),
    },
    actionCards: {
      async act({ sessionId: id, callId, verb, payload }): Promise<ActResult> {
        live();
        own(id);
        const answer = await options.act({ threadId: sessionId, callId, verb, ...(payload === undefined ? {} : { payload }) });
        apply(answer.activities);
        return answer.result;
      },
    },
    dispose() {
      disposed = true;
      listeners.clear();
      subscription.unsubscribe();
    },
  };
  return { transport, sessionId, dispose: () => transport.dispose() };
}
