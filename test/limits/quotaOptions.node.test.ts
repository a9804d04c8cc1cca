// createHost's `quotas` option as a host developer meets it: a mistake is a TypeError saying which
// and what is known, word for word; a field left undefined keeps its default; Infinity switches off.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createHost } from '../../host/createHost.js';
import { resolveQuotas, type QuotaOptions } from '../../host/limits/index.js';
import { createMemoryStore } from '../../host/store/memory.js';

const refusal = (quotas: unknown) => {
  try {
    createHost({ store: createMemoryStore(), quotas: quotas as QuotaOptions }).dispose();
  } catch (error) {
    assert.ok(error instanceof TypeError, String(error));
    return error.message;
  }
  return null;
};

it('quotas that are not an object are refused whole', () => {
  for (const bad of [null, 5, 'modelCalls']) assert.equal(refusal(bad), 'createHost: quotas must be an object', String(bad));
});

it('an unknown quota is refused with every known one', () => {
  assert.equal(
    refusal({ sessions: 3 }),
    'createHost: unknown quota "sessions"; known: sessionsPerPrincipal, bytesPerSession, bytesPerPrincipal, messagesPerMinute, turnsPerPrincipal, modelCallsPerPrincipal, modelCalls',
  );
});

it('a bad value is refused with its name and itself; undefined keeps the default, Infinity passes', () => {
  for (const bad of [0, -1, 1.5, '3', NaN]) {
    assert.equal(refusal({ modelCalls: bad }), `createHost: quotas.modelCalls must be a positive integer or Infinity, not ${String(bad)}`);
  }
  assert.equal(refusal({ modelCalls: undefined, turnsPerPrincipal: Infinity, messagesPerMinute: 1 }), null);
  const quotas = resolveQuotas({ modelCalls: undefined, turnsPerPrincipal: Infinity });
  assert.equal(quotas.modelCalls, 32);
  assert.equal(quotas.turnsPerPrincipal, Infinity);
});
