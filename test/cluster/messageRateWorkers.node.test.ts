// One person through `npm start -- --workers 3` whose sessions are owned by three different workers:
// their messages a minute hold for the cluster as a whole (one bucket per principal in PostgreSQL),
// not 30 from each worker. Without the shared bucket each owner would count its own 30, and the
// person would get about 90 before the first refusal.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Person } from '../../fixtures/cluster/people.js';
import { freshSchema, startWorkersDemo, type WorkersDemo } from './helpers.js';

type Sent = { accepted: boolean; reason?: string; message?: string; retryAfterMs?: number };

describe('npm start -- --workers 3: one principal’s messages a minute', { timeout: 180_000 }, () => {
  let db: Awaited<ReturnType<typeof freshSchema>>;
  let demo: WorkersDemo;
  const sockets: Person[] = [];

  before(async () => {
    db = await freshSchema('msgworkers');
    demo = await startWorkersDemo(db.schema);
  });
  after(async () => {
    for (const person of sockets) person.socket?.terminate();
    await demo?.stop();
    await db?.drop();
  });

  it('30 messages to sessions of three workers, then quota-exceeded from whichever owns the next', async () => {
    const address = '127.0.4.1';
    const first = new Person(address, demo.port);
    await first.identify();
    // One socket a connection, dealt round-robin over the workers: each opens a session its worker owns.
    const owners = new Map<string, Person>();
    for (let tries = 0; owners.size < 3 && tries < 12; tries++) {
      const person = new Person(address, demo.port);
      person.cookie = first.cookie;
      sockets.push(person);
      await person.connect(Date.now() + 30_000);
      const opened = await person.ask('session.open', { title: `tab ${tries}` }, 10_000);
      assert.ok(opened !== 'silent' && opened.type === 'result', JSON.stringify(opened));
      person.sessionId = (opened.result as { sessionId: string }).sessionId;
      const { rows } = await db.pool.query(`SELECT owner_id FROM "${db.schema}".ts_session_owners WHERE session_id = $1`, [
        person.sessionId,
      ]);
      const owner = rows[0]?.owner_id as string | undefined;
      if (owner && !owners.has(owner)) owners.set(owner, person);
      else person.socket?.terminate();
    }
    assert.equal(owners.size, 3, 'sessions owned by three workers');

    const tabs = [...owners.values()];
    const startedAt = Date.now();
    let accepted = 0;
    let refused: Sent | undefined;
    for (let i = 0; i < 100 && !refused; i++) {
      const tab = tabs[i % tabs.length]!;
      const answer = await tab.ask(
        'session.send',
        { sessionId: tab.sessionId, messageId: `rate-m${i}`, rpcId: `rate-r${i}`, text: 'hi' },
        10_000,
      );
      assert.ok(answer !== 'silent' && answer.type === 'result', JSON.stringify(answer));
      const sent = answer.result as Sent;
      if (sent.accepted) accepted++;
      else refused = sent;
    }
    // The bucket refills one message every 2 s while they are sent (a loaded machine is slow).
    const refilled = Math.ceil((Date.now() - startedAt) / 2_000);
    assert.ok(accepted >= 30, `${accepted} accepted: the first 30 must be`);
    assert.ok(accepted <= 30 + refilled, `${accepted} accepted in ${Date.now() - startedAt} ms: at most 30 and ${refilled} refilled`);
    assert.equal(refused?.reason, 'quota-exceeded', JSON.stringify(refused));
    assert.match(refused.message!, /^this principal sent 30 messages in the last minute \(at most 30\); send again in [12] s$/);
    assert.ok(refused.retryAfterMs! > 0 && refused.retryAfterMs! <= 2_000);
  });
});
