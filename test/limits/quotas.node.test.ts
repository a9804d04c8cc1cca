// Each per-principal limit of a Host built without options (its documented default), tried over the
// real WebSocket transport: refused with its code, nothing changed, and nobody else affected.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createMemoryStore } from '../../host/store/memory.js';
import { TransportError } from '../../transport/types.js';
import { latch, say, servedHost } from './helpers.js';

describe('per-principal limits over WebSocket, at their defaults', () => {
  it('sessions: the 201st session.open (and fork) is quota-exceeded; others still open theirs', async (t) => {
    const { as, host } = await servedHost(t);
    const mallory = as('mallory');
    const opened = await Promise.all(Array.from({ length: 200 }, (_, i) => mallory.openSession({ title: `s${i}` })));
    const refused = await mallory.openSession().catch((e: unknown) => e);
    assert.ok(refused instanceof TransportError && refused.code === 'quota-exceeded', String(refused));
    assert.match(refused.message, /already owns 200 sessions \(at most 200\)/);
    assert.equal(host.listSessionsOf('mallory').length, 200, 'nothing was opened past it');
    assert.throws(() => host.as({ id: 'mallory' }).fork(opened[0]!.sessionId), { code: 'quota-exceeded', limit: 'sessions' });
    const alice = as('alice');
    assert.equal((await alice.openSession({ title: 'mine' })).title, 'mine');
  });

  it('messages per minute: the 31st is quota-exceeded with retryAfterMs; a retry of an accepted one is still accepted', async (t) => {
    const { as } = await servedHost(t);
    const mallory = as('mallory');
    const { sessionId } = await mallory.openSession();
    const first = await say(mallory, sessionId, 'one');
    for (let i = 1; i < 30; i++) assert.equal((await say(mallory, sessionId, `m${i}`)).accepted, true);
    const refused = await say(mallory, sessionId, 'too many');
    assert.equal(refused.accepted, false);
    assert.ok(!refused.accepted && refused.reason === 'quota-exceeded' && refused.retryAfterMs! > 0 && refused.retryAfterMs! <= 2_000);
    assert.equal(
      refused.message,
      `this principal sent 30 messages in the last minute (at most 30); send again in ${Math.ceil(refused.retryAfterMs! / 1000)} s`,
    );
    assert.ok(first.accepted);
    assert.deepEqual(await say(mallory, sessionId, 'one', first.messageId), first, 'the same message again: its first answer');
    const alice = as('alice');
    const mine = await alice.openSession();
    assert.equal((await say(alice, mine.sessionId)).accepted, true, 'another principal has its own minute');
  });

  it('turns at once: a 5th session is too-busy while 4 run; a message to a running one still queues', async (t) => {
    const release = latch();
    const { as } = await servedHost(t, {
      driver: {
        async runTurn() {
          await release.opened;
        },
      },
    });
    const mallory = as('mallory');
    const sessions = await Promise.all(Array.from({ length: 5 }, () => mallory.openSession()));
    for (const s of sessions.slice(0, 4)) assert.equal((await say(mallory, s.sessionId)).accepted, true);
    const busy = await say(mallory, sessions[4]!.sessionId);
    assert.deepEqual(busy, {
      accepted: false,
      reason: 'too-busy',
      message: '4 sessions of this principal are running a turn (at most 4); send again when one finishes',
      retryAfterMs: 1_000,
    });
    assert.equal((await say(mallory, sessions[0]!.sessionId, 'more')).accepted, true, 'queued behind its running turn');
    const alice = as('alice');
    assert.equal((await say(alice, (await alice.openSession()).sessionId)).accepted, true, 'others run theirs');
    release.open();
    await new Promise((r) => setTimeout(r, 50));
    assert.equal((await say(mallory, sessions[4]!.sessionId)).accepted, true, 'once they finished');
  });

  it('stored bytes: a session at 16 MiB, or a principal at 128 MiB in all, takes no more input', async (t) => {
    // The store reports the sizes (a real log that large is not needed to try the Host's rule).
    const store = createMemoryStore();
    const inflated = new Map<string, number>();
    const storedBytes = (id: string) => (inflated.get(id) ?? 0) + store.storedBytes(id as never);
    const sized = Object.assign(Object.create(store) as typeof store, {
      storedBytes,
      listSessionsOf: (owner: string) => store.listSessionsOf(owner).map((s) => ({ ...s, bytes: storedBytes(s.sessionId) })),
    });
    const { as } = await servedHost(t, { store: sized });
    const mallory = as('mallory');
    const [full, other] = [await mallory.openSession(), await mallory.openSession()];
    inflated.set(full.sessionId, 16 * 1024 * 1024);
    const refused = await say(mallory, full.sessionId);
    assert.deepEqual(refused, {
      accepted: false,
      reason: 'quota-exceeded',
      message: "this session's log holds 16.0 MiB (at most 16.0 MiB): it takes no more input; start a new session",
    });
    assert.equal((await say(mallory, other.sessionId)).accepted, true, 'another session of the same principal still takes input');
    inflated.set(full.sessionId, 0);
    inflated.set(other.sessionId, 128 * 1024 * 1024);
    const [a, b] = [await say(mallory, full.sessionId), await say(mallory, other.sessionId)];
    assert.ok(!a.accepted && a.reason === 'quota-exceeded' && !b.accepted && b.reason === 'quota-exceeded');
    assert.equal(a.message, 'the sessions of this principal hold 128.0 MiB (at most 128.0 MiB): they take no more input');
    assert.equal(b.message, "this session's log holds 128.0 MiB (at most 16.0 MiB): it takes no more input; start a new session");
    const opened = await mallory.openSession().catch((e: unknown) => e);
    assert.ok(opened instanceof TransportError && opened.code === 'quota-exceeded', 'no new session either');
    const alice = as('alice');
    assert.equal((await say(alice, (await alice.openSession()).sessionId)).accepted, true);
  });
});
