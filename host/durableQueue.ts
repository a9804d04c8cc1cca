import type { MessageId, QueuedMessage, SessionId, UserMessageEvent } from '../protocol/index.js';
import type { LoadedSession } from './sessions.js';
import type { SessionLogStore, StoredQueueRow } from './store/types.js';

/** Preview: the first line, at most 120 characters. */
export function previewOf(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}

/** Ordinary rows are kept in the store until durable; Task Surface rows stay process-local (spec). */
export const isKept = (row: QueuedMessage): boolean => row.source.taskSurface === undefined;

/** A queue row as the store keeps it, at position `order`. */
export function toStored(row: QueuedMessage, order: number): StoredQueueRow {
  return { itemId: row.id, messageId: row.messageId, placement: row.placement, source: row.source, text: row.text, order };
}

/**
 * The session's stored rows as queue rows, in order, ids kept, and the next free `order`. A row whose
 * message is already durable (the process stopped between the append and the delete) is deleted
 * instead: never admitted twice.
 */
export function restoreQueued(
  store: SessionLogStore,
  sessionId: SessionId,
  durable: ReadonlySet<MessageId>,
): { rows: QueuedMessage[]; nextOrder: number } {
  const rows: QueuedMessage[] = [];
  let nextOrder = 0;
  for (const stored of store.listQueued(sessionId)) {
    nextOrder = Math.max(nextOrder, stored.order + 1);
    if (durable.has(stored.messageId) || rows.some((r) => r.messageId === stored.messageId)) {
      store.deleteQueued(sessionId, stored.itemId);
      continue;
    }
    rows.push({
      id: stored.itemId,
      messageId: stored.messageId,
      placement: stored.placement,
      source: stored.source,
      text: stored.text,
      preview: previewOf(stored.text),
    });
  }
  return { rows, nextOrder };
}

/** The durable user message carrying `messageId` (searched from the newest event), if any. */
export function durableMessage(session: LoadedSession, messageId: MessageId): UserMessageEvent | undefined {
  if (!session.userMessages.has(messageId)) return undefined;
  return session.effective.findLast((e): e is UserMessageEvent => e.type === 'user/message' && e.messageId === messageId);
}
