// host.as(principal), rule by rule: what a principal's calls answer for its own, shared, refused and
// missing sessions, what the system principal may do, and which method each input error names.
import assert from 'node:assert/strict';
import { it, type TestContext } from 'node:test';
import { createHost } from '../../host/createHost.js';
import { SYSTEM_PRINCIPAL, type SessionPolicy } from '../../host/principal.js';
import { createMemoryStore } from '../../host/store/memory.js';
import type { CardKind, CreateHostOptions } from '../../host/types.js';
import { HostInputError, type CallId, type Principal, type SessionId, type TaskSurfaceId } from '../../protocol/index.js';
import * as z from 'zod/mini';
import { pageArgs } from '../action-cards/helpers.js';
import { counterIds, goodValues, ids, say, ScriptedDriver } from './helpers.js';

const alice: Principal = { id: 'alice' };
const bob: Principal = { id: 'bob' };
const missing = 'session-missing' as SessionId;

function start(t: TestContext, options: Partial<CreateHostOptions> = {}) {
  const driver = new ScriptedDriver();
  const host = createHost({ store: createMemoryStore(), driver, ids: counterIds(), ...options });
  t.after(() => host.dispose());
  return { host, driver };
}

const pageKind: CardKind = {
  action: 'create_page',
  skill: { name: 'create-page', text: 'Create a page.' },
  invitation: 'Save it as a page?',
  details: z.object({ pageTitle: z.string(), sections: z.array(z.string()) }),
  verbs: { confirm: { checks: ['writes'], handler: async () => ({ status: 'accepted' }) } },
};

it("a principal's access and hasSession: its own yes, a refused or missing one 'none' and false", async (t) => {
  const { host } = start(t);
  const own = host.as(alice).openSession();
  const them = host.as(bob);
  assert.equal(host.as(alice).access(own), 'write');
  assert.equal(host.as(alice).hasSession(own), true);
  assert.equal(them.access(own), 'none');
  assert.equal(them.hasSession(own), false);
  assert.equal(them.hasSession(missing), false);
  assert.equal(host.as(SYSTEM_PRINCIPAL).access(missing), 'none');
  assert.equal(host.as(SYSTEM_PRINCIPAL).hasSession(own), true);
  assert.equal(host.as(SYSTEM_PRINCIPAL).hasSession(missing), false);
  // A policy that grants everything still grants nothing of a session that does not exist.
  const asked: SessionId[] = [];
  const { host: open } = start(t, { policy: (_principal, session) => (asked.push(session.sessionId), 'write') });
  assert.equal(open.as(bob).access(missing), 'none');
  assert.equal(open.as(bob).hasSession(missing), false);
  // Without a sharing policy, listing asks about the principal's own sessions and nothing else.
  const mine = open.as(bob).openSession();
  asked.length = 0;
  assert.deepEqual(
    open
      .as(bob)
      .listSessions()
      .map((s) => s.sessionId),
    [mine],
  );
  assert.deepEqual(asked, [mine]);
});

it("a principal's load of a session it may not read answers false; the system's load of anyone's, true", async (t) => {
  const { host } = start(t);
  const hostOwned = host.openSession(); // no owner: the default policy gives it to no principal
  assert.equal(await host.as(bob).load(hostOwned), false);
  const own = host.as(alice).openSession();
  host.unload(own);
  assert.equal(await host.as(SYSTEM_PRINCIPAL).load(own), true);
  assert.equal(await host.as(alice).load(own), true);
  assert.equal(await host.as(bob).load(own), false);
});

it('listSessions: the system lists everyone; a principal its own and the shared ones, once each, never a refused one', async (t) => {
  const hidden = new Set<SessionId>();
  let shared: SessionId[] = [];
  const asked: string[] = [];
  const policy: SessionPolicy = (principal, session) => {
    asked.push(session.sessionId);
    if (hidden.has(session.sessionId)) return 'none';
    if (session.owner === principal.id) return 'write';
    return session.owner === 'carol' ? 'read' : 'none';
  };
  const { host } = start(t, { policy, sharedSessions: (p) => (p.id === bob.id ? shared : []) });
  const a = host.as(alice).openSession();
  const b1 = host.as(bob).openSession();
  const b2 = host.as(bob).openSession();
  const c = host.as({ id: 'carol' }).openSession();
  asked.length = 0;
  assert.deepEqual(
    host
      .as(alice)
      .listSessions()
      .map((s) => s.sessionId),
    [a],
  );
  assert.deepEqual(asked, [a], 'only its own sessions are asked about');
  assert.deepEqual(
    host
      .as(SYSTEM_PRINCIPAL)
      .listSessions()
      .map((s) => s.sessionId)
      .sort(),
    [a, b1, b2, c].sort(),
  );
  hidden.add(b2);
  // Shared: one of its own again, a readable one, a refused one and a missing one.
  shared = [b1, c, a, missing];
  assert.deepEqual(
    host
      .as(bob)
      .listSessions()
      .map((s) => s.sessionId),
    [b1, c],
  );
});

it('a refused session answers getActive, getOutcome, submit, dismiss and act exactly like a missing one', async (t) => {
  const { host, driver } = start(t);
  host.actionCards.register(pageKind);
  const sessionId = host.openSession();
  let callId: CallId | undefined;
  driver.then(async (turn) => {
    turn.step();
    await turn.callTool('skill', { name: 'create-page' });
    callId = (await turn.callTool('propose_action', pageArgs())).callId;
  });
  await say(host, sessionId, 'plan it');
  await host.whenIdle(sessionId);
  assert.ok(callId);
  driver.showSurface();
  await say(host, sessionId, 'please show a form');
  await host.whenIdle(sessionId);
  const surfaceId = host.getView(sessionId).taskSurface.active?.surfaceId as TaskSurfaceId;
  assert.ok(surfaceId);
  const them = host.as(bob);
  const answers = async (id: SessionId) => ({
    active: await them.taskSurface.getActive({ sessionId: id, surfaceId }),
    outcome: await them.taskSurface.getOutcome({ sessionId: id, surfaceId }),
    submit: await them.taskSurface.submit({ sessionId: id, surfaceId, submissionId: ids.submission(), values: goodValues }),
    dismiss: await them.taskSurface.dismiss({ sessionId: id, surfaceId, dismissalId: ids.dismissal() }),
    act: await them.actionCards.act({ sessionId: id, callId: callId!, verb: 'confirm' }),
  });
  const expected = {
    active: await host.taskSurface.getActive({ sessionId: missing, surfaceId }),
    outcome: await host.taskSurface.getOutcome({ sessionId: missing, surfaceId }),
    submit: { accepted: false, reason: 'not-open' },
    dismiss: { dismissed: false, reason: 'not-open' },
    act: { status: 'refused', reason: 'unknown' },
  };
  assert.deepEqual(expected.active, { active: false, reason: 'not-open' });
  assert.deepEqual(await answers(sessionId), expected);
  assert.deepEqual(await answers(missing), expected);
  assert.equal((await host.taskSurface.getActive({ sessionId, surfaceId })).active, true, 'still open for its owner');
});

it('act at the byte quota is quota-exceeded for a principal, not for the system', async (t) => {
  const { host } = start(t, { quotas: { bytesPerSession: 1 } });
  const sessionId = host.as(alice).openSession();
  const act = { sessionId, callId: 'call-none' as CallId, verb: 'confirm' };
  assert.deepEqual(await host.as(alice).actionCards.act(act), { status: 'refused', reason: 'quota-exceeded' });
  assert.deepEqual(await host.as(SYSTEM_PRINCIPAL).actionCards.act(act), { status: 'refused', reason: 'unknown' });
});

it("a principal named 'system' does not count against the system principal's sessions", async (t) => {
  const { host } = start(t, { quotas: { sessionsPerPrincipal: 1 } });
  const impostor = host.as({ id: SYSTEM_PRINCIPAL.id }).openSession();
  const system = host.as(SYSTEM_PRINCIPAL);
  assert.ok(system.hasSession(system.openSession()));
  assert.ok(system.hasSession(system.fork(impostor)));
});

it('whenDurable answers a promise', async (t) => {
  const { host } = start(t);
  const scoped = host.as(alice);
  const durable = scoped.whenDurable(scoped.openSession());
  assert.ok(durable instanceof Promise);
  await durable;
});

it('each input error is a HostInputError naming the method it came from', async (t) => {
  const { host } = start(t);
  const me = host.as(alice);
  const bad = 42 as unknown as SessionId;
  const calls: [string, () => unknown][] = [
    ['host.as', () => host.as({ id: 42 } as unknown as Principal)],
    ['access', () => me.access(bad)],
    ['hasSession', () => me.hasSession(bad)],
    ['load', () => me.load(bad)],
    ['whenDurable', () => me.whenDurable(bad)],
    ['sessionSummary', () => me.sessionSummary(bad)],
    ['getView', () => me.getView(bad)],
    ['watchSession', () => me.watchSession(bad, () => undefined)],
    ['readLog', () => me.readLog(bad, { limit: 1 })],
    ['fork', () => me.fork(bad)],
    ['session.updateQueue', () => me.session.updateQueue({} as never)],
    ['taskSurface.getActive', () => me.taskSurface.getActive({} as never)],
    ['taskSurface.getOutcome', () => me.taskSurface.getOutcome({} as never)],
    ['taskSurface.submit', () => me.taskSurface.submit({} as never)],
    ['taskSurface.dismiss', () => me.taskSurface.dismiss({} as never)],
    ['actionCards.act', () => me.actionCards.act({} as never)],
    // Host code's own act: the same error, so a transport answers it as a bad request.
    ['actionCards.act', () => host.actionCards.act({ sessionId: 'x', callId: 'c', verb: '' } as never)],
  ];
  for (const [method, call] of calls) {
    await assert.rejects(
      async () => call(),
      (error: unknown) =>
        error instanceof HostInputError && error.operation === method && error.message.startsWith(`${method}: invalid input: `),
      method,
    );
  }
});
