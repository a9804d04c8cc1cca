// The per-principal limits' answers word for word, over a store whose sizes and owners the test
// sets: the MiB figures, the principal-bytes code, the bounds (at a quota passes, one more is not),
// and host code's sessions (owner null) and switched-off quotas never refused.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createPrincipalLimits, DEFAULT_QUOTAS, type Quotas } from '../../host/limits/index.js';
import type { SessionLogStore } from '../../host/store/types.js';
import { LimitExceededError, type SessionId } from '../../protocol/index.js';

const MiB = 1024 * 1024;

/** Limits over a fake store: `owners` says who owns each session (null: host code), `sizes` its bytes. */
function limitsOver(quotas: Partial<Quotas> = {}) {
  const sizes = new Map<string, number>();
  const owners = new Map<string, string | null>();
  const busy = new Set<string>();
  let now = 1_000_000;
  const store = {
    storedBytes: (id: string) => sizes.get(id) ?? 0,
    listSessionsOf: (owner: string) =>
      [...owners].filter(([, o]) => o === owner).map(([sessionId]) => ({ sessionId, bytes: sizes.get(sessionId) ?? 0 })),
  } as unknown as SessionLogStore;
  const limits = createPrincipalLimits({
    store,
    quotas: { ...DEFAULT_QUOTAS, ...quotas },
    clock: () => now,
    ownerOf: (id) => owners.get(id) ?? null,
    busy: (id) => busy.has(id),
    publish: () => undefined,
  });
  const session = (id: string, owner: string | null, bytes = 0) => {
    owners.set(id, owner);
    sizes.set(id, bytes);
    return id as SessionId;
  };
  return { limits, session, busy, sizes, tick: (ms: number) => (now += ms) };
}

const thrown = (fn: () => void) => {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof LimitExceededError);
    return { code: error.code, limit: error.limit, message: error.message };
  }
  return null;
};

it("a full session's log is refused in MiB to one decimal, and its stored bytes are the store's", () => {
  const { limits, session } = limitsOver({ bytesPerSession: 3 * MiB + MiB / 2 });
  const id = session('s1', 'ann', 3 * MiB + MiB / 2);
  assert.deepEqual(limits.admitMessage('ann', id), {
    reason: 'quota-exceeded',
    message: "this session's log holds 3.5 MiB (at most 3.5 MiB): it takes no more input; start a new session",
  });
  assert.equal(limits.storedBytes(id), 3 * MiB + MiB / 2);
});

it("a principal's full sessions are refused with their total; host code's sessions never are", () => {
  const { limits, session } = limitsOver({ bytesPerPrincipal: 5 * MiB });
  session('a1', 'ann', 3 * MiB);
  const a2 = session('a2', 'ann', 2 * MiB + MiB / 4);
  assert.deepEqual(limits.storageFull(a2), {
    reason: 'quota-exceeded',
    message: 'the sessions of this principal hold 5.3 MiB (at most 5.0 MiB): they take no more input',
  });
  session('h1', null, 3 * MiB);
  const h2 = session('h2', null, 3 * MiB);
  assert.equal(limits.storageFull(h2), null);
  assert.equal(limits.admitMessage('host', h2), null);
});

it('owning one more session: exactly at the byte quota passes, a byte more is principal-bytes', () => {
  const { limits, session } = limitsOver({ bytesPerPrincipal: 4 * MiB });
  session('a1', 'ann', 3 * MiB);
  assert.equal(
    thrown(() => limits.checkOwn('ann', MiB)),
    null,
  );
  assert.deepEqual(
    thrown(() => limits.checkOwn('ann', MiB + 1)),
    {
      code: 'quota-exceeded',
      limit: 'principal-bytes',
      message: 'the sessions of this principal hold 3.0 MiB and this adds 1.0 MiB (at most 4.0 MiB)',
    },
  );
  session('a2', 'ann', MiB + 1);
  assert.deepEqual(
    thrown(() => limits.checkOwn('ann')),
    { code: 'quota-exceeded', limit: 'principal-bytes', message: 'the sessions of this principal hold 4.0 MiB (at most 4.0 MiB)' },
  );
});

it('a fork adding less than it holds still counts what it adds', () => {
  const { limits, session } = limitsOver({ bytesPerPrincipal: 4 * MiB });
  session('a1', 'ann', 3 * MiB);
  assert.equal(thrown(() => limits.checkOwn('ann', 2 * MiB))?.limit, 'principal-bytes');
});

it('past its messages per minute a principal is told how many and how long to wait', () => {
  const { limits, session } = limitsOver({ messagesPerMinute: 2 });
  const id = session('a1', 'ann');
  assert.equal(limits.admitMessage('ann', id), null);
  assert.equal(limits.admitMessage('ann', id), null);
  assert.deepEqual(limits.admitMessage('ann', id), {
    reason: 'quota-exceeded',
    message: 'this principal sent 2 messages in the last minute (at most 2); send again in 30 s',
    retryAfterMs: 30_000,
  });
});

it('one message a minute is said in the singular', () => {
  const { limits, session } = limitsOver({ messagesPerMinute: 1 });
  const id = session('a1', 'ann');
  assert.equal(limits.admitMessage('ann', id), null);
  assert.deepEqual(limits.admitMessage('ann', id), {
    reason: 'quota-exceeded',
    message: 'this principal sent 1 message in the last minute (at most 1); send again in 60 s',
    retryAfterMs: 60_000,
  });
});

it('turns: a principal at its quota is too-busy, a session admitted again is not, host code never is', () => {
  const { limits, session, busy } = limitsOver({ turnsPerPrincipal: 1 });
  const [a1, a2] = [session('a1', 'ann'), session('a2', 'ann')];
  assert.equal(limits.admitMessage('ann', a1), null);
  assert.equal(limits.admitMessage('ann', a1), null); // a second message before its turn starts
  busy.add(a1);
  assert.deepEqual(limits.admitMessage('ann', a2), {
    reason: 'too-busy',
    message: '1 session of this principal is running a turn (at most 1); send again when one finishes',
    retryAfterMs: 1_000,
  });
  const [h1, h2] = [session('h1', null), session('h2', null)];
  assert.equal(limits.admitMessage('host', h1), null);
  busy.add(h1);
  assert.equal(limits.admitMessage('host', h2), null);
});

it('a turn host code started counts against the owner once a message reaches its session', () => {
  const { limits, session, busy } = limitsOver({ turnsPerPrincipal: 1 });
  const [a1, a2] = [session('a1', 'ann'), session('a2', 'ann')];
  busy.add(a1); // host code started a turn in ann's session
  assert.equal(limits.admitMessage('ann', a1), null, 'the message queues behind the running turn');
  assert.deepEqual(limits.admitMessage('ann', a2), {
    reason: 'too-busy',
    message: '1 session of this principal is running a turn (at most 1); send again when one finishes',
    retryAfterMs: 1_000,
  });
  busy.delete(a1);
  assert.equal(limits.admitMessage('ann', a2), null, 'once that turn ends another may start');
});

it('past 10,000 owners the idle ones are forgotten, but not an owner with a running turn', () => {
  const { limits, session, busy } = limitsOver({ turnsPerPrincipal: 2, messagesPerMinute: Infinity, bytesPerPrincipal: Infinity });
  const [a1, a2, b1, b2] = [session('a1', 'ann'), session('a2', 'ann'), session('b1', 'bob'), session('b2', 'bob')];
  // Each turn starts (busy) as soon as admitted, but a2's is yet to start while the others arrive.
  for (const [by, id] of [
    ['ann', a1],
    ['bob', b1],
    ['bob', b2],
    ['ann', a2],
  ] as const) {
    assert.equal(limits.admitMessage(by, id), null);
    if (id !== a2) busy.add(id);
  }
  for (let i = 0; i < 10_000; i++) assert.equal(limits.admitMessage(`p${i}`, session(`x${i}`, `p${i}`)), null);
  busy.add(a2);
  const words = (n: number) => `${n} sessions of this principal are running a turn (at most 2); send again when one finishes`;
  assert.deepEqual(limits.admitMessage('ann', session('a3', 'ann')), { reason: 'too-busy', message: words(2), retryAfterMs: 1_000 });
  assert.deepEqual(limits.admitMessage('bob', session('b3', 'bob')), { reason: 'too-busy', message: words(2), retryAfterMs: 1_000 });
});
