import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { actRefusal, runCardOperation, type OperationDeps } from '../../host/actionCards/operation.js';
import type { CardRecord } from '../../host/actionCards/projection.js';
import { KindRegistry } from '../../host/actionCards/registry.js';
import { SYSTEM_PRINCIPAL } from '../../host/principal.js';
import type { ActingAs, CardKind, CardKindContext, RecordDecisionInput } from '../../host/types.js';
import type { CallId, SessionEvent, SessionId, TurnId } from '../../protocol/index.js';
import { testKind } from './helpers.js';

/*
 * The operation's rules as host code meets them, on a card store the test controls: a card that
 * vanishes (a rewind) mid-operation, a session that turns read-only, a principal without write.
 */

const sessionId = 's1' as SessionId;
const callId = 'c1' as CallId;
const ana: ActingAs = { initiator: { id: 'ana' }, canWrite: true };
const system: ActingAs = { initiator: SYSTEM_PRINCIPAL, canWrite: true };

function world(kind: CardKind, options: { readOnly?: boolean } = {}) {
  const registry = new KindRegistry();
  registry.register(kind);
  const cards = new Map<string, CardRecord>();
  cards.set(callId, {
    proposal: { callId, action: kind.action, title: 'Try it', brief: 'Runs the test action.', details: { n: 1 }, seq: 3 },
    turnId: 't1' as TurnId,
    decision: undefined,
    replacedAt: undefined,
  });
  const recorded: RecordDecisionInput[] = [];
  const deps: OperationDeps = {
    api: { isLiveRoot: () => true, isReadOnly: () => options.readOnly ?? false },
    registry,
    card: (s, c) => (s === sessionId ? cards.get(c) : undefined),
    record(input) {
      recorded.push(input);
      const card = cards.get(input.callId);
      if (card !== undefined) card.decision = { callId, action: input.action, phase: input.phase, data: input.data ?? {}, seq: 10 };
      return { type: 'action-cards/decision', ...input, seq: 10, at: 1 } as unknown as SessionEvent;
    },
    isClosing: () => false,
    signal: new AbortController().signal,
  };
  const act = (verb: string, as: ActingAs = ana, id: CallId = callId) => runCardOperation(deps, sessionId, id, verb, undefined, as);
  return { deps, cards, recorded, act, registry };
}

const verbs: CardKind['verbs'] = {
  look: { handler: async () => ({ status: 'settled' }) },
  share: { checks: ['global'], handler: async () => ({ status: 'accepted' }) },
  run: { checks: ['writes'], handler: async () => ({ status: 'accepted' }) },
};

describe('actRefusal: the checks before a card operation', () => {
  const kind = testKind({ verbs });
  const access = (canWrite: boolean, global: boolean) => ({ canWrite, global: () => global });

  it('refuses a writing verb without write access, and lets a reading verb through', () => {
    assert.deepEqual(actRefusal(kind, 'run', access(false, true)), { status: 'refused', reason: 'read-only' });
    assert.equal(actRefusal(kind, 'run', access(true, true)), undefined);
    assert.equal(actRefusal(kind, 'look', access(false, false)), undefined);
  });

  it('refuses a global verb without global access only', () => {
    assert.deepEqual(actRefusal(kind, 'share', access(true, false)), { status: 'refused', reason: 'access-denied' });
    assert.equal(actRefusal(kind, 'share', access(false, true)), undefined);
    assert.equal(actRefusal(kind, 'run', access(true, false)), undefined);
  });

  it('refuses an unknown verb, a missing kind, and Not now without write access', () => {
    assert.deepEqual(actRefusal(kind, 'publish', access(true, true)), { status: 'refused', reason: 'unknown' });
    assert.deepEqual(actRefusal(kind, 'toString', access(true, true)), { status: 'refused', reason: 'unknown' });
    assert.deepEqual(actRefusal(undefined, 'run', access(true, true)), { status: 'refused', reason: 'unavailable' });
    assert.deepEqual(actRefusal(kind, 'dismiss', access(false, true)), { status: 'refused', reason: 'read-only' });
    assert.equal(actRefusal(undefined, 'dismiss', access(true, true)), undefined);
  });
});

describe('runCardOperation: refusals', () => {
  it('refuses an unknown call and a card of another session as unknown', async () => {
    const { act, deps, recorded } = world(testKind({ verbs }));
    assert.deepEqual(await act('run', ana, 'nope' as CallId), { status: 'refused', reason: 'unknown' });
    assert.deepEqual(await runCardOperation(deps, 'other' as SessionId, callId, 'run', undefined, ana), {
      status: 'refused',
      reason: 'unknown',
    });
    assert.deepEqual(recorded, []);
  });

  it('refuses a verb the kind does not have as unknown', async () => {
    const { act, recorded } = world(testKind({ verbs }));
    assert.deepEqual(await act('publish'), { status: 'refused', reason: 'unknown' });
    assert.deepEqual(recorded, []);
  });

  it('refuses as unknown when the card is gone after the reconcile (a rewind)', async () => {
    const { act, cards, recorded } = world(
      testKind({
        verbs,
        reconcile: async () => {
          cards.delete(callId);
        },
      }),
    );
    assert.deepEqual(await act('run'), { status: 'refused', reason: 'unknown' });
    assert.deepEqual(recorded, []);
  });

  it('refuses a writing verb to a principal who may not write, and in a read-only session', async () => {
    const noWrite = world(testKind({ verbs }));
    assert.deepEqual(await noWrite.act('run', { ...ana, canWrite: false }), { status: 'refused', reason: 'read-only' });
    const readOnly = world(testKind({ verbs }), { readOnly: true });
    assert.deepEqual(await readOnly.act('run'), { status: 'refused', reason: 'read-only' });
  });

  it('still runs a verb without `writes` in a read-only session for a principal who may not write', async () => {
    const { act } = world(testKind({ verbs }), { readOnly: true });
    assert.deepEqual(await act('look', { ...ana, canWrite: false }), { status: 'settled', phase: 'proposed' });
  });
});

describe('runCardOperation: unconfirmed outcomes', () => {
  it('is unconfirmed when the reconcile throws, and runs no handler', async () => {
    let ran = false;
    const { act, recorded } = world(
      testKind({
        verbs: { run: { handler: async () => ((ran = true), { status: 'accepted' }) } },
        reconcile: async () => {
          throw new Error('store down');
        },
      }),
    );
    assert.deepEqual(await act('run'), { status: 'unconfirmed' });
    assert.equal(ran, false);
    assert.deepEqual(recorded, []);
  });

  it('is unconfirmed when the handler throws; what it recorded before stays recorded', async () => {
    const { act, recorded } = world(
      testKind({
        verbs: {
          run: {
            handler: async (ctx) => {
              ctx.record('started', { step: 1 });
              throw new Error('network');
            },
          },
        },
      }),
    );
    assert.deepEqual(await act('run'), { status: 'unconfirmed' });
    assert.deepEqual(recorded, [{ sessionId, callId, action: 'test_action', phase: 'started', data: { step: 1 }, by: 'ana' }]);
  });

  it('is unconfirmed when the handler answers something else', async () => {
    const { act } = world(testKind({ verbs: { run: { handler: async () => ({ status: 'done' }) as unknown as { status: 'accepted' } } } }));
    assert.deepEqual(await act('run'), { status: 'unconfirmed' });
  });

  it('passes a handler refusal on with its reason', async () => {
    const { act } = world(testKind({ verbs: { run: { handler: async () => ({ status: 'refused', reason: 'page-limit' }) } } }));
    assert.deepEqual(await act('run'), { status: 'refused', reason: 'page-limit' });
  });
});

describe('runCardOperation: decisions and phase', () => {
  const recording = testKind({
    verbs: {
      run: {
        handler: async (ctx) => {
          ctx.record('done');
          return { status: 'accepted' };
        },
      },
    },
  });

  it("records the principal's id as `by`, and no `data` when none is given", async () => {
    const { act, recorded } = world(recording);
    assert.deepEqual(await act('run'), { status: 'accepted', phase: 'done' });
    assert.deepEqual(recorded, [{ sessionId, callId, action: 'test_action', phase: 'done', by: 'ana' }]);
  });

  it('records no `by` for the system principal', async () => {
    const { act, recorded } = world(recording);
    assert.deepEqual(await act('run', system), { status: 'accepted', phase: 'done' });
    assert.deepEqual(recorded, [{ sessionId, callId, action: 'test_action', phase: 'done' }]);
  });

  it("gives the handler the card's phase and data, and proposed with no data once the card is gone", async () => {
    const seen: Array<[string, unknown]> = [];
    const look = (ctx: CardKindContext) => seen.push([ctx.phase, ctx.data]);
    const { act, cards } = world(
      testKind({
        verbs: {
          run: {
            handler: async (ctx) => {
              look(ctx);
              ctx.record('started', { step: 1 });
              look(ctx);
              cards.delete(callId);
              look(ctx);
              return { status: 'settled' };
            },
          },
        },
      }),
    );
    assert.deepEqual(await act('run'), { status: 'settled', phase: 'proposed' });
    assert.deepEqual(seen, [
      ['proposed', {}],
      ['started', { step: 1 }],
      ['proposed', {}],
    ]);
  });
});
