/*
 * `task-surface/ai-sdk/react`: the thin React layer `useChat` needs. The Dock and the transcript row
 * are the package's custom elements; React only hands them the chat's adapter (../chat.ts).
 */
import { createElement, useEffect, useRef, useState, type ReactElement } from 'react';
import type { UIMessage } from 'ai';
import '../../components/index.js';
import { createChatTaskSurface, type ChatTaskSurface, type ChatTaskSurfaceOptions, type TaskSurfaceChat } from '../chat.js';
import { foldTaskSurface, type TaskSurfaceState } from '../fold.js';
import { showPartOf } from '../messages.js';
import { isOkOutput, toolPartOf } from '../cardMessages.js';
import { registerShippedCardBodies } from '../../components/action-card/index.js';
import { PROPOSE_ACTION } from '../../protocol/index.js';
import { TransportError } from '../../transport/types.js';

export type { ChatTaskSurfaceOptions, TaskSurfaceChat, TaskSurfaceDismissal, TaskSurfaceWaiting } from '../chat.js';

/** What `useTaskSurface` gives: the elements' transport and session id, and the fold of the chat's messages. */
export interface UseTaskSurfaceResult {
  transport: ChatTaskSurface['transport'];
  sessionId: string;
  state: TaskSurfaceState;
}

/**
 * Binds one `useChat` chat to the Task Surface elements: the adapter follows the chat's messages and
 * status after every render; `state` is the fold of its messages (the open surface, how each closed).
 */
export function useTaskSurface(chat: TaskSurfaceChat, options: ChatTaskSurfaceOptions = {}): UseTaskSurfaceResult {
  const latest = useRef(options);
  latest.current = options;
  const [adapter, setAdapter] = useState(() => make(chat, latest));
  if (adapter.sessionId !== chat.id) setAdapter(make(chat, latest));
  useEffect(() => adapter.update(chat), [adapter, chat, chat.messages, chat.status, chat.experimental_queuedMessages]);
  return { transport: adapter.transport, sessionId: adapter.sessionId, state: foldTaskSurface(chat.messages) };
}

function make(chat: TaskSurfaceChat, latest: { current: ChatTaskSurfaceOptions }): ChatTaskSurface {
  return createChatTaskSurface(chat, {
    onDismiss: (dismissal) => latest.current.onDismiss?.(dismissal),
    onError: (error) => latest.current.onError?.(error),
    onWaiting: (waiting) => latest.current.onWaiting?.(waiting),
    async onAct(request) {
      const send = latest.current.onAct;
      if (!send) throw new TransportError('bad-request', 'card actions need onAct: the app sends them to its server');
      return send(request);
    },
  });
}

export interface TaskSurfaceDockProps extends ChatTaskSurfaceOptions {
  chat: TaskSurfaceChat;
  /**
   * The panel's language: a BCP 47 tag, one of the shipped languages (en, zh, es, de, ja, ar) or one
   * registered with `registerLocale`; the submission's text is written in it. Default `en`.
   */
  lang?: string;
  theme?: 'light' | 'dark';
  className?: string;
}

/**
 * The Dock for the chat's open surface: place it above the composer. It submits through
 * `chat.sendMessage` (one user message per attempt) and dismisses without a request to the model.
 */
export function TaskSurfaceDock({ chat, lang = 'en', theme, className, ...options }: TaskSurfaceDockProps): ReactElement {
  const { transport, sessionId } = useTaskSurface(chat, options);
  return createElement('task-surface-dock', { transport, 'session-id': sessionId, lang, theme, class: className });
}

/** Whether a message part is a `show_task_surface` call (render it with `TaskSurfaceToolview`). */
export function isTaskSurfacePart(part: UIMessage['parts'][number]): boolean {
  return showPartOf(part) !== null;
}

export interface TaskSurfaceToolviewProps {
  chat: TaskSurfaceChat;
  /** The message's `tool-show_task_surface` part. */
  part: UIMessage['parts'][number];
  /** The row's language (as the Dock's). */
  lang?: string;
  theme?: 'light' | 'dark';
  /** Level of the replay's section headings (default 2). */
  headingLevel?: number;
}

/**
 * The read-only transcript row of a `tool-show_task_surface` part, with its status from the fold
 * (open, submitted with its values, dismissed, bypassed). Nothing while the call is still streaming;
 * a refused call shows the text the model received.
 */
export function TaskSurfaceToolview({ chat, part, lang = 'en', theme, headingLevel = 2 }: TaskSurfaceToolviewProps): ReactElement | null {
  const { transport, sessionId } = useTaskSurface(chat);
  const show = showPartOf(part);
  if (!show || (show.state !== 'output-available' && show.state !== 'output-error')) return null;
  const output = show.output as { ok?: unknown; text?: unknown } | undefined;
  const ok = show.state === 'output-available' && output?.ok === true;
  const content = typeof output?.text === 'string' ? output.text : String((part as { errorText?: unknown }).errorText ?? '');
  return createElement('task-surface-toolview', {
    transport,
    'session-id': sessionId,
    name: 'show_task_surface',
    content,
    meta: ok ? output : undefined,
    lang,
    theme,
    'heading-level': headingLevel,
  });
}

/** Whether a message part is a `propose_action` call that made a card (render it with `TaskSurfaceActionCard`). */
export function isActionCardPart(part: UIMessage['parts'][number]): boolean {
  const call = toolPartOf(part, PROPOSE_ACTION);
  return call !== null && call.state === 'output-available' && isOkOutput(call.output);
}

export interface TaskSurfaceActionCardProps {
  chat: TaskSurfaceChat;
  /** The message's `tool-propose_action` part. */
  part: UIMessage['parts'][number];
  /** Sends an action to the app's server (see `ChatTaskSurfaceOptions.onAct`). */
  onAct: NonNullable<ChatTaskSurfaceOptions['onAct']>;
  lang?: string;
  theme?: 'light' | 'dark';
  /** Level of the card's title heading (default 2). */
  headingLevel?: number;
}

let shippedBodies = false;

/**
 * The `action-card` element for a `tool-propose_action` part: the card below the answer, its phase
 * from the fold of the chat's messages, each action through `onAct` to the app's route. Nothing for
 * a refused or still streaming call. The shipped kinds' bodies are registered on first use.
 */
export function TaskSurfaceActionCard({
  chat,
  part,
  onAct,
  lang = 'en',
  theme,
  headingLevel = 2,
}: TaskSurfaceActionCardProps): ReactElement | null {
  const { transport, sessionId } = useTaskSurface(chat, { onAct });
  if (!shippedBodies) {
    shippedBodies = true;
    registerShippedCardBodies();
  }
  const call = toolPartOf(part, PROPOSE_ACTION);
  if (!call || !isActionCardPart(part)) return null;
  return createElement('action-card', {
    transport,
    'session-id': sessionId,
    'call-id': call.toolCallId,
    lang,
    theme,
    'heading-level': headingLevel,
  });
}
