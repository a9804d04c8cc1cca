// A log page within a byte budget: what a client reading a session's log gets when the events are
// larger than the page's budget, and how its bytes are counted (UTF-8 of the page's JSON).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LogPage, SessionEvent } from '../../protocol/events.js';
import { capLogPage, eventJsonBytes, pageStartWithin } from '../../protocol/logPage.js';

const message = (seq: number, text: string) =>
  ({ seq, at: 1000, type: 'assistant/message', messageId: `m${seq}`, turnId: 't1', text }) as unknown as SessionEvent;

/** What the event's JSON (and its separating comma) really takes on the wire. */
const wireBytes = (event: SessionEvent) => Buffer.byteLength(JSON.stringify(event), 'utf8') + 1;

describe('eventJsonBytes', () => {
  it('counts the UTF-8 bytes of the event JSON, plus one for the comma, at every encoding boundary', () => {
    const texts = [
      '',
      'plain ascii \u007f',
      '\u0080',
      'é and ß',
      '\u07ff',
      '\u0800',
      '€ 中文',
      '\ud7ff',
      '\ue000\uffff',
      '\u{10000}',
      '😀 emoji',
      '\udbff\udfff',
      '\ud800\udc00x\udbff\udc00',
      'lone \ud800 and \udc00 surrogates',
      'a\u0000"\\\n',
    ];
    for (const text of texts) {
      const event = message(1, text);
      assert.equal(eventJsonBytes(event), wireBytes(event), JSON.stringify(text));
    }
  });

  it('measures an event once: a stored event never changes, so its first size stands', () => {
    const event = message(1, 'short');
    const first = eventJsonBytes(event);
    (event as { text: string }).text = 'much longer text than before';
    assert.equal(eventJsonBytes(event), first);
    assert.equal(
      eventJsonBytes(message(1, 'much longer text than before')),
      first + 'much longer text than before'.length - 'short'.length,
    );
  });
});

// Five events whose sizes are known: 100 bytes each, so budgets can be set at exact boundaries.
const hundred = (seq: number) => {
  const base = wireBytes(message(seq, ''));
  return message(seq, 'x'.repeat(100 - base));
};
const events = [1, 2, 3, 4, 5].map(hundred);

describe('pageStartWithin', () => {
  it('the examples here are 100 bytes each', () => {
    assert.deepEqual(events.map(eventJsonBytes), [100, 100, 100, 100, 100]);
  });

  it('keeps as many of the newest events as fit, a budget met exactly included', () => {
    assert.equal(pageStartWithin(events, 0, 5, 500), 0);
    assert.equal(pageStartWithin(events, 0, 5, 499), 1);
    assert.equal(pageStartWithin(events, 0, 5, 300), 2);
    assert.equal(pageStartWithin(events, 0, 5, 301), 2);
    assert.equal(pageStartWithin(events, 0, 5, 299), 3);
    assert.equal(pageStartWithin(events, 0, 5, 10_000), 0);
  });

  it('keeps the newest event alone even over the budget, so paging always moves', () => {
    assert.equal(pageStartWithin(events, 0, 5, 0), 4);
    assert.equal(pageStartWithin(events, 0, 5, 99), 4);
    assert.equal(pageStartWithin(events, 0, 3, 1), 2);
  });

  it('walks back only within [from, end)', () => {
    assert.equal(pageStartWithin(events, 2, 4, 10_000), 2);
    assert.equal(pageStartWithin(events, 1, 4, 200), 2);
    assert.equal(pageStartWithin(events, 3, 3, 10_000), 3);
    assert.equal(pageStartWithin(events, 0, 0, 0), 0);
  });

  it('counts multi-byte text at its UTF-8 size, not its length', () => {
    const wide = [message(1, '€'.repeat(30)), message(2, '€'.repeat(30))];
    const size = wireBytes(wide[0]!);
    assert.equal(pageStartWithin(wide, 0, 2, 2 * size), 0);
    assert.equal(pageStartWithin(wide, 0, 2, 2 * size - 1), 1);
  });
});

describe('capLogPage', () => {
  const page = (hasMore: boolean): LogPage => ({ events, hasMore, lastSeq: 9 });

  it('returns a page that fits as it is', () => {
    const whole = page(false);
    assert.equal(capLogPage(whole, 500), whole);
    assert.deepEqual(capLogPage(page(false), 500), page(false));
  });

  it('drops the oldest events that do not fit and says there is more', () => {
    assert.deepEqual(capLogPage(page(false), 250), { events: events.slice(3), hasMore: true, lastSeq: 9 });
    assert.deepEqual(capLogPage(page(true), 1), { events: events.slice(4), hasMore: true, lastSeq: 9 });
  });

  it('leaves the page it was given untouched', () => {
    const given = page(false);
    capLogPage(given, 100);
    assert.deepEqual(given, page(false));
  });
});
