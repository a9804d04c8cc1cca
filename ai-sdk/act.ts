/*
 * The server's side of a card action in an AI SDK app: the Host's act checks and its card
 * operation (host/actionCards/operation.ts) on the app's own messages, each decision recorded as a
 * data part and saved before the answer. One operation per card at a time, as on the Host.
 */
import type { UIMessage } from 'ai';
import * as z from 'zod/mini';
import { actRefusal, runCardOperation } from '../host/actionCards/operation.js';
import type { ActingAs, CardKind } from '../host/types.js';
import {
  issueText,
  JsonValueSchema,
  OWN_WORDS,
  SYSTEM_PRINCIPAL,
  type Principal,
  type SessionAccess,
  type ActResult,
  type CallId,
  type JsonValue,
  type SessionEvent,
  type SessionId,
} from '../protocol/index.js';
import { foldActionCards, registryOf } from './cards.js';
import { ACTION_CARD_DECISION_PART, decisionOf, type ActionCardDecisionPart } from './cardMessages.js';
import { mergeChatMessages } from './merge.js';

/** What a page asks: act on one card of one chat (`verb` is a kind's verb, or `dismiss` for Not now). */
export const ActionCardActRequestSchema = z.strictObject({
  chatId: z.string().check(z.minLength(1), z.maxLength(256)),
  callId: z.string().check(z.minLength(1), z.maxLength(256)),
  verb: z.string().check(z.minLength(1), z.maxLength(64)),
  payload: z.optional(JsonValueSchema),
});
export type ActionCardActRequest = z.infer<typeof ActionCardActRequestSchema>;

/**
 * The answer: the Host's `ActResult`, and every decision part the card has in the saved messages
 * (the page adds the ones it lacks), or a malformed request.
 */
export type ActionCardActAnswer =
  { ok: true; result: ActResult; decisions: ActionCardDecisionPart[] } | { ok: false; reason: 'invalid-request'; message: string };

export interface ActionCardActsOptions {
  kinds: readonly CardKind[];
  /** The chat's persisted messages. */
  load(chatId: string): readonly UIMessage[] | Promise<readonly UIMessage[]>;
  /**
   * Persists the chat's messages (called once per recorded decision, in order), given the stored
   * messages merged with the decision (`mergeChatMessages`), so a message saved meanwhile is kept.
   */
  save(chatId: string, messages: UIMessage[]): unknown;
  /** A chat the person may only read: Not now and writing verbs are refused `read-only`. */
  readOnly?(chatId: string): boolean;
  /**
   * What the acting person (`act`'s `as.initiator`) may do with the chat, as the Host's policy answers
   * it: `none` (an act is refused `unknown`, as for a card that does not exist: another person's chat
   * is not told apart from a missing one), `read` (Not now and writing verbs refused `read-only`) or
   * `write`. Without it every act may write: the app's route must then check the owner itself.
   */
  access?(chatId: string, initiator: Principal): SessionAccess | Promise<SessionAccess>;
  /** Whether verbs that need `global` access may run (default: yes). */
  globalAccess?(chatId: string): boolean;
  /** Decision ids (default random UUIDs). */
  mintId?(): string;
}

/** Acts on cards; keep one per server process (it holds the running operations). */
export interface ActionCardActs {
  /**
   * One act. `as.initiator`: who acts (the app's signed-in person), checked with `access` and seen by
   * the kind's handler and `reconcile`; default host code (`SYSTEM_PRINCIPAL`), as the Host's `act`.
   */
  act(request: unknown, as?: { initiator: Principal }): Promise<ActionCardActAnswer>;
}

/**
 * Creates the acts of an app's chats. An act is checked as the Host checks it (unknown card, Not now
 * and writing verbs in a read-only chat, unknown or unregistered verbs, `global` access), then joins
 * the card's running operation if there is one, else runs the Host's operation: the kind's
 * reconcile, dismissed and replaced cards settle unchanged, Not now, the kind's handler. A second
 * act on a decided card meets the kind's own phase rules (a created page settles), so a double
 * click or a retry records one decision.
 */
export function createActionCardActs(options: ActionCardActsOptions): ActionCardActs {
  const registry = registryOf(options.kinds);
  const mintId = options.mintId ?? (() => crypto.randomUUID());
  const running = new Map<string, Promise<ActionCardActAnswer>>();
  /** The messages of chats with an operation running: the one copy their decisions go into. */
  const working = new Map<string, { messages: UIMessage[]; users: number; saves: Promise<unknown> }>();

  async function operate(request: ActionCardActRequest, as: ActingAs): Promise<ActionCardActAnswer> {
    const { chatId, callId, verb, payload } = request;
    const chat = working.get(chatId) ?? { messages: [...(await options.load(chatId))], users: 0, saves: Promise.resolve() };
    working.set(chatId, chat);
    chat.users++;
    try {
      const result = await run(chat, request);
      await chat.saves;
      return { ok: true, result, decisions: decisionsOf(chat.messages, callId) };
    } finally {
      if (--chat.users === 0) working.delete(chatId);
    }

    async function run(chat: { messages: UIMessage[]; saves: Promise<unknown> }, { chatId }: ActionCardActRequest): Promise<ActResult> {
      const card = () => foldActionCards(chat.messages).state.cards.get(callId);
      const found = card();
      if (!found) return { status: 'refused', reason: 'unknown' };
      const canWrite = as.canWrite && !(options.readOnly?.(chatId) ?? false);
      const refused = actRefusal(registry.get(found.proposal.action), verb, {
        canWrite,
        global: () => options.globalAccess?.(chatId) ?? true,
      });
      if (refused) return refused;
      const deps = {
        api: { isLiveRoot: () => true, isReadOnly: () => !canWrite },
        registry,
        card: () => card(),
        isClosing: () => false,
        signal: new AbortController().signal,
        record({ callId: id, action, phase, data }: { callId: CallId; action: string; phase: string; data?: Record<string, JsonValue> }) {
          const decisionId = mintId();
          const part: ActionCardDecisionPart = {
            type: ACTION_CARD_DECISION_PART,
            id: decisionId,
            data: { decisionId, callId: id, action, phase, data: data ?? {} },
          };
          chat.messages = withDecision(chat.messages, part);
          const snapshot = chat.messages;
          // Merged with what is stored now: the chat route may have saved a message since this copy was read.
          chat.saves = chat.saves.then(async () => options.save(chatId, mergeChatMessages(await options.load(chatId), snapshot)));
          return { type: 'action-cards/decision', seq: 0, at: 0, callId: id, action, phase, data: data ?? {} } as SessionEvent;
        },
      };
      return runCardOperation(deps, chatId as SessionId, callId, verb, payload, { initiator: as.initiator, canWrite });
    }
  }

  return {
    async act(input, as) {
      const parsed = ActionCardActRequestSchema.safeParse(input, OWN_WORDS);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const message = `${issue?.path.join('.') || '(root)'}: ${issue === undefined ? '' : issueText(issue)}`;
        return { ok: false, reason: 'invalid-request', message };
      }
      // The owner first, before joining a running operation: another person's act never gets its answer.
      const initiator = as?.initiator ?? SYSTEM_PRINCIPAL;
      const access = options.access ? await options.access(parsed.data.chatId, initiator) : 'write';
      if (access === 'none') return { ok: true, result: { status: 'refused', reason: 'unknown' }, decisions: [] };
      const key = `${parsed.data.chatId}\u0000${parsed.data.callId}`;
      const joined = running.get(key);
      if (joined) return joined;
      const operation = operate(parsed.data, { initiator, canWrite: access === 'write' }).finally(() => running.delete(key));
      running.set(key, operation);
      return operation;
    },
  };
}

/** The card's decision parts in `messages`, oldest first. */
export function decisionsOf(messages: readonly UIMessage[], callId: string): ActionCardDecisionPart[] {
  return messages.flatMap((m) =>
    m.role === 'assistant' ? m.parts.filter((p) => decisionOf(p)?.callId === callId).map((p) => p as ActionCardDecisionPart) : [],
  );
}

/** `messages` with `part` added to the last assistant message (as a dismissal is); unchanged when it is there already. */
export function withDecision(messages: readonly UIMessage[], part: ActionCardDecisionPart): UIMessage[] {
  const at = messages.findLastIndex((m) => m.role === 'assistant');
  if (at < 0 || messages.some((m) => m.parts.some((p) => p.type === ACTION_CARD_DECISION_PART && (p as { id?: unknown }).id === part.id)))
    return [...messages];
  const next = [...messages];
  next[at] = { ...next[at]!, parts: [...next[at]!.parts, part] };
  return next;
}
