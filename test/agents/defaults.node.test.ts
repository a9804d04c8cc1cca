// A driver built with only a model and a provider address: the defaults docs/agents.md promises.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createOpenAIDriver } from '../../agents/openai.js';
import { closeWhenDone } from '../closeWhenDone.js';
import { startFakeOpenAI } from './fakeProviders.js';
import { driverHost, lastTurnEnd, turn } from './helpers.js';

const loadSkill = { toolCalls: [{ name: 'skill', arguments: '{"name":"create-page"}' }] };

describe('driver defaults (OpenAI driver, no options)', () => {
  it('stops a turn after 16 model calls that only call tools', async (t) => {
    const fake = await startFakeOpenAI();
    closeWhenDone(t, fake);
    fake.script(...Array.from({ length: 17 }, () => loadSkill));
    const host = driverHost(createOpenAIDriver({ model: 'm', apiKey: 'k', baseURL: `${fake.url}/v1` }));
    t.after(() => host.dispose());
    const sessionId = host.openSession();
    await turn(host, sessionId, 'hi');
    assert.equal(fake.requests.length, 16);
    assert.match((await lastTurnEnd(host, sessionId)).error!, /called tools 16 times without answering; the turn stops here\.$/);
  });

  it('runs 16 tool calls of one response and hands the 17th back unrun', async (t) => {
    const fake = await startFakeOpenAI();
    closeWhenDone(t, fake);
    fake.script({ toolCalls: Array.from({ length: 17 }, () => loadSkill.toolCalls[0]!) }, { text: 'done' });
    const host = driverHost(createOpenAIDriver({ model: 'm', apiKey: 'k', baseURL: `${fake.url}/v1` }));
    t.after(() => host.dispose());
    const sessionId = host.openSession();
    await turn(host, sessionId, 'hi');
    const { events } = await host.readLog(sessionId, { limit: 200 });
    const results = events.flatMap((e) => (e.type === 'tool/result' ? [e] : []));
    assert.equal(results.filter((r) => r.ok).length, 16);
    const unrun = results.filter((r) => !r.ok);
    assert.equal(unrun.length, 1);
    assert.match(unrun[0]!.content, /^Too many tool calls in one response \(at most 16\); this one did not run\./);
  });

  it('retries a failed model call twice (three requests in all)', async (t) => {
    const fake = await startFakeOpenAI();
    closeWhenDone(t, fake);
    const failure = { status: 500, message: 'boom', headers: { 'retry-after-ms': '1' } };
    fake.script(failure, failure, failure, { text: 'never' });
    const host = driverHost(createOpenAIDriver({ model: 'm', apiKey: 'k', baseURL: `${fake.url}/v1` }));
    t.after(() => host.dispose());
    const sessionId = host.openSession();
    await turn(host, sessionId, 'hi');
    assert.equal(fake.requests.length, 3);
    assert.equal((await lastTurnEnd(host, sessionId)).outcome, 'failed');
  });
});
