/*
 * Saving a chat whose writers overlap. The chat route's `onFinish` hands back `originalMessages` as
 * they were read before the reply streamed; a card's act or a dismissal may have recorded a data
 * part meanwhile, and a card's act works on a copy read when it started, while the route may have
 * saved a new user message. Saving either list as it is would lose the other's write: a lost
 * decision lets the next click run the act again. Each save merges with what is stored instead.
 */
import type { UIMessage } from 'ai';

const isData = (part: UIMessage['parts'][number]): boolean => part.type.startsWith('data-');

/** `next`'s version of a message, with every data part only `stored` has kept at its end. */
function withStoredData(next: UIMessage, stored: UIMessage): UIMessage {
  const known = new Set(next.parts.filter(isData).map((part) => JSON.stringify(part)));
  const kept = stored.parts.filter((part) => isData(part) && !known.has(JSON.stringify(part)));
  return kept.length === 0 ? next : { ...next, parts: [...next.parts, ...kept] };
}

/**
 * `message` with an id to match by. A route without `generateMessageId` gets its reply with id `""`:
 * an empty id matches no other message (it would replace whichever stored message has one), so the
 * reply gets a fresh id, unless it is a stored message with the empty id, unchanged (an older save).
 */
function withId(message: UIMessage, stored: readonly UIMessage[]): UIMessage {
  if (typeof message.id === 'string' && message.id !== '') return message;
  const same = JSON.stringify(message);
  if (stored.some((m) => !m.id && JSON.stringify(m) === same)) return message;
  return { ...message, id: crypto.randomUUID() };
}

/**
 * `stored` and `next` as one conversation, matched by message id (never by an empty one): no message of either is lost
 * (each keeps its place; a message only `next` has follows the message it follows in `next`), a
 * message in both is `next`'s version plus any data part (a decision, a dismissal) only the stored
 * one has, and nothing is ever removed. Save with `save(id, mergeChatMessages(load(id), messages))`
 * wherever a chat is saved: in `onFinish`, and in `createActionCardActs`'s `save` (which does so itself).
 */
export function mergeChatMessages(stored: readonly UIMessage[], next: readonly UIMessage[]): UIMessage[] {
  next = next.map((message) => withId(message, stored));
  const fromNext = new Map(next.map((message) => [message.id, message]));
  const merged = stored.map((message) => {
    const newer = fromNext.get(message.id);
    return newer ? withStoredData(newer, message) : message;
  });
  const at = new Map(merged.map((message, i) => [message.id, i]));
  let cursor = -1;
  for (const message of next) {
    const found = at.get(message.id);
    if (found !== undefined) {
      cursor = found;
      continue;
    }
    merged.splice(++cursor, 0, message);
    at.clear();
    merged.forEach((m, i) => at.set(m.id, i));
  }
  return merged;
}
