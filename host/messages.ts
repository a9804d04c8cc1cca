import {
  SendMessageRequestSchema,
  UpdateQueueRequestSchema,
  type SendMessageResult,
  type SessionId,
  type UpdateQueueResult,
} from '../protocol/index.js';
import { parseInput } from './errors.js';
import type { HostIds } from './ids.js';
import type { LiveInboxes } from './liveInboxes.js';
import { TAKE_TOKEN, type MessageAdmission } from './limits/admission.js';
import { refusal } from './limits/index.js';
import type { Sessions } from './sessions.js';

export interface MessagesDeps {
  sessions: Sessions;
  inboxes: LiveInboxes;
  ids: HostIds;
  /** Rows one session's queue may hold; past it `queue-full`. */
  maxQueuedMessages: number;
  /** The principal's limits (host/limits/admission.ts): asked for a new message only, never for a retry. */
  admission: MessageAdmission;
}

/** The Host's ordinary messages: `session.send` (exactly once per messageId) and `session.updateQueue`. */
export interface Messages {
  /** `by`: the principal id recorded on the message's source (absent for host code). */
  send(input: unknown, by?: string): Promise<SendMessageResult>;
  updateQueue(input: unknown): Promise<UpdateQueueResult>;
  /** Forgets the answers remembered for an unloaded session. */
  forget(sessionId: SessionId): void;
}

/** `session.send` answers remembered per session for retries (between this and twice as many). */
const SEND_ANSWERS_KEPT = 1_000;

/** Creates the message part of a Host. */
export function createMessages(deps: MessagesDeps): Messages {
  const { sessions, inboxes, ids } = deps;
  const sendResults = new Map<SessionId, Map<string, SendMessageResult>>();

  return {
    async send(input, by) {
      const request = parseInput('session.send', SendMessageRequestSchema, input);
      // Checks, admission and enqueue with no await between them: they see one state (run again from
      // the top after a shared rate's take).
      return deps.admission.run<SendMessageResult>('session.send', by, (admit) => {
        const session = sessions.find(request.sessionId);
        if (!session) return { accepted: false, reason: 'unknown-session' };
        if (session.record.readOnly) return { accepted: false, reason: 'read-only' };
        let results = sendResults.get(request.sessionId);
        if (!results) sendResults.set(request.sessionId, (results = new Map()));
        const first = results.get(request.messageId);
        if (first) return first;
        if (session.userMessages.has(request.messageId)) {
          // Durable before this process (a retry after a restart): never admit it twice.
          return { accepted: true, messageId: request.messageId, itemId: ids.item() };
        }
        const inbox = inboxes.for(request.sessionId);
        // Already on its way (a submission's row, say): one message per messageId, never two.
        const live = inbox.findMessage(request.messageId);
        if (live) return { accepted: true, messageId: request.messageId, itemId: live.id };
        if (inbox.rows.length >= deps.maxQueuedMessages) return { accepted: false, reason: 'queue-full' };
        const refused = admit(request.sessionId, by);
        if (refused === TAKE_TOKEN) return TAKE_TOKEN;
        if (refused) return refusal(refused);
        const row = inbox.enqueue({
          messageId: request.messageId,
          text: request.text,
          source: { kind: 'user', rpcId: request.rpcId, ...(by === undefined ? {} : { by }) },
        });
        const result: SendMessageResult = { accepted: true, messageId: request.messageId, itemId: row.id };
        results.set(request.messageId, result);
        // Bounded: the newest answers are kept (amortised O(1)); an older message is still never
        // admitted twice while it is durable or queued (the fold and the live row answer for it).
        if (results.size > 2 * SEND_ANSWERS_KEPT) sendResults.set(request.sessionId, new Map([...results].slice(-SEND_ANSWERS_KEPT)));
        return result;
      });
    },

    async updateQueue(input) {
      const request = parseInput('session.updateQueue', UpdateQueueRequestSchema, input);
      const inbox = inboxes.get(request.sessionId);
      const row = inbox?.find(request.itemId);
      if (!inbox || !row) return { ok: false, reason: 'queue-item-not-found' };
      if (request.op === 'remove') {
        inbox.remove(row.id);
        return { ok: true };
      }
      // Editing would separate the text from its structured values; steering would bypass admission.
      if (row.source.taskSurface) return { ok: false, reason: 'task-surface-row' };
      inbox.update(row.id, request.op === 'edit' ? { text: request.text } : { placement: 'steering' });
      return { ok: true };
    },

    forget: (sessionId) => sendResults.delete(sessionId),
  };
}
