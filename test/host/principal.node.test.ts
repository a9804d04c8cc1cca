import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { UnknownSessionError } from '../../host/errors.js';
import { SYSTEM_PRINCIPAL, type SessionPolicy } from '../../host/principal.js';
import type { CardKind, CardKindContext, CreateHostOptions, Host, ScopedHost } from '../../host/types.js';
import type { CallId, InboxItemId, Principal, SessionId } from '../../protocol/index.js';
import * as z from 'zod/mini';
import { pageArgs } from '../action-cards/helpers.js';
import { goodValues, ids, makeHost, sampleModel, ScriptedDriver } from './helpers.js';
import { storeFactories, type StoreHandle } from './stores.js';

/*
 * Who is acting: `host.as(principal)` applies the Host's policy (default owner-only) to every call
 * a person makes, records the owner and `by`, and runs card handlers as the initiator.
 */

const alice: Principal = { id: 'alice@example.com', name: 'Alice' };
const bob: Principal = { id: 'bob', roles: ['viewer'] };

/** A kind whose one verb records who asked, and whose reconcile sees the initiator too. */
function recordingKind(seen: Principal[]): CardKind {
  return {
    action: 'create_page',
    skill: { name: 'create-page', text: 'Create a page.' },
    invitation: 'Save it as a page?',
    details: z.object({ pageTitle: z.string(), sections: z.array(z.string()) }),
    verbs: {
      confirm: {
        checks: ['writes'],
        async handler(ctx: CardKindContext) {
          seen.push(ctx.initiator);
          ctx.record('created', { by: ctx.initiator.id });
          return { status: 'accepted' };
        },
      },
      look: {
        async handler(ctx: CardKindContext) {
          seen.push(ctx.initiator);
          return { status: 'settled' };
        },
      },
    },
    async reconcile(ctx) {
      seen.push(ctx.initiator);
    },
  };
}

for (const factory of storeFactories) {
  describe(`principals and the session policy (${factory.name})`, () => {
    let handle: StoreHandle;
    let host: Host;
    let driver: ScriptedDriver;
    const start = async (policy?: SessionPolicy, onError?: (error: Error) => void, more: Partial<CreateHostOptions> = {}) => {
      handle = await factory.create();
      driver = new ScriptedDriver();
      host = makeHost(handle, { driver, ...(policy ? { policy } : {}), ...(onError ? { onError } : {}), ...more });
      return host;
    };
    afterEach(async () => {
      await host.dispose();
      await handle.cleanup();
    });

    const say = (as: ScopedHost, sessionId: SessionId, text: string) =>
      as.session.send({ sessionId, messageId: ids.message(), rpcId: ids.rpc(), text });

    /** A session of alice's with an open surface. */
    const aliceSurface = async () => {
      const me = host.as(alice);
      const sessionId = me.openSession({ title: 'Mine' });
      driver.showSurface(sampleModel());
      await say(me, sessionId, 'show a form');
      await host.whenIdle(sessionId);
      const active = host.getView(sessionId).taskSurface.active!;
      return { sessionId, surfaceId: active.surfaceId, callId: active.callId };
    };

    it('the opening event names the owner; the owner can do every operation and each durable event says by whom', async () => {
      await start();
      const me = host.as(alice);
      const { sessionId, surfaceId } = await aliceSurface();
      assert.deepEqual(
        me.listSessions().map((s) => s.sessionId),
        [sessionId],
      );
      assert.equal(me.sessionSummary(sessionId).title, 'Mine');
      assert.equal(me.getView(sessionId).sessionId, sessionId);
      let views = 0;
      me.watchSession(sessionId, () => views++)();
      assert.equal(views, 1);
      assert.equal((await me.taskSurface.getActive({ sessionId, surfaceId })).active, true);
      const submitted = await me.taskSurface.submit({ sessionId, surfaceId, submissionId: ids.submission(), values: goodValues });
      assert.equal(submitted.accepted, true);
      await host.whenIdle(sessionId);
      const events = (await me.readLog(sessionId, { limit: 100 })).events;
      assert.deepEqual(events[0] && { type: events[0].type, owner: (events[0] as { owner?: string }).owner }, {
        type: 'session/opened',
        owner: alice.id,
      });
      const users = events.filter((e) => e.type === 'user/message');
      assert.equal(users.length, 2);
      for (const message of users) assert.equal(message.source.by, alice.id, 'user messages and submissions name their sender');
      const queued = await say(me, sessionId, 'one more');
      assert.equal(queued.accepted, true);
      assert.equal(me.access(sessionId), 'write');
    });

    it('another principal is answered exactly as for a missing session, on every operation', async () => {
      await start();
      const { sessionId, surfaceId, callId } = await aliceSurface();
      const missing = 'no-such-session' as SessionId;
      const them = host.as(bob);
      const answers = async (id: SessionId) => {
        const thrown = (run: () => unknown) => {
          try {
            run();
            return 'no error';
          } catch (error) {
            assert.ok(error instanceof UnknownSessionError);
            return error.message.replace(id, 'X');
          }
        };
        const rejected = async (run: () => Promise<unknown>) => {
          try {
            await run();
            return 'no error';
          } catch (error) {
            assert.ok(error instanceof UnknownSessionError);
            return error.message.replace(id, 'X');
          }
        };
        return {
          summary: thrown(() => them.sessionSummary(id)),
          view: thrown(() => them.getView(id)),
          watch: thrown(() => them.watchSession(id, () => assert.fail('no view'))),
          fork: thrown(() => them.fork(id)),
          read: await rejected(() => them.readLog(id, { limit: 5 })),
          active: await them.taskSurface.getActive({ sessionId: id, surfaceId }),
          outcome: await them.taskSurface.getOutcome({ sessionId: id, surfaceId }),
          submit: await them.taskSurface.submit({ sessionId: id, surfaceId, submissionId: ids.submission(), values: goodValues }),
          dismiss: await them.taskSurface.dismiss({ sessionId: id, surfaceId, dismissalId: ids.dismissal() }),
          send: await say(them, id, 'hello'),
          update: await them.session.updateQueue({ sessionId: id, op: 'remove', itemId: 'item-1' as InboxItemId }),
          act: await them.actionCards.act({ sessionId: id, callId: callId as CallId, verb: 'confirm' }),
          access: them.access(id),
        };
      };
      const refused = await answers(sessionId);
      assert.deepEqual(refused, await answers(missing));
      assert.equal(refused.view, 'unknown session X');
      assert.deepEqual(refused.send, { accepted: false, reason: 'unknown-session' });
      assert.deepEqual(refused.outcome, { status: 'unknown' });
      assert.equal((await host.as(alice).taskSurface.getOutcome({ sessionId, surfaceId })).status, 'open');
      assert.deepEqual(them.listSessions(), []);
      // Nothing of bob's reached alice's session.
      assert.equal(host.getView(sessionId).taskSurface.active?.surfaceId, surfaceId);
      assert.equal(host.getView(sessionId).queue.length, 0);
    });

    it('asks the policy for a missing session too, the same way (call order)', async () => {
      const calls: string[] = [];
      await start((principal, session) => {
        calls.push(`${principal.id} ${session.sessionId} ${session.owner}`);
        return 'none';
      });
      const sessionId = host.as(alice).openSession();
      calls.length = 0;
      const them = host.as(bob);
      assert.throws(() => them.getView(sessionId), UnknownSessionError);
      assert.throws(() => them.getView('missing' as SessionId), UnknownSessionError);
      assert.deepEqual(calls, [`bob ${sessionId} alice@example.com`, 'bob missing null']);
    });

    it('a sharing policy gives read access: views and logs, but writes refused like a read-only session', async () => {
      const shared: SessionPolicy = (principal, session) =>
        session.owner === principal.id ? 'write' : principal.roles?.includes('viewer') ? 'read' : 'none';
      // The product names what it shares, for listing (here: alice's sessions, to every viewer).
      await start(shared, undefined, {
        sharedSessions: (p) => (p.roles?.includes('viewer') ? host.listSessionsOf(alice.id).map((s) => s.sessionId) : []),
      });
      const seen: Principal[] = [];
      host.actionCards.register(recordingKind(seen));
      const { sessionId, surfaceId } = await aliceSurface();
      const viewer = host.as(bob);
      assert.deepEqual(
        viewer.listSessions().map((s) => s.sessionId),
        [sessionId],
      );
      assert.equal(viewer.getView(sessionId).sessionId, sessionId);
      assert.equal(viewer.access(sessionId), 'read');
      assert.ok((await viewer.readLog(sessionId, { limit: 10 })).events.length > 0);
      assert.deepEqual(await say(viewer, sessionId, 'hi'), { accepted: false, reason: 'read-only' });
      assert.deepEqual(await viewer.taskSurface.submit({ sessionId, surfaceId, submissionId: ids.submission(), values: goodValues }), {
        accepted: false,
        reason: 'not-open',
      });
      assert.deepEqual(await viewer.taskSurface.dismiss({ sessionId, surfaceId, dismissalId: ids.dismissal() }), {
        dismissed: false,
        reason: 'not-open',
      });
      const row = await say(host.as(alice), sessionId, 'queued for later');
      assert.ok(row.accepted);
      assert.deepEqual(await viewer.session.updateQueue({ sessionId, op: 'remove', itemId: row.itemId }), {
        ok: false,
        reason: 'queue-item-not-found',
      });
      await host.whenIdle(sessionId);
      const texts = (await host.readLog(sessionId, { limit: 100 })).events.flatMap((e) => (e.type === 'user/message' ? [e.text] : []));
      assert.ok(texts.includes('queued for later'), 'the reader removed nothing');
      // A reader may fork: the fork is the reader's own.
      const fork = viewer.fork(sessionId);
      assert.equal(viewer.access(fork), 'write');
      assert.deepEqual(host.as({ id: 'carol' }).listSessions(), []);
      assert.deepEqual(
        host
          .as(alice)
          .listSessions()
          .map((s) => s.sessionId),
        [sessionId],
      );
    });

    it('act: the initiator reaches the handler and reconcile, the decision names it, writes need write access', async () => {
      await start((principal, session) => (session.owner === principal.id ? 'write' : principal.id === 'bob' ? 'read' : 'none'));
      const seen: Principal[] = [];
      host.actionCards.register(recordingKind(seen));
      const me = host.as(alice);
      const sessionId = me.openSession();
      let callId: CallId | undefined;
      driver.then(async (turn) => {
        turn.step();
        await turn.callTool('skill', { name: 'create-page' });
        const result = await turn.callTool('propose_action', pageArgs());
        callId = result.callId;
      });
      await say(me, sessionId, 'plan it');
      await host.whenIdle(sessionId);
      assert.ok(callId);
      assert.deepEqual(await host.as(bob).actionCards.act({ sessionId, callId, verb: 'confirm' }), {
        status: 'refused',
        reason: 'read-only',
      });
      assert.deepEqual(await host.as(bob).actionCards.act({ sessionId, callId, verb: 'look' }), { status: 'settled', phase: 'proposed' });
      assert.deepEqual(
        seen.map((p) => p.id),
        ['bob', 'bob'],
        'reconcile, then the handler of the verb bob may use',
      );
      seen.length = 0;
      const result = await me.actionCards.act({ sessionId, callId, verb: 'confirm' });
      assert.equal(result.status, 'accepted');
      assert.deepEqual(seen, [alice, alice]);
      const decision = (await host.readLog(sessionId, { limit: 100 })).events.find((e) => e.type === 'action-cards/decision');
      assert.equal(decision?.type === 'action-cards/decision' && decision.by, alice.id);
      assert.deepEqual(decision?.type === 'action-cards/decision' && decision.data, { by: alice.id });
    });

    it('a reader cannot withdraw, edit or steer a queued row: answered as if it were not there, and it stays', async () => {
      handle = await factory.create();
      driver = new ScriptedDriver();
      const shared: SessionPolicy = (principal, session) =>
        session.owner === principal.id ? 'write' : principal.id === 'bob' ? 'read' : 'none';
      host = makeHost(handle, { driver, policy: shared, autoAdmit: false }); // rows wait in the queue
      const sessionId = host.as(alice).openSession();
      const row = await say(host.as(alice), sessionId, 'queued for later');
      assert.ok(row.accepted);
      for (const change of [{ op: 'remove' as const }, { op: 'edit' as const, text: 'changed' }, { op: 'steer' as const }]) {
        assert.deepEqual(await host.as(bob).session.updateQueue({ sessionId, itemId: row.itemId, ...change }), {
          ok: false,
          reason: 'queue-item-not-found',
        });
      }
      assert.deepEqual(
        host.getView(sessionId).queue.map((r) => [r.id, r.text]),
        [[row.itemId, 'queued for later']],
      );
      assert.deepEqual(await host.as(alice).session.updateQueue({ sessionId, op: 'remove', itemId: row.itemId }), { ok: true });
      assert.deepEqual(host.getView(sessionId).queue, []);
    });

    it('read-only sessions stay read-only for their owner; Not now and dismissals record by whom', async () => {
      await start();
      const me = host.as(alice);
      const readOnly = me.openSession({ readOnly: true });
      assert.deepEqual(await say(me, readOnly, 'hi'), { accepted: false, reason: 'read-only' });
      const { sessionId, surfaceId } = await aliceSurface();
      assert.deepEqual(await me.taskSurface.dismiss({ sessionId, surfaceId, dismissalId: ids.dismissal() }), {
        dismissed: true,
        eventSeq: host.getView(sessionId).lastSeq,
      });
      const dismissed = (await host.readLog(sessionId, { limit: 100 })).events.find((e) => e.type === 'task-surface/dismissed');
      assert.equal(dismissed?.type === 'task-surface/dismissed' && dismissed.by, alice.id);
    });

    it('owners survive a restart; a fork belongs to whoever forked it (also after a restart)', async () => {
      await start((principal, session) => (session.owner === principal.id ? 'write' : principal.id === 'bob' ? 'read' : 'none'));
      const me = host.as(alice);
      const sessionId = me.openSession({ title: 'Kept' });
      await say(me, sessionId, 'hello');
      await host.whenIdle(sessionId);
      const bobsFork = host.as(bob).fork(sessionId);
      const emptyFork = me.fork(sessionId, { throughSeq: 0 });
      const systemFork = host.fork(sessionId);
      await host.dispose();
      host = makeHost({ ...handle, store: await handle.reopen() }, { driver, policy: (p, s) => (s.owner === p.id ? 'write' : 'none') });
      assert.deepEqual(
        host
          .as(alice)
          .listSessions()
          .map((s) => s.sessionId),
        [sessionId, emptyFork, systemFork],
        'host code forking keeps the source owner',
      );
      assert.deepEqual(
        host
          .as(bob)
          .listSessions()
          .map((s) => s.sessionId),
        [bobsFork],
      );
      const forkLog = (await host.readLog(bobsFork, { limit: 100 })).events;
      assert.deepEqual(
        forkLog.filter((e) => e.type === 'session/opened').map((e) => e.type === 'session/opened' && e.owner),
        ['bob'],
      );
      assert.equal(host.as(bob).getView(bobsFork).sessionId, bobsFork);
      // Rewinding to 0 cuts every event's meaning, but not who owns the session.
      host.rewind(sessionId, 0);
      assert.equal(host.as(alice).access(sessionId), 'write');
    });

    it('host code is the system principal: it sees everything, the policy is not asked, and nothing carries by', async () => {
      let asked = 0;
      await start(() => {
        asked++;
        return 'none';
      });
      const sessionId = host.as(alice).openSession();
      const system = host.as(SYSTEM_PRINCIPAL);
      assert.equal(system.access(sessionId), 'write');
      await say(system, sessionId, 'from a script');
      await host.whenIdle(sessionId);
      assert.equal(asked, 0);
      assert.equal(host.openSession() !== sessionId, true);
      assert.deepEqual(host.as({ id: 'alice' }).listSessions(), [], 'the policy (none) hides even her own');
      const message = (await host.readLog(sessionId, { limit: 100 })).events.find((e) => e.type === 'user/message');
      assert.equal(message?.type === 'user/message' && message.source.by, undefined);
    });

    it('validates the principal and refuses a chosen session id', async () => {
      await start();
      assert.throws(() => host.as({ id: '' }), /principal id must not be empty/);
      assert.throws(() => host.as({ id: 'x'.repeat(257) }), /at most 256/);
      assert.throws(() => host.as({ id: 'a\nb' }), /control characters/);
      assert.throws(() => host.as({ id: 'a', extra: 1 } as Principal), /invalid input/);
      const existing = host.openSession();
      assert.throws(() => host.as(alice).openSession({ sessionId: existing } as never), /cannot choose the session id/);
    });

    it('sessions host code opened have no owner: only host code sees them under owner-only', async () => {
      await start();
      const hostOnly = host.openSession({ title: 'Script' });
      const mine = host.as(alice).openSession({ title: 'Mine' });
      assert.deepEqual(
        host
          .as(alice)
          .listSessions()
          .map((s) => s.sessionId),
        [mine],
      );
      assert.throws(() => host.as(alice).getView(hostOnly), UnknownSessionError);
      assert.deepEqual(
        host.listSessions().map((s) => s.sessionId),
        [hostOnly, mine],
      );
    });

    it('a policy answering anything but read or write is none', async () => {
      await start(() => 'admin' as never);
      const sessionId = host.as(alice).openSession();
      assert.equal(host.as(alice).access(sessionId), 'none');
    });

    it('a policy that throws is a refusal, reported', async () => {
      const errors: Error[] = [];
      await start(
        () => {
          throw new Error('directory down');
        },
        (e) => errors.push(e),
      );
      const sessionId = host.as(alice).openSession();
      assert.throws(() => host.as(alice).getView(sessionId), UnknownSessionError);
      assert.equal(errors.length, 1);
      assert.match(errors[0]!.message, /directory down/);
    });
  });
}
