import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startDockRuntime } from '../../components/dock/dockRuntime.js';
import { createDraftStore, draftStorageKey } from '../../components/drafts/draftStore.js';
import type { SessionId } from '../../protocol/index.js';
import { FakeTransport } from './fakeTransport.js';

function memoryStorage() {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
  };
}
const s1 = 's1' as SessionId;

describe('draft store', () => {
  it("the Dock's own store keeps its documented bounds: 32 KiB per draft, 128 KiB per session", (t) => {
    const storage = memoryStorage();
    const runtime = startDockRuntime({
      transport: new FakeTransport(),
      sessionId: s1,
      inspect: undefined,
      storage,
      onSnapshot: () => {},
      onEmitted: () => {},
    });
    t.after(() => runtime.stop());
    const { drafts } = runtime;
    // A draft's JSON is `{"values":{"a":"…"},"at":<13 digits>}`: 38 bytes around the text.
    const text = (draftBytes: number) => ({ a: 'x'.repeat(draftBytes - 38) });
    assert.equal(drafts.save('exact', text(32 * 1024)), true, 'a draft of exactly 32 KiB is kept');
    assert.equal(drafts.save('over', text(32 * 1024 + 1)), false, 'one byte more is not');
    assert.equal(drafts.save('big', text(40 * 1024)), false);
    drafts.clear('exact');
    for (let i = 0; i < 10; i++) assert.equal(drafts.save(`sf-${i}`, text(30 * 1024)), true);
    // Four 30 KiB drafts fit in 128 KiB, five do not: the oldest go.
    assert.deepEqual(Object.keys(drafts.store.getSnapshot().context.drafts).sort(), ['sf-6', 'sf-7', 'sf-8', 'sf-9']);
    const stored = storage.map.get(draftStorageKey(s1))!;
    assert.ok(new TextEncoder().encode(stored).length <= 128 * 1024, `${stored.length} bytes stored`);
  });

  it('persists per session and surface, and a new store reads it back', () => {
    const storage = memoryStorage();
    const a = createDraftStore({ sessionId: s1, storage });
    assert.equal(a.save('sf-1', { name: 'Ada' }), true);
    a.dispose();
    assert.deepEqual(createDraftStore({ sessionId: s1, storage }).get('sf-1'), { name: 'Ada' });
    assert.equal(createDraftStore({ sessionId: 's2' as SessionId, storage }).get('sf-1'), undefined);
    assert.deepEqual([...storage.map.keys()], [draftStorageKey(s1)]);
  });

  it('refuses a draft over the per-draft bound and keeps the last one that fit', () => {
    const store = createDraftStore({ sessionId: s1, storage: memoryStorage(), maxDraftBytes: 100 });
    assert.equal(store.save('sf-1', { a: 'short' }), true);
    assert.equal(store.save('sf-1', { a: 'x'.repeat(200) }), false);
    assert.deepEqual(store.get('sf-1'), { a: 'short' });
  });

  it('keeps the note with the values, counts it in the per-draft bound, and drops a blank one', () => {
    const storage = memoryStorage();
    const store = createDraftStore({ sessionId: s1, storage, maxDraftBytes: 120 });
    assert.equal(store.save('sf-1', { a: 'x' }, 'call me later'), true);
    assert.equal(createDraftStore({ sessionId: s1, storage }).getNote('sf-1'), 'call me later');
    assert.equal(store.save('sf-1', { a: 'x' }, 'n'.repeat(200)), false, 'a note that makes the draft too big is not kept');
    assert.equal(store.getNote('sf-1'), 'call me later');
    assert.equal(store.save('sf-1', { a: 'y' }, ''), true);
    assert.equal(store.getNote('sf-1'), undefined);
    assert.doesNotMatch(storage.map.get(draftStorageKey(s1))!, /note/);
  });

  it('evicts the oldest drafts to stay under the per-session bound', () => {
    let now = 0;
    const store = createDraftStore({ sessionId: s1, storage: memoryStorage(), maxSessionBytes: 200, now: () => ++now });
    store.save('old', { a: 'x'.repeat(60) });
    store.save('mid', { a: 'y'.repeat(60) });
    store.save('new', { a: 'z'.repeat(60) });
    assert.deepEqual(Object.keys(store.store.getSnapshot().context.drafts), ['mid', 'new']);
  });

  it('evicts the draft changed longest ago, not the one saved first, and never the one just typed', () => {
    let now = 0;
    const drafts = (store: ReturnType<typeof createDraftStore>) => Object.keys(store.store.getSnapshot().context.drafts).sort();
    const store = createDraftStore({ sessionId: s1, storage: memoryStorage(), maxSessionBytes: 300, now: () => ++now });
    for (const id of ['a', 'b', 'c', 'd']) store.save(id, { v: id.repeat(40) });
    store.save('a', { v: 'A'.repeat(40) }); // typed in again: now the newest
    store.save('e', { v: 'e'.repeat(40) });
    assert.deepEqual(drafts(store), ['a', 'c', 'd', 'e'], 'b changed longest ago; a was saved first but typed in since');
    // Two saves in one millisecond: the surface typed into keeps its draft, the other goes.
    const sameMs = createDraftStore({ sessionId: s1, storage: null, maxSessionBytes: 150, now: () => 7 });
    sameMs.save('first', { v: 'x'.repeat(20) });
    sameMs.save('second', { v: 'y'.repeat(20) });
    assert.equal(sameMs.save('first', { v: 'x'.repeat(60) }), true);
    assert.deepEqual(drafts(sameMs), ['first']);
  });

  it('keeps a session exactly at its bound and evicts at one byte over', () => {
    const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;
    const two = { one: { values: { v: 'x' }, at: 1 }, two: { values: { v: 'y' }, at: 2 } };
    let now = 0;
    const exact = createDraftStore({ sessionId: s1, storage: null, maxSessionBytes: bytes(two), now: () => ++now });
    exact.save('one', { v: 'x' });
    exact.save('two', { v: 'y' });
    assert.deepEqual(Object.keys(exact.store.getSnapshot().context.drafts), ['one', 'two']);
    now = 0;
    const under = createDraftStore({ sessionId: s1, storage: null, maxSessionBytes: bytes(two) - 1, now: () => ++now });
    under.save('one', { v: 'x' });
    under.save('two', { v: 'y' });
    assert.deepEqual(Object.keys(under.store.getSnapshot().context.drafts), ['two']);
  });

  it('clears a draft and removes the key when the session has none', () => {
    const storage = memoryStorage();
    const store = createDraftStore({ sessionId: s1, storage });
    store.save('sf-1', { a: 'b' });
    store.clear('sf-1');
    assert.equal(storage.map.size, 0);
  });

  it('ignores unreadable or malformed stored data', () => {
    const storage = memoryStorage();
    storage.map.set(draftStorageKey(s1), '{"sf-1":{"values":[1],"at":1},"sf-2":{"values":{"a":"b"},"at":2}, bad');
    assert.equal(createDraftStore({ sessionId: s1, storage }).get('sf-2'), undefined);
    storage.map.set(draftStorageKey(s1), '{"sf-1":{"values":[1],"at":1},"sf-2":{"values":{"a":"b"},"at":2}}');
    const store = createDraftStore({ sessionId: s1, storage });
    assert.equal(store.get('sf-1'), undefined);
    assert.deepEqual(store.get('sf-2'), { a: 'b' });
    // Drafts stored as a list (another version, another script): none read back, not even by index.
    storage.map.set(draftStorageKey(s1), '[{"values":{"a":"b"},"at":1}]');
    assert.equal(createDraftStore({ sessionId: s1, storage }).get('0'), undefined);
  });

  it('reads back only well-formed drafts: values an object, at a number, a note only when not blank', () => {
    const storage = memoryStorage();
    const read = (stored: unknown) => {
      storage.map.set(draftStorageKey(s1), JSON.stringify(stored));
      return createDraftStore({ sessionId: s1, storage }).store.getSnapshot().context.drafts;
    };
    assert.deepEqual(read([{ values: {}, at: 1 }]), {});
    assert.deepEqual(read(null), {});
    assert.deepEqual(read('text'), {});
    assert.deepEqual(
      read({
        none: null,
        noValues: { at: 1 },
        nullValues: { values: null, at: 1 },
        listValues: { values: [], at: 1 },
        noAt: { values: {} },
        textAt: { values: {}, at: '1' },
        blankNote: { values: { a: 1 }, at: 1, note: '' },
        oddNote: { values: { a: 1 }, at: 1, note: 7 },
        note: { values: { a: 1 }, at: 2, note: 'later', extra: true },
      }),
      { blankNote: { values: { a: 1 }, at: 1 }, oddNote: { values: { a: 1 }, at: 1 }, note: { values: { a: 1 }, at: 2, note: 'later' } },
    );
  });

  it('keeps working in memory when storage throws (quota, privacy mode)', () => {
    const throwing = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => {
        throw new Error('SecurityError');
      },
    };
    const store = createDraftStore({ sessionId: s1, storage: throwing });
    assert.equal(store.save('sf-1', { a: 'b' }), true);
    assert.deepEqual(store.get('sf-1'), { a: 'b' });
    store.clear('sf-1');
    assert.equal(store.get('sf-1'), undefined);
  });

  it("uses the page's localStorage by default, and memory only where reading it throws", (t) => {
    const descriptor = Object.getOwnPropertyDescriptor(globalThis, 'localStorage');
    t.after(() => {
      if (descriptor) Object.defineProperty(globalThis, 'localStorage', descriptor);
      else delete (globalThis as { localStorage?: unknown }).localStorage;
    });
    const page = memoryStorage();
    Object.defineProperty(globalThis, 'localStorage', { configurable: true, get: () => page });
    createDraftStore({ sessionId: s1 }).save('sf-1', { a: 'b' });
    assert.deepEqual(JSON.parse(page.map.get(draftStorageKey(s1))!)['sf-1'].values, { a: 'b' });
    Object.defineProperty(globalThis, 'localStorage', {
      configurable: true,
      get: () => {
        throw new Error('SecurityError: opaque origin');
      },
    });
    const inMemory = createDraftStore({ sessionId: s1 });
    assert.equal(inMemory.get('sf-1'), undefined, 'nothing read');
    assert.equal(inMemory.save('sf-2', { a: 'c' }), true);
  });

  it('stops writing to storage once disposed; the stored drafts stay for the next mount', () => {
    const storage = memoryStorage();
    const store = createDraftStore({ sessionId: s1, storage });
    store.save('sf-1', { a: 'b' });
    store.dispose();
    store.save('sf-1', { a: 'changed' });
    store.clear('sf-1');
    assert.deepEqual(createDraftStore({ sessionId: s1, storage }).get('sf-1'), { a: 'b' });
  });

  it('names the storage key after the session', () => {
    assert.equal(draftStorageKey(s1), 'task-surface:drafts:s1');
  });

  it('keeps drafts in memory only with storage: null, and knows no note of an unknown surface', () => {
    const store = createDraftStore({ sessionId: s1, storage: null });
    assert.equal(store.getNote('nosuch'), undefined);
    assert.equal(store.save('sf-1', { a: 'b' }, 'later'), true);
    assert.equal(store.getNote('sf-1'), 'later');
    store.clear('sf-1');
    assert.equal(store.get('sf-1'), undefined);
  });
});
