// host.readLog with a byte budget: each page stops before the event that would pass it, `hasMore`
// and `before` lead through the whole log exactly once, and events are the Host's own (never copied).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HostInputError } from '../../host/errors.js';
import { createHost } from '../../host/createHost.js';
import { createMemoryStore } from '../../host/store/memory.js';
import { eventJsonBytes, type MessageId, type SessionEvent, type SessionId, type TurnId } from '../../protocol/index.js';

function bigSession(count: number, bytes: (i: number) => number) {
  const store = createMemoryStore();
  const sessionId = 's-log' as SessionId;
  store.createSession({ sessionId, title: 'T', createdAt: 1, toolMode: 'native', readOnly: false, locale: 'en' });
  for (let i = 1; i <= count; i++) {
    const text = `${i}:`.padEnd(bytes(i), i % 3 === 0 ? '字' : 'x');
    store.append(sessionId, { type: 'assistant/message', turnId: 't' as TurnId, messageId: `m${i}` as MessageId, text }, i);
  }
  return { host: createHost({ store }), sessionId };
}

describe('host.readLog within a byte budget', () => {
  it('builds each page within maxBytes and pages through every event once', async (t) => {
    const { host, sessionId } = bigSession(120, (i) => 1_000 + ((i * 7919) % 9_000));
    t.after(() => host.dispose());
    const maxBytes = 40_000;
    const seen: number[] = [];
    let before: number | undefined;
    for (;;) {
      const page = await host.readLog(sessionId, before === undefined ? { limit: 500, maxBytes } : { before, limit: 500, maxBytes });
      const json = Buffer.byteLength(JSON.stringify(page.events));
      assert.ok(json <= maxBytes + 1, `a page of ${json} bytes`);
      seen.unshift(...page.events.map((e) => e.seq));
      if (!page.hasMore) break;
      before = page.events[0]!.seq;
    }
    assert.deepEqual(
      seen,
      Array.from({ length: 120 }, (_, i) => i + 1),
    );
  });

  it('always returns the newest event, even alone over the budget, and says there is more', async (t) => {
    const { host, sessionId } = bigSession(3, () => 5_000);
    t.after(() => host.dispose());
    const page = await host.readLog(sessionId, { limit: 10, maxBytes: 100 });
    assert.deepEqual(
      page.events.map((e) => e.seq),
      [3],
    );
    assert.equal(page.hasMore, true);
  });

  it('measures bytes as UTF-8 JSON, and returns the same event objects each time (no copy)', async (t) => {
    const { host, sessionId } = bigSession(6, () => 300);
    t.after(() => host.dispose());
    const first = await host.readLog(sessionId, { limit: 6 });
    const again = await host.readLog(sessionId, { limit: 6, maxBytes: 1_000_000 });
    first.events.forEach((event: SessionEvent, i) => {
      assert.equal(again.events[i], event, 'the same object');
      assert.equal(eventJsonBytes(event), Buffer.byteLength(JSON.stringify(event)) + 1);
    });
  });

  it('refuses a maxBytes that is not a positive integer', async (t) => {
    const { host, sessionId } = bigSession(1, () => 10);
    t.after(() => host.dispose());
    for (const maxBytes of [0, -1, 1.5]) {
      await assert.rejects(
        host.readLog(sessionId, { limit: 1, maxBytes }),
        (error: unknown) => error instanceof HostInputError && /maxBytes/.test(String(error)),
      );
    }
  });
});
