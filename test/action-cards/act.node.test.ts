import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { InspectionEvent } from 'xstate';
import { HostInputError, type CallId, type SessionId } from '../../protocol/index.js';
import { createPageKind } from '../../host/actionCards/kinds/index.js';
import { cardTurn, followUpArgs, gate, setup, testArgs, testKind } from './helpers.js';

const decisions = (host: ReturnType<typeof setup>['host'], sessionId: SessionId) =>
  host.log(sessionId).flatMap((e) => (e.type === 'action-cards/decision' ? [`${e.phase}`] : []));

describe('act: checks before the operation', () => {
  it('refuses an unknown session, a session without a live root, and an unknown card', async () => {
    const { host, service, sessionId } = setup();
    const callId = await cardTurn(host, sessionId);
    assert.deepEqual(await service.act({ sessionId: 'other' as SessionId, callId, verb: 'dismiss' }), {
      status: 'refused',
      reason: 'unknown',
    });
    assert.deepEqual(await service.act({ sessionId, callId: 'nope' as CallId, verb: 'dismiss' }), { status: 'refused', reason: 'unknown' });
    host.closeAgent(sessionId);
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'dismiss' }), { status: 'refused', reason: 'not-live-root' });
  });

  it('rejects a malformed request with the failing fields', async () => {
    const { service, sessionId } = setup();
    await assert.rejects(
      service.act({ sessionId, callId: '' as CallId, verb: '' }),
      (error: unknown) => error instanceof HostInputError && /^actionCards\.act: invalid input: callId: .*verb: /.test(error.message),
    );
  });

  it('refuses everything as closing once the service is disposed', async () => {
    const { host, service, sessionId } = setup();
    const callId = await cardTurn(host, sessionId);
    service.dispose();
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'dismiss' }), { status: 'refused', reason: 'closing' });
  });

  it('refuses a verb the kind does not accept as unknown, and a global verb without access', async () => {
    const { host, service, sessionId } = setup({ globalAccess: () => false });
    const page = await cardTurn(host, sessionId);
    assert.deepEqual(await service.act({ sessionId, callId: page, verb: 'publish' }), { status: 'refused', reason: 'unknown' });
    const followUp = await cardTurn(host, sessionId, followUpArgs());
    assert.deepEqual(await service.act({ sessionId, callId: followUp, verb: 'schedule' }), { status: 'refused', reason: 'access-denied' });
    assert.deepEqual(await service.act({ sessionId, callId: followUp, verb: 'dismiss' }), { status: 'accepted', phase: 'dismissed' });
  });
});

describe('act: Not now', () => {
  it('records dismissed for an unstarted card; a dismissed card then settles unchanged', async () => {
    const { host, service, sessionId } = setup();
    const callId = await cardTurn(host, sessionId);
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'dismiss' }), { status: 'accepted', phase: 'dismissed' });
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'dismiss' }), { status: 'settled', phase: 'dismissed' });
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'create' }), { status: 'settled', phase: 'dismissed' });
    assert.deepEqual(decisions(host, sessionId), ['dismissed']);
  });

  it('works without a registered kind for an unstarted card; other verbs are unavailable', async () => {
    const { host, service, sessionId, unregister } = setup();
    const callId = await cardTurn(host, sessionId);
    unregister.createPage();
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'create' }), { status: 'refused', reason: 'unavailable' });
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'dismiss' }), { status: 'accepted', phase: 'dismissed' });
  });

  it('without its kind a started card refuses Not now as unavailable', async () => {
    const { host, service, sessionId, unregister } = setup();
    const callId = await cardTurn(host, sessionId);
    await service.act({ sessionId, callId, verb: 'create' });
    unregister.createPage();
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'dismiss' }), { status: 'refused', reason: 'unavailable' });
  });

  it('is recorded in the phases the kind lists, and settles unchanged in others', async () => {
    const { host, service, sessionId, pages } = setup();
    for (let i = 0; i < 3; i++) await pages.create({ title: 'x', sections: ['x'], sourceCallId: `other-${i}` });
    const callId = await cardTurn(host, sessionId);
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'create' }), { status: 'refused', reason: 'page-limit' });
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'dismiss' }), { status: 'accepted', phase: 'dismissed' });
    const created = await cardTurn(host, sessionId);
    pages.delete('page-1');
    assert.deepEqual(await service.act({ sessionId, callId: created, verb: 'create' }), { status: 'accepted', phase: 'created' });
    assert.deepEqual(await service.act({ sessionId, callId: created, verb: 'dismiss' }), { status: 'settled', phase: 'created' });
  });

  it('is refused in a read-only session, like writing verbs: it would record a decision', async () => {
    const { host, service } = setup();
    const sessionId = host.open({ readOnly: true });
    const first = await cardTurn(host, sessionId);
    assert.deepEqual(await service.act({ sessionId, callId: first, verb: 'create' }), { status: 'refused', reason: 'read-only' });
    assert.deepEqual(await service.act({ sessionId, callId: first, verb: 'dismiss' }), { status: 'refused', reason: 'read-only' });
    assert.deepEqual(decisions(host, sessionId), []);
  });
});

describe('act: the shared operation', () => {
  it('replaced cards settle unchanged, for every verb', async () => {
    const { host, service, sessionId } = setup();
    const first = await cardTurn(host, sessionId);
    await cardTurn(host, sessionId, followUpArgs());
    for (const verb of ['create', 'dismiss']) {
      assert.deepEqual(await service.act({ sessionId, callId: first, verb }), { status: 'settled', phase: 'replaced' });
    }
    assert.deepEqual(decisions(host, sessionId), []);
  });

  it('concurrent actions on one card share one operation', async () => {
    const { host, service, sessionId } = setup();
    const release = gate();
    let runs = 0;
    service.register(
      testKind({
        verbs: {
          run: {
            handler: async (ctx) => {
              runs++;
              await release.promise;
              ctx.record('done');
              return { status: 'accepted' };
            },
          },
        },
      }),
    );
    const callId = await cardTurn(host, sessionId, testArgs());
    const first = service.act({ sessionId, callId, verb: 'run' });
    const second = service.act({ sessionId, callId, verb: 'dismiss' });
    release.open();
    assert.deepEqual(await Promise.all([first, second]), [
      { status: 'accepted', phase: 'done' },
      { status: 'accepted', phase: 'done' },
    ]);
    assert.equal(runs, 1);
    assert.deepEqual(decisions(host, sessionId), ['done']);
  });

  it('a concurrent request with an unknown verb or without access is refused, not joined', async () => {
    const { host, service, sessionId } = setup({ globalAccess: () => false });
    const release = gate();
    let runs = 0;
    service.register(
      testKind({
        verbs: {
          run: {
            handler: async (ctx) => {
              runs++;
              await release.promise;
              ctx.record('done');
              return { status: 'accepted' };
            },
          },
          broadcast: { checks: ['global'], handler: async () => ({ status: 'accepted' }) },
        },
      }),
    );
    const callId = await cardTurn(host, sessionId, testArgs());
    const first = service.act({ sessionId, callId, verb: 'run' });
    const unknown = service.act({ sessionId, callId, verb: 'publish' });
    const denied = service.act({ sessionId, callId, verb: 'broadcast' });
    const inherited = service.act({ sessionId, callId, verb: 'toString' });
    await new Promise((resolve) => setImmediate(resolve));
    release.open();
    assert.deepEqual(await Promise.all([first, unknown, denied, inherited]), [
      { status: 'accepted', phase: 'done' },
      { status: 'refused', reason: 'unknown' },
      { status: 'refused', reason: 'access-denied' },
      { status: 'refused', reason: 'unknown' },
    ]);
    assert.equal(runs, 1);
    assert.deepEqual(decisions(host, sessionId), ['done']);
  });

  it('reconcile runs first, before Not now, and the live root is checked again after it', async () => {
    const { host, service, sessionId } = setup();
    const order: string[] = [];
    service.register(
      testKind({
        async reconcile(ctx) {
          order.push(`reconcile:${ctx.phase}`);
          if (ctx.phase === 'proposed') ctx.record('expired');
        },
      }),
    );
    const callId = await cardTurn(host, sessionId, testArgs());
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'dismiss' }), { status: 'settled', phase: 'expired' });
    assert.deepEqual(order, ['reconcile:proposed']);
  });

  it('re-checks the live root after reconcile', async () => {
    const { host, service, sessionId } = setup();
    service.register(
      testKind({
        async reconcile() {
          host.closeAgent(sessionId);
        },
      }),
    );
    const callId = await cardTurn(host, sessionId, testArgs());
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'run' }), { status: 'refused', reason: 'not-live-root' });
    assert.deepEqual(decisions(host, sessionId), []);
  });

  it('a kind unregistering during reconcile leaves the verb unavailable', async () => {
    const { host, service, sessionId } = setup();
    let unregister = () => {};
    unregister = service.register(
      testKind({
        async reconcile() {
          unregister();
        },
      }),
    );
    const callId = await cardTurn(host, sessionId, testArgs());
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'run' }), { status: 'refused', reason: 'unavailable' });
  });

  it('a kind unregistering while its handler runs still records the outcome', async () => {
    const { host, service, sessionId } = setup();
    const started = gate();
    const release = gate();
    const unregister = service.register(
      testKind({
        verbs: {
          run: {
            handler: async (ctx) => {
              started.open();
              await release.promise;
              ctx.record('done', { n: 2 });
              return { status: 'accepted' };
            },
          },
        },
      }),
    );
    const callId = await cardTurn(host, sessionId, testArgs());
    const acting = service.act({ sessionId, callId, verb: 'run' });
    await started.promise;
    unregister();
    release.open();
    assert.deepEqual(await acting, { status: 'accepted', phase: 'done' });
    assert.equal(service.view(sessionId).decisions[callId]?.phase, 'done');
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'run' }), { status: 'refused', reason: 'unavailable' });
  });

  it('passes the kind’s own refusal through, and a throwing handler is unconfirmed', async () => {
    const { host, service, sessionId } = setup();
    service.register(
      testKind({
        verbs: {
          run: { handler: async () => ({ status: 'refused', reason: 'quota-exceeded' }) },
          boom: {
            handler: async () => {
              throw new Error('network down');
            },
          },
        },
      }),
    );
    const callId = await cardTurn(host, sessionId, testArgs());
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'run' }), { status: 'refused', reason: 'quota-exceeded' });
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'boom' }), { status: 'unconfirmed' });
  });

  it('validates details against the kind’s current schema before each action', async () => {
    const { host, service, sessionId, unregister } = setup();
    const callId = await cardTurn(host, sessionId);
    unregister.createPage();
    const strict = createPageKind();
    service.register({
      ...strict,
      details: { safeParse: () => ({ success: false, error: { issues: [{ path: ['pageTitle'], message: 'too long' }] } }) },
    });
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'create' }), { status: 'refused', reason: 'unavailable' });
  });

  it('each card runs a card actor the inspector sees', async () => {
    const seen: InspectionEvent[] = [];
    const { host, service, sessionId } = setup({ inspect: (event) => void seen.push(event) });
    const callId = await cardTurn(host, sessionId);
    await service.act({ sessionId, callId, verb: 'dismiss' });
    const actorIds = new Set(seen.map((e) => (e.actorRef as { id?: string }).id));
    assert.ok(actorIds.has(`card:${callId}`));
    assert.ok(seen.some((e) => e.type === '@xstate.event' && e.event.type === 'user.acted'));
    assert.ok(seen.some((e) => e.type === '@xstate.event' && e.event.type === 'log.decided'));
  });
});

describe('record()', () => {
  it('refuses an action no kind ever registered, the derived phases, unknown cards and a wrong action', async () => {
    const { host, service, sessionId } = setup();
    const callId = await cardTurn(host, sessionId);
    assert.throws(() => service.record({ sessionId, callId, action: 'never', phase: 'done' }), /no kind ever registered action "never"/);
    assert.throws(() => service.record({ sessionId, callId, action: 'create_page', phase: 'replaced' }), /derived/);
    assert.throws(() => service.record({ sessionId, callId: 'x' as CallId, action: 'create_page', phase: 'done' }), /has no card "x"/);
    assert.throws(() => service.record({ sessionId, callId, action: 'schedule_follow_up', phase: 'done' }), /is a "create_page" card/);
  });

  it('accepts an action whose kind has unregistered', async () => {
    const { host, service, sessionId, unregister } = setup();
    const callId = await cardTurn(host, sessionId);
    unregister.createPage();
    const event = service.record({ sessionId, callId, action: 'create_page', phase: 'created', data: { pageId: 'p1' } });
    assert.equal(event.type, 'action-cards/decision');
    assert.equal(service.view(sessionId).decisions[callId]?.phase, 'created');
  });
});
