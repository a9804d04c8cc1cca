import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createActionCardsService } from '../../host/actionCards/index.js';
import type { HostPluginApi } from '../../host/types.js';
import { createFakeHost } from './fakeHost.js';
import { cardTurn, gate, setup, testArgs, testKind } from './helpers.js';

/*
 * The action-cards service's entry as a host developer meets it: what `act` answers when the
 * operation itself fails, that a session without a live root never reaches the kind, that
 * `dispose` undoes exactly what the service registered, and that a kind's work in flight still
 * records its outcome after the service is disposed.
 */

const decisions = (host: ReturnType<typeof setup>['host'], sessionId: string) =>
  host.log(sessionId as never).flatMap((e) => (e.type === 'action-cards/decision' ? [e.phase] : []));

describe('act: answers when the operation cannot finish', () => {
  it('answers unconfirmed when the host fails to append the Not now decision', async () => {
    const { host, service, sessionId } = setup();
    service.register(testKind());
    const callId = await cardTurn(host, sessionId, testArgs());
    const append = host.api.append;
    host.api.append = (id, event) => {
      if (event.type === 'action-cards/decision') throw new Error('disk full');
      return append(id, event);
    };
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'dismiss' }), { status: 'unconfirmed' });
    host.api.append = append;
    assert.deepEqual(decisions(host, sessionId), []);
    // The card is not stuck: the next act runs a new operation.
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'dismiss' }), { status: 'accepted', phase: 'dismissed' });
  });

  it('answers unconfirmed when the card actor stopped before it got the act', async () => {
    // The access check is host code: here it disposes the session's agent, which stops its card actors.
    const hold: { host?: ReturnType<typeof setup>['host'] } = {};
    let target = '';
    const { host, service, sessionId } = setup({
      globalAccess: (id) => {
        if (id === target) hold.host?.closeAgent(id);
        return true;
      },
    });
    hold.host = host;
    service.register(testKind({ verbs: { run: { checks: ['global'], handler: async () => ({ status: 'accepted' }) } } }));
    const callId = await cardTurn(host, sessionId, testArgs());
    target = sessionId;
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'run' }), { status: 'unconfirmed' });
    assert.deepEqual(decisions(host, sessionId), []);
  });

  it('never runs the kind (not even its reconcile) in a session without a live root', async () => {
    const { host, service, sessionId } = setup();
    let reconciles = 0;
    service.register(
      testKind({
        reconcile: async () => {
          reconciles++;
        },
      }),
    );
    const callId = await cardTurn(host, sessionId, testArgs());
    host.closeAgent(sessionId);
    for (const verb of ['run', 'dismiss']) {
      assert.deepEqual(await service.act({ sessionId, callId, verb }), { status: 'refused', reason: 'not-live-root' });
    }
    assert.equal(reconciles, 0);
  });
});

/** The fake host's plugin API, counting each registration and each call of its disposer. */
function countingApi(api: HostPluginApi, options: { withoutAgentDisposed?: boolean } = {}) {
  const undone = new Map<string, number>();
  let n = 0;
  const counted =
    <A extends unknown[]>(name: string, register: (...args: A) => () => void) =>
    (...args: A) => {
      const key = `${name}#${++n}`;
      const dispose = register(...args);
      undone.set(key, 0);
      return () => {
        undone.set(key, (undone.get(key) ?? 0) + 1);
        dispose();
      };
    };
  const { onAgentDisposed, ...rest } = api;
  const wrapped: HostPluginApi = {
    ...rest,
    onEvent: counted('onEvent', api.onEvent),
    onReset: counted('onReset', api.onReset),
    registerTool: counted('registerTool', api.registerTool),
    onBeforeStep: counted('onBeforeStep', api.onBeforeStep),
    ...(options.withoutAgentDisposed || onAgentDisposed === undefined
      ? {}
      : { onAgentDisposed: counted('onAgentDisposed', onAgentDisposed) }),
  };
  return { api: wrapped, undone };
}

describe('dispose: what the service registered on the host', () => {
  it('undoes every listener, tool and step hook exactly once, even when disposed twice', () => {
    const host = createFakeHost();
    const { api, undone } = countingApi(host.api);
    const service = createActionCardsService(api);
    assert.deepEqual([...undone.keys()].map((k) => k.split('#')[0]).sort(), [
      'onAgentDisposed',
      'onBeforeStep',
      'onEvent',
      'onReset',
      'registerTool',
      'registerTool',
    ]);
    assert.deepEqual([...host.tools.keys()].sort(), ['propose_action', 'skill']);
    service.dispose();
    service.dispose();
    assert.deepEqual([...undone.values()], [1, 1, 1, 1, 1, 1]);
    assert.deepEqual([...host.tools.keys()], []);
  });

  it('works on a host without onAgentDisposed (it is optional)', async () => {
    const host = createFakeHost();
    const { api, undone } = countingApi(host.api, { withoutAgentDisposed: true });
    const service = createActionCardsService(api);
    service.register(testKind());
    const sessionId = host.open();
    const callId = await cardTurn(host, sessionId, testArgs());
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'run' }), { status: 'accepted', phase: 'done' });
    service.dispose();
    assert.deepEqual([...undone.values()], [1, 1, 1, 1, 1]);
  });
});

describe('dispose: work in flight', () => {
  it('a handler still records its outcome after the service is disposed, and its act reports it', async () => {
    const { host, service, sessionId } = setup();
    const release = gate();
    service.register(
      testKind({
        verbs: {
          run: {
            handler: async (ctx) => {
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
    service.dispose();
    release.open();
    assert.deepEqual(await acting, { status: 'accepted', phase: 'done' });
    assert.deepEqual(decisions(host, sessionId), ['done']);
    assert.deepEqual(service.view(sessionId).decisions[callId]?.data, { n: 2 });
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'run' }), { status: 'refused', reason: 'closing' });
  });

  it('record() called by host code after dispose still appends and returns the decision', async () => {
    const { host, service, sessionId } = setup();
    const callId = await cardTurn(host, sessionId);
    service.dispose();
    const event = service.record({ sessionId, callId, action: 'create_page', phase: 'created', data: { pageId: 'page-9' } });
    assert.equal(event.type, 'action-cards/decision');
    assert.deepEqual(decisions(host, sessionId), ['created']);
  });
});
