// A watch relayed to a frozen owner (SIGSTOP: its TCP connection stays open, it answers nothing) moves
// without any request and without its connection breaking: the peer connection hears no pong for
// `peers.stallMs`, the watch waits for the owner's heartbeat to expire by the database's clock, and the
// watching process takes the session over, within the expiry + 3 s.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { mintMessageId, mintRpcId, type SessionId, type SessionView } from '../../protocol/index.js';
import { clusterFixture, within, type Worker } from './helpers.js';

const EXPIRY_MS = 3_000;

describe('a relayed watch and a frozen owner', { timeout: 120_000 }, () => {
  const cluster = clusterFixture('frozenwatch');
  let a: Worker;
  let b: Worker;
  before(async () => {
    a = await cluster.start({ EXPIRY_MS: String(EXPIRY_MS) });
    b = await cluster.start({ EXPIRY_MS: String(EXPIRY_MS) });
  });

  it('moves to the watching process within the expiry + 3 s, and its views go on', async (t) => {
    const { sessionId: id } = await cluster.client(a).openSession({ title: 'owned by A' });
    const sessionId = id as SessionId;
    const onB = cluster.client(b);
    const views: SessionView[] = [];
    onB.watchSession(sessionId, (view) => views.push(view));
    await within(
      20_000,
      () => views.length > 0,
      () => 'no first view through B',
    );
    const ownerOf = async () =>
      (await cluster.db.pool.query(`SELECT owner_id FROM "${cluster.db.schema}".ts_session_owners WHERE session_id = $1`, [sessionId]))
        .rows[0]?.owner_id as string | undefined;
    assert.equal(await ownerOf(), a.workerId);

    a.child.kill('SIGSTOP');
    t.after(() => a.child.kill('SIGCONT'));
    const frozenAt = Date.now();
    // Nobody asks anything: only the watch can notice.
    let owner: string | undefined;
    while (Date.now() - frozenAt < EXPIRY_MS + 10_000 && (owner = await ownerOf()) !== b.workerId) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const movedAfter = Date.now() - frozenAt;
    assert.equal(owner, b.workerId, `the session stayed with ${owner} for ${movedAfter} ms`);
    assert.ok(movedAfter <= EXPIRY_MS + 3_000, `taken over ${movedAfter} ms after the freeze`);

    // The watch is the new owner's now: a message sent through B shows in the views it already had.
    const before = views.at(-1)!.lastSeq;
    const sent = await onB.session.send({ sessionId, messageId: mintMessageId(), rpcId: mintRpcId(), text: 'still watching?' });
    assert.equal(sent.accepted, true);
    await within(
      20_000,
      () => views.at(-1)!.lastSeq > before,
      () => `the watch saw nothing after seq ${before}`,
    );
  });
});
