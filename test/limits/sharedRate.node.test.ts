// Messages per minute counted in a bucket several processes share (`createHost({ messageRate })`): a
// message that would be admitted awaits its token, then its whole path runs again from the top, so
// whatever changed while it waited (the same message admitted meanwhile, a full queue, a closed
// surface) is answered as if it had arrived then, and the token goes back. The bucket here is the
// Host's own (MessageRate) behind a promise the test releases; PostgreSQL's: sharedRatePostgres.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createHost } from '../../host/createHost.js';
import { MessageRate, type SharedMessageRate } from '../../host/limits/index.js';
import { createMemoryStore } from '../../host/store/memory.js';
import type { CreateHostOptions, Host } from '../../host/types.js';
import type { MessageId, SessionId } from '../../protocol/index.js';
import { ids, manualSurface, ScriptedDriver } from '../host/helpers.js';

const NOW = 1_000_000;
const ann = { id: 'ann' };

/** A shared bucket whose takes wait for `release()` while `held`; what was taken and given back is recorded. */
function heldRate() {
  const bucket = new MessageRate(2, () => NOW);
  const waiting: (() => void)[] = [];
  const seen = { taken: [] as string[], refunded: [] as string[], asked: [] as number[] };
  let down: Error | null = null;
  let held = false;
  const rate: SharedMessageRate = {
    async take(principal, perMinute) {
      seen.asked.push(perMinute);
      if (held) await new Promise<void>((resolve) => waiting.push(resolve));
      if (down) throw down;
      const wait = bucket.take(principal);
      if (wait === 0) seen.taken.push(principal);
      return wait;
    },
    refund(principal) {
      seen.refunded.push(principal);
    },
  };
  return {
    rate,
    seen,
    hold: () => void (held = true),
    /** Lets every waiting take go on, in the order they came. */
    release() {
      held = false;
      for (const go of waiting.splice(0)) go();
    },
    waiting: () => waiting.length,
    fail: (error: Error | null) => void (down = error),
  };
}

/** A Host on that bucket (2 messages a minute), its rows left queued; every principal may write every session. */
function hostOn(messageRate: SharedMessageRate | undefined, options: Partial<CreateHostOptions> = {}) {
  const driver = new ScriptedDriver();
  const host = createHost({
    store: createMemoryStore(),
    driver,
    autoAdmit: false,
    clock: () => NOW,
    policy: () => 'write',
    quotas: { messagesPerMinute: 2 },
    ...(messageRate ? { messageRate } : {}),
    onError: () => undefined,
    ...options,
  });
  return { host, driver };
}

const message = (sessionId: SessionId, messageId: MessageId = ids.message()) => ({ sessionId, messageId, rpcId: ids.rpc(), text: 'hi' });
const queued = (host: Host, sessionId: SessionId) => host.getView(sessionId).queue.map((row) => row.messageId);
/** Until the Host has asked the bucket `n` times. */
const takesAsked = async (bucket: ReturnType<typeof heldRate>, n: number) => {
  while (bucket.waiting() < n) await new Promise((resolve) => setImmediate(resolve));
};
/** Starts `call` with the bucket held, and comes back once its take waits: `late` settles after `release()`. */
const whileTaking = async <T>(bucket: ReturnType<typeof heldRate>, call: () => Promise<T>) => {
  bucket.hold();
  const late = call();
  await takesAsked(bucket, 1);
  return { late };
};

describe('messages per minute from a shared bucket', () => {
  it('a take that ends after the same message was admitted answers it as a repeat and gives the token back', async () => {
    const bucket = heldRate();
    const { host } = hostOn(bucket.rate);
    const sessionId = host.openSession({ title: 'T' });
    const first = message(sessionId);
    const { late } = await whileTaking(bucket, () => host.as(ann).session.send(first));
    // Meanwhile the same message arrives by another way and is admitted (host code takes no token).
    const admitted = await host.session.send(first);
    assert.ok(admitted.accepted);
    bucket.release();
    assert.deepEqual(await late, admitted, 'the first answer, as for any retry');
    assert.deepEqual(queued(host, sessionId), [first.messageId], 'one message');
    assert.deepEqual(bucket.seen, { taken: ['ann'], refunded: ['ann'], asked: [2] });
  });

  it('two sends of one messageId at once queue one message; the other answers the repeat and gives its token back', async () => {
    const bucket = heldRate();
    const { host } = hostOn(bucket.rate);
    const sessionId = host.openSession({ title: 'T' });
    const same = message(sessionId);
    bucket.hold();
    const both = [host.as(ann).session.send(same), host.as(ann).session.send(same)];
    await takesAsked(bucket, 2);
    bucket.release();
    const [a, b] = await Promise.all(both);
    assert.ok(a?.accepted);
    assert.deepEqual(b, a);
    assert.deepEqual(queued(host, sessionId), [same.messageId]);
    assert.deepEqual(bucket.seen.taken, ['ann', 'ann']);
    assert.deepEqual(bucket.seen.refunded, ['ann']);
  });

  it('a send whose queue filled while it took its token is queue-full, its token given back', async () => {
    const bucket = heldRate();
    const { host } = hostOn(bucket.rate, { maxQueuedMessages: 1 });
    const sessionId = host.openSession({ title: 'T' });
    const { late } = await whileTaking(bucket, () => host.as(ann).session.send(message(sessionId)));
    assert.ok((await host.session.send(message(sessionId))).accepted);
    bucket.release();
    assert.deepEqual(await late, { accepted: false, reason: 'queue-full' });
    assert.deepEqual(bucket.seen.refunded, ['ann']);
  });

  it('past the rate the answer is word for word the one a Host counting in its own memory gives', async () => {
    const shared = hostOn(heldRate().rate).host;
    const local = hostOn(undefined).host;
    const answers = [];
    for (const host of [shared, local]) {
      const sessionId = host.openSession({ title: 'T' });
      const sent = [];
      for (let i = 0; i < 3; i++) sent.push(await host.as(ann).session.send(message(sessionId)));
      assert.equal(queued(host, sessionId).length, 2, 'nothing queued past the rate');
      answers.push(sent.map((answer) => (answer.accepted ? 'accepted' : answer)));
    }
    assert.deepEqual(answers[0], [
      'accepted',
      'accepted',
      {
        accepted: false,
        reason: 'quota-exceeded',
        message: 'this principal sent 2 messages in the last minute (at most 2); send again in 30 s',
        retryAfterMs: 30_000,
      },
    ]);
    assert.deepEqual(answers[1], answers[0]);
  });

  it('a bucket that cannot be read refuses the message clearly and queues nothing; a message already admitted still answers', async () => {
    const bucket = heldRate();
    const { host } = hostOn(bucket.rate);
    const sessionId = host.openSession({ title: 'T' });
    const before = message(sessionId);
    assert.ok((await host.as(ann).session.send(before)).accepted);
    bucket.fail(new Error('connection terminated'));
    const next = message(sessionId);
    await assert.rejects(host.as(ann).session.send(next), {
      name: 'HostStoreError',
      message: `session ${sessionId}: the store failed during session.send (counting the principal's messages): connection terminated`,
    });
    assert.deepEqual(queued(host, sessionId), [before.messageId], 'nothing admitted uncounted');
    assert.ok((await host.as(ann).session.send(before)).accepted, 'a retry of an admitted message needs no token');
    bucket.fail(null);
    assert.ok((await host.as(ann).session.send(next)).accepted, 'the same message once the bucket answers');
    assert.deepEqual(queued(host, sessionId), [before.messageId, next.messageId]);
    assert.deepEqual(bucket.seen.refunded, []);
  });

  it('a submission admitted while its twin took a token is answered once, with one message', async () => {
    const bucket = heldRate();
    const { host, driver } = hostOn(bucket.rate);
    const { sessionId, surfaceId } = await manualSurface(host, driver);
    const submission = { sessionId, surfaceId, submissionId: ids.submission(), values: { plan: 'a', why: 'cheaper' } };
    const before = queued(host, sessionId).length;
    const { late } = await whileTaking(bucket, () => host.as(ann).taskSurface.submit(submission));
    const admitted = await host.taskSurface.submit(submission);
    assert.ok(admitted.accepted);
    bucket.release();
    assert.deepEqual(await late, admitted);
    assert.equal(queued(host, sessionId).length, before + 1);
    assert.deepEqual(bucket.seen.refunded, ['ann']);
  });

  it('a submission whose surface closed while it took its token is not admitted, its token given back', async () => {
    const bucket = heldRate();
    const { host, driver } = hostOn(bucket.rate);
    const { sessionId, surfaceId } = await manualSurface(host, driver);
    const submission = { sessionId, surfaceId, submissionId: ids.submission(), values: { plan: 'a', why: 'x' } };
    const { late } = await whileTaking(bucket, () => host.as(ann).taskSurface.submit(submission));
    assert.ok((await host.taskSurface.dismiss({ sessionId, surfaceId, dismissalId: ids.dismissal() })).dismissed);
    bucket.release();
    assert.equal((await late).accepted, false);
    assert.deepEqual(bucket.seen.refunded, ['ann']);
  });

  it("host code's messages take no token", async () => {
    const bucket = heldRate();
    const { host } = hostOn(bucket.rate);
    const sessionId = host.openSession({ title: 'T' });
    for (let i = 0; i < 3; i++) assert.ok((await host.session.send(message(sessionId))).accepted);
    assert.deepEqual(bucket.seen.asked, []);
  });
});
