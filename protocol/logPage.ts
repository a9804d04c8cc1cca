/*
 * Log pages within a byte budget. A stored event never changes, so its JSON size is measured once
 * per event object and remembered: the Host builds a page by walking back from its newest event and
 * stops before the one that would pass the budget, and a transport checking the same page again
 * pays only lookups.
 */
import type { LogPage, SessionEvent } from './events.js';

const sizes = new WeakMap<object, number>();

/** UTF-8 bytes of a string, without encoding it. */
function utf8Bytes(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      bytes += 2; // a surrogate pair: 4 bytes for 2 UTF-16 units
      i++;
    } else bytes += 2;
  }
  return bytes;
}

/** The event's bytes in a page's JSON (with its separating comma); measured once per event object. */
export function eventJsonBytes(event: SessionEvent): number {
  let size = sizes.get(event);
  if (size === undefined) sizes.set(event, (size = utf8Bytes(JSON.stringify(event)) + 1));
  return size;
}

/**
 * Where a page of `events[from, end)` starts so that it fits in `maxBytes` of JSON: the newest
 * events first, stopping before the one that would pass the budget. The newest event is always
 * kept, even alone over the budget, so paging with `before` always moves.
 */
export function pageStartWithin(events: readonly SessionEvent[], from: number, end: number, maxBytes: number): number {
  let bytes = 0;
  let start = end;
  while (start > from) {
    const size = eventJsonBytes(events[start - 1]!);
    if (start < end && bytes + size > maxBytes) break;
    bytes += size;
    start--;
  }
  return start;
}

/**
 * Keeps the newest events of a page that fit in `maxBytes` of JSON and says `hasMore` when it drops
 * older ones (the client pages on with `before` = the first event's seq).
 */
export function capLogPage(page: LogPage, maxBytes: number): LogPage {
  const start = pageStartWithin(page.events, 0, page.events.length, maxBytes);
  return start === 0 ? page : { ...page, events: page.events.slice(start), hasMore: true };
}
