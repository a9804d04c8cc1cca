import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createDraftStore, draftStorageKey } from '../../components/drafts/draftStore.js';
import type { SessionId } from '../../protocol/index.js';

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
    assert.equal(store.get('old'), undefined);
    assert.ok(store.get('new'));
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
  });
});
