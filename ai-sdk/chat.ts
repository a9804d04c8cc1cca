/*
 * The page side, framework-neutral: a `HostTransport` over an AI SDK chat, so the Dock and the
 * transcript row work unchanged. What is open comes from the fold of the chat's messages; a
 * submission is one `chat.sendMessage`; a dismissal changes the messages and starts no request.
 */
import type { UIMessage } from 'ai';
import {
  mintMessageId,
  type ActResult,
  type DismissTaskSurfaceResult,
  type SessionId,
  type SessionListener,
  type SessionView,
  type SubmitTaskSurfaceResult,
  type TaskSurfacePendingSubmission,
} from '../protocol/index.js';
import { TransportError, type HostTransport } from '../transport/types.js';
import { withDecision, type ActionCardActRequest } from './act.js';
import type { ActionCardDecisionPart } from './cardMessages.js';
import { foldActionCards } from './cards.js';
import { dismissTaskSurface, taskSurfaceSubmissionMessage } from './checks.js';
import { foldTaskSurface } from './fold.js';
import { showPartOf, taskSurfaceEvents } from './messages.js';
import { parseShowTaskSurfaceArgs } from '../protocol/parse.js';
import { previewTaskSurfaceModel } from '../protocol/preview.js';

/**
 * The panel the reply streaming now is writing: its last `show_task_surface` part while its input
 * streams (`input-streaming`, healed by the AI SDK's own partial JSON parser), or once whole while
 * the reply goes on (the panel opens when the reply ends). Nothing for a refused call, or when the
 * reply is over, or while an earlier panel is open (the call will be refused).
 */
function previewOf(messages: readonly UIMessage[], openCallId: string | undefined): NonNullable<SessionView['preview']> | undefined {
  const last = messages.at(-1);
  const show = last?.role === 'assistant' ? last.parts.map(showPartOf).findLast((p) => p !== null) : undefined;
  if (!show || (openCallId !== undefined && show.toolCallId !== openCallId)) return undefined;
  const output = show.output as { ok?: unknown } | undefined;
  const whole = show.state === 'input-available' || (show.state === 'output-available' && output?.ok === true);
  const parsed = whole ? parseShowTaskSurfaceArgs(show.input) : null;
  const model = show.state === 'input-streaming' ? previewTaskSurfaceModel(show.input) : parsed?.ok ? parsed.model : null;
  return model ? { turnId: last!.id as never, model } : undefined;
}

/** What the adapter needs of `useChat`'s helpers (or of an AI SDK `Chat`). */
export interface TaskSurfaceChat {
  readonly id: string;
  readonly messages: UIMessage[];
  readonly status: 'submitted' | 'streaming' | 'ready' | 'error';
  sendMessage(message: UIMessage & { role: 'user' }): Promise<void>;
  setMessages(messages: UIMessage[]): void;
  /** Messages the person wrote while a reply streams, waiting to be sent (`Chat`'s `experimental_queue`). */
  readonly experimental_queuedMessages?: readonly UIMessage[];
}

/** How many messages the person has waiting in the page's chat (see `ChatTaskSurfaceOptions.onWaiting`). */
export interface TaskSurfaceWaiting {
  chatId: string;
  count: number;
}

/** What a page asks the app's server to record (see `dismissTaskSurface`). */
export interface TaskSurfaceDismissal {
  chatId: string;
  surfaceId: string;
  dismissalId: string;
}

export interface ChatTaskSurfaceOptions {
  /**
   * Persists a dismissal on the app's server (which runs `dismissTaskSurface` on its messages).
   * Awaited before the panel closes; when it throws, the panel stays open and says so. Without it,
   * the dismissal is only in the page's messages until the app saves them.
   */
  onDismiss?(dismissal: TaskSurfaceDismissal): Promise<unknown> | unknown;
  /** A submission's request failed (the chat's own `error` says so too). */
  onError?(error: unknown): void;
  /**
   * Sends a card action to the app's server (which runs `createActionCardActs(...).act`) and
   * returns its answer. The card's decision parts in it are added to the chat's messages (once the
   * reply streaming now, if any, has finished). Without it, a card's buttons answer an error.
   */
  onAct?(request: ActionCardActRequest): Promise<{ result: ActResult; decisions: readonly ActionCardDecisionPart[] }>;
  /**
   * The number of messages waiting in the chat (`experimental_queuedMessages`: written while a reply
   * streams), each time it changes. The app tells its server, whose chat route hands the count to
   * `taskSurfaceTools({ waiting })`: `propose_action` then refuses at `queuedMessageLimit`, as the
   * Host's does while messages wait behind a turn. A failure goes to `onError`.
   */
  onWaiting?(waiting: TaskSurfaceWaiting): Promise<unknown> | unknown;
}

/** The adapter: hand `transport` and `sessionId` to the elements; call `update` on every change of the chat. */
export interface ChatTaskSurface {
  readonly transport: HostTransport;
  readonly sessionId: SessionId;
  update(chat: TaskSurfaceChat): void;
  dispose(): void;
}

/**
 * Per chat id, the submission messages no adapter of the chat counts: one whose request is running
 * (`inFlight`) and one whose request failed and that the chat still hands back (`dropped`). Shared,
 * so a transcript row (its own adapter) does not say "Submitted" before the server took it either.
 */
const uncounted = new Map<string, { inFlight: Set<string>; dropped: Set<string>; adapters: Set<() => void> }>();
const uncountedOf = (chatId: string) => {
  let entry = uncounted.get(chatId);
  if (!entry) uncounted.set(chatId, (entry = { inFlight: new Set(), dropped: new Set(), adapters: new Set() }));
  return entry;
};
/** Every adapter of the chat shows the change (a row learns that the Dock's submission went through). */
const republish = (chatId: string) => {
  for (const publish of [...uncountedOf(chatId).adapters]) publish();
};

const unsupported = (what: string) => () =>
  Promise.reject(new TransportError('bad-request', `${what} is the app's own in an AI SDK chat (use chat.sendMessage)`));

/** Creates the adapter for one chat (one chat id). */
export function createChatTaskSurface(initial: TaskSurfaceChat, options: ChatTaskSurfaceOptions = {}): ChatTaskSurface {
  let chat = initial;
  let disposed = false;
  const sessionId = initial.id as SessionId;
  const listeners = new Set<SessionListener>();
  /** A submission sent and not yet in the messages: the panel shows it pending, never sends it twice. */
  let sent: (TaskSurfacePendingSubmission & { surfaceId: string; done?: boolean }) | null = null;
  let lastView = '';
  /** Decisions the server recorded that the chat's messages lack (added when no reply streams). */
  let decided: ActionCardDecisionPart[] = [];

  const busy = () => chat.status === 'submitted' || chat.status === 'streaming';
  /**
   * The chat's messages as the server has them: `Chat` puts a message into `messages` before its
   * request starts, so a submission still in flight (and one the server refused) is not counted as
   * closing the surface. Until its request succeeded, the panel shows it pending and keeps its values.
   */
  const accepted = () => {
    const { inFlight, dropped } = uncountedOf(sessionId);
    for (const id of dropped) if (!chat.messages.some((m) => m.id === id)) dropped.delete(id);
    if (inFlight.size === 0 && dropped.size === 0) return chat.messages;
    return chat.messages.filter((m) => !inFlight.has(m.id) && !dropped.has(m.id));
  };
  const view = (): SessionView => {
    const state = foldTaskSurface(accepted());
    if (sent && state.open?.surfaceId !== sent.surfaceId) {
      uncountedOf(sessionId).inFlight.delete(sent.messageId);
      sent = null;
    }
    // The panel waits for a reply to finish (a message sent mid-stream would race the stream's own),
    // except the reply to its own submission, which it shows pending.
    const open = busy() && !sent ? null : state.open;
    const pending = sent && { submissionId: sent.submissionId, messageId: sent.messageId, phase: sent.phase };
    const preview = busy() && !open ? previewOf(chat.messages, state.open?.callId) : undefined;
    return {
      ...(preview ? { preview } : {}),
      sessionId,
      lastSeq: taskSurfaceEvents(accepted()).events.length,
      readOnly: false,
      turn: busy() ? 'running' : 'idle',
      taskSurface: { active: open && { callId: open.callId as never, surfaceId: open.surfaceId, pending } },
      queue: [],
      actionCards: foldActionCards(decided.reduce(withDecision, chat.messages)).view,
    };
  };
  /**
   * Once the submission's request is over: a success leaves its message in the chat (the surface is
   * submitted); a refused or failed one takes it out again, so the panel is open with its values
   * and can be sent again (a retry with the same submissionId is answered as the first).
   */
  const settleSubmission = () => {
    if (!sent?.done || busy()) return;
    const failed = chat.status === 'error';
    const { messageId } = sent;
    sent = null;
    const { inFlight, dropped } = uncountedOf(sessionId);
    inFlight.delete(messageId);
    if (failed) {
      // Not counted from now on, though a framework's chat may hand back its old messages a while yet.
      dropped.add(messageId);
      chat.setMessages(chat.messages.filter((m) => m.id !== messageId));
    }
    republish(sessionId);
  };
  /** Adds the decisions the server recorded to the chat's messages, unless a reply is streaming. */
  const settleDecisions = () => {
    if (decided.length === 0 || busy()) return;
    const next = decided.reduce(withDecision, chat.messages);
    decided = [];
    if (next.length !== chat.messages.length || next.some((m, i) => m !== chat.messages[i])) chat.setMessages(next);
  };
  /** Acts waiting for the reply streaming now to end. */
  let waiting: (() => void)[] = [];
  const ready = () => (busy() ? new Promise<void>((resolve) => waiting.push(resolve)) : Promise.resolve());
  const wake = () => {
    if (busy() || waiting.length === 0) return;
    const woken = waiting;
    waiting = [];
    for (const resolve of woken) resolve();
  };
  const publish = () => {
    const next = view();
    const key = JSON.stringify(next);
    if (key === lastView) return;
    lastView = key;
    for (const listener of [...listeners]) listener(next);
  };
  uncountedOf(sessionId).adapters.add(publish);
  const live = () => {
    if (disposed) throw new TransportError('disposed', 'the Task Surface adapter of this chat is disposed');
  };
  const own = (id: string) => {
    if (id !== sessionId) throw new TransportError('unknown-session', `this adapter serves chat ${sessionId}, not ${id}`);
  };

  const transport: HostTransport = {
    watchSession(id, listener) {
      live();
      own(id);
      listeners.add(listener);
      listener(view());
      return () => listeners.delete(listener);
    },
    async readLog(id, { before, limit }) {
      live();
      own(id);
      const { events } = taskSurfaceEvents(accepted());
      const older = before === undefined ? events : events.filter((e) => e.seq < before);
      const page = older.slice(Math.max(0, older.length - limit));
      return { events: page, hasMore: page.length < older.length, lastSeq: events.length };
    },
    taskSurface: {
      async getActive({ sessionId: id, surfaceId }) {
        live();
        own(id);
        const active = view().taskSurface.active;
        const open = foldTaskSurface(accepted()).open;
        if (!active || !open || active.surfaceId !== surfaceId) return { active: false, reason: 'not-open' };
        return { active: true, callId: active.callId, surfaceId: open.surfaceId, model: open.model, pending: active.pending };
      },
      async getOutcome({ sessionId: id, surfaceId }) {
        live();
        own(id);
        return foldTaskSurface(accepted()).outcome(surfaceId);
      },
      async submit(request): Promise<SubmitTaskSurfaceResult> {
        live();
        own(request.sessionId);
        if (sent) {
          return sent.submissionId === request.submissionId
            ? { accepted: true, messageId: sent.messageId, phase: 'queued' }
            : { accepted: false, reason: 'submission-pending' };
        }
        if (busy()) return { accepted: false, reason: 'submission-pending' };
        const built = taskSurfaceSubmissionMessage(chat.messages, request, mintMessageId());
        if (!built.accepted) return { accepted: false, reason: built.reason };
        if (built.repeated) return { accepted: true, messageId: built.messageId as never, phase: 'queued' };
        const { message } = built;
        sent = { submissionId: request.submissionId, messageId: message.id as never, phase: 'queued', surfaceId: request.surfaceId };
        uncountedOf(sessionId).inFlight.add(message.id);
        publish();
        const mine = sent;
        chat
          .sendMessage(message)
          .catch((error: unknown) => options.onError?.(error))
          .finally(() => {
            if (sent !== mine) return;
            mine.done = true;
            settleSubmission();
            publish();
          });
        return { accepted: true, messageId: message.id as never, phase: 'queued' };
      },
      async dismiss(request): Promise<DismissTaskSurfaceResult> {
        live();
        own(request.sessionId);
        if (sent || busy()) return { dismissed: false, reason: 'submission-pending' };
        const asked = { surfaceId: request.surfaceId, dismissalId: request.dismissalId };
        const first = dismissTaskSurface(chat.messages, asked);
        if (!first.dismissed) return { dismissed: false, reason: first.reason === 'stale' ? 'stale' : 'not-open' };
        if (!first.repeated) await options.onDismiss?.({ chatId: sessionId, ...asked });
        // The messages may have moved on while the server recorded it: apply it to the current ones.
        const result = dismissTaskSurface(chat.messages, asked);
        if (!result.dismissed) return { dismissed: false, reason: result.reason === 'stale' ? 'stale' : 'not-open' };
        if (!result.repeated) chat.setMessages(result.messages);
        return { dismissed: true, eventSeq: taskSurfaceEvents(result.messages).events.length };
      },
    },
    session: { send: unsupported('Sending a message'), updateQueue: unsupported('The queue') },
    actionCards: {
      async act(request) {
        live();
        own(request.sessionId);
        if (!options.onAct) throw new TransportError('bad-request', 'card actions need onAct: the app sends them to its server');
        const { sessionId: chatId, ...rest } = request;
        // A card shows while the reply that proposed it still streams, but the server saves that
        // reply only when it ends: an act sent now would find no card (`unknown`). It waits.
        await ready();
        live();
        const answer = await options.onAct({ chatId, ...rest });
        decided.push(...answer.decisions);
        settleDecisions();
        publish();
        return answer.result;
      },
    },
    dispose() {
      disposed = true;
      listeners.clear();
      uncountedOf(sessionId).adapters.delete(publish);
      for (const resolve of waiting) resolve(); // their acts then reject: disposed
      waiting = [];
    },
  };

  let told = 0;
  /** Tells the app how many messages wait in the chat, once per change. */
  const tellWaiting = () => {
    const count = chat.experimental_queuedMessages?.length ?? 0;
    if (count === told || !options.onWaiting) return;
    told = count;
    void (async () => options.onWaiting!({ chatId: sessionId, count }))().catch((error: unknown) => options.onError?.(error));
  };

  return {
    transport,
    sessionId,
    update(next) {
      chat = next;
      if (disposed) return;
      tellWaiting();
      settleSubmission();
      settleDecisions();
      publish();
      wake();
    },
    dispose: () => transport.dispose(),
  };
}
