import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RecordDecisionInput } from '../../host/types.js';
import type { SessionId } from '../../protocol/index.js';
import { cardTurn, setup } from './helpers.js';

/*
 * `actionCards.record()` as a kind's author meets it: every refusal is a thrown Error whose whole
 * message names what was wrong, nothing is appended when it refuses, and what it accepts lands in
 * the log exactly as given (the decision's `by` included).
 */

async function recording() {
  const { host, service, sessionId } = setup();
  const callId = await cardTurn(host, sessionId);
  const base: RecordDecisionInput = { sessionId, callId, action: 'create_page', phase: 'created' };
  const refuses = (input: RecordDecisionInput, message: string) => {
    const before = host.log(sessionId).length;
    assert.throws(
      () => service.record(input),
      (error: unknown) => error instanceof Error && error.constructor === Error && error.message === message,
    );
    assert.equal(host.log(sessionId).length, before, 'a refused record appends nothing');
  };
  return { host, service, sessionId, callId, base, refuses };
}

describe('record(): its refusals, word for word', () => {
  it('refuses a session the host does not have, before reading any log', async () => {
    const { base, refuses } = await recording();
    refuses({ ...base, sessionId: 'nope' as SessionId }, 'actionCards.record: unknown session "nope"');
  });

  it('refuses both derived phases, proposed and replaced', async () => {
    const { base, refuses } = await recording();
    refuses({ ...base, phase: 'proposed' }, 'actionCards.record: "proposed" is derived from the log and cannot be recorded');
    refuses({ ...base, phase: 'replaced' }, 'actionCards.record: "replaced" is derived from the log and cannot be recorded');
  });

  it('refuses an empty, a blank and a non-string phase', async () => {
    const { base, refuses } = await recording();
    const message = 'actionCards.record: phase must be a non-empty string';
    refuses({ ...base, phase: '' }, message);
    refuses({ ...base, phase: '   ' }, message);
    refuses({ ...base, phase: 7 as unknown as string }, message);
    refuses({ ...base, phase: undefined as unknown as string }, message);
  });

  it('refuses data that is not a JSON object', async () => {
    const { base, refuses } = await recording();
    const message = 'actionCards.record: data must be a JSON object';
    refuses({ ...base, data: ['page-1'] as unknown as Record<string, never> }, message);
    refuses({ ...base, data: 'page-1' as unknown as Record<string, never> }, message);
    refuses({ ...base, data: { when: new Date(0) } as unknown as Record<string, never> }, message);
  });

  it('refuses a `by` that is not a principal id', async () => {
    const { base, refuses } = await recording();
    const message = 'actionCards.record: by must be a principal id';
    refuses({ ...base, by: '' }, message);
    refuses({ ...base, by: 'ana\nbob' }, message);
    refuses({ ...base, by: 'x'.repeat(1000) }, message);
  });
});

describe('record(): what it appends', () => {
  it('names who decided when given `by`, and no one otherwise', async () => {
    const { host, service, sessionId, callId, base } = await recording();
    const byAna = service.record({ ...base, phase: 'creating', by: 'ana' });
    assert.deepEqual(
      { type: byAna.type, ...(byAna.type === 'action-cards/decision' ? { phase: byAna.phase, by: byAna.by, data: byAna.data } : {}) },
      { type: 'action-cards/decision', phase: 'creating', by: 'ana', data: {} },
    );
    const bySystem = service.record({ ...base, data: { pageId: 'page-1' } });
    assert.ok(bySystem.type === 'action-cards/decision');
    assert.equal('by' in bySystem, false);
    assert.deepEqual(bySystem.data, { pageId: 'page-1' });
    const logged = host.log(sessionId).filter((e) => e.type === 'action-cards/decision');
    assert.deepEqual(
      logged.map((e) => (e.type === 'action-cards/decision' ? [e.callId, e.phase, e.by ?? null] : [])),
      [
        [callId, 'creating', 'ana'],
        [callId, 'created', null],
      ],
    );
  });
});
