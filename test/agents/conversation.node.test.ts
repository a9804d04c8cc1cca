// The provider-neutral conversation every driver maps, and the failures the error table promises.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MISSING_RESULT, nativeConversation } from '../../agents/conversation.js';
import OpenAI from 'openai';
import { createOpenAIDriver } from '../../agents/openai.js';
import type { PromptMessage } from '../../host/types.js';
import type { CallId } from '../../protocol/index.js';
import { startFakeAnthropic, startFakeOpenAI } from './fakeProviders.js';
import { createAnthropicDriver } from '../../agents/anthropic.js';
import { driverHost, ids, lastTurnEnd, say, turn } from './helpers.js';

let seq = 0;
const user = (text: string): PromptMessage => ({ role: 'user', text, seq: ++seq });
const dev = (text: string): PromptMessage => ({ role: 'developer', text, seq: ++seq });
const said = (text: string): PromptMessage => ({ role: 'assistant', text, seq: ++seq });
const call = (id: string, name = 'skill'): PromptMessage => ({
  role: 'assistant',
  text: `[call ${name}]`,
  seq: ++seq,
  toolCall: { callId: id as CallId, name, args: {} },
});
const result = (id: string, ok = true, name = 'skill'): PromptMessage => ({
  role: 'tool',
  text: `[result ${id}]`,
  seq: ++seq,
  toolResult: { callId: id as CallId, name, ok, content: `r ${id}` },
});

describe('nativeConversation', () => {
  it('joins an answer with its calls, and the results follow together in call order', () => {
    const items = nativeConversation([user('q'), said('Let me check.'), call('a'), call('b'), result('b'), result('a'), said('Done.')]);
    assert.deepEqual(
      items.map((i) => i.kind),
      ['user', 'assistant', 'results', 'assistant'],
    );
    assert.deepEqual(items[1], {
      kind: 'assistant',
      text: 'Let me check.',
      calls: [
        { callId: 'a', name: 'skill', args: {} },
        { callId: 'b', name: 'skill', args: {} },
      ],
    });
    assert.deepEqual(items[2]!.kind === 'results' && items[2]!.results.map((r) => r.callId), ['a', 'b']);
  });

  it('holds a notice that landed while a call ran until the call is answered', () => {
    const items = nativeConversation([user('q'), call('a'), dev('The user dismissed task surface s1 without submitting it.'), result('a')]);
    assert.deepEqual(
      items.map((i) => i.kind),
      ['user', 'assistant', 'results', 'developer'],
    );
  });

  it('answers a call that has no logged result with a failed one, and keeps an orphan result as a notice', () => {
    const items = nativeConversation([user('q'), call('a'), user('hello?'), result('zzz')]);
    assert.deepEqual(
      items.map((i) => i.kind),
      ['user', 'assistant', 'results', 'user', 'developer'],
    );
    assert.deepEqual(items[2], { kind: 'results', results: [{ callId: 'a', name: 'skill', ok: false, content: MISSING_RESULT }] });
    assert.deepEqual(items[4], { kind: 'developer', text: '[result zzz]' });
  });

  it('starts a new step for a call after results (sequential calls stay paired)', () => {
    const items = nativeConversation([call('a'), result('a'), call('b'), result('b', false)]);
    assert.deepEqual(
      items.map((i) => i.kind),
      ['assistant', 'results', 'assistant', 'results'],
    );
  });
});

describe('more provider failures', () => {
  it('an unreachable server: failed, saying it could not be reached', async () => {
    const details: string[] = [];
    const onModelError = (detail: string) => details.push(detail);
    const host = driverHost(createOpenAIDriver({ model: 'm', apiKey: 'k', baseURL: 'http://127.0.0.1:9/v1', maxRetries: 0, onModelError }));
    const sessionId = host.openSession();
    await turn(host, sessionId, 'hi');
    const ended = await lastTurnEnd(host, sessionId);
    assert.equal(ended.outcome, 'failed');
    // People read a generic reason; the provider's own words go to the server's log only.
    assert.equal(ended.error, 'The model provider (OpenAI-compatible, m) could not be reached or closed the connection.');
    assert.equal(details.length, 1);
    assert.doesNotMatch(ended.error!, /127\.0\.0\.1/);
  });

  it('another 4xx: failed, naming the status; the provider message goes to the log', async () => {
    const fake = await startFakeOpenAI();
    try {
      fake.script({ status: 400, message: "Invalid schema for function 'show_task_surface'" });
      const details: string[] = [];
      const onModelError = (detail: string) => details.push(detail);
      const host = driverHost(createOpenAIDriver({ model: 'm', apiKey: 'k', baseURL: `${fake.url}/v1`, maxRetries: 0, onModelError }));
      const sessionId = host.openSession();
      await turn(host, sessionId, 'hi');
      assert.equal((await lastTurnEnd(host, sessionId)).error, 'The model provider (OpenAI-compatible, m) rejected the request (400).');
      assert.equal(details.length, 1);
      assert.match(details[0]!, /^400 Invalid schema for function 'show_task_surface'/);
    } finally {
      await fake.close();
    }
  });

  it('a turn cancelled while the model is answering ends cancelled, not failed', async () => {
    const fake = await startFakeOpenAI();
    try {
      fake.script({ hang: true });
      const host = driverHost(createOpenAIDriver({ model: 'm', apiKey: 'k', baseURL: `${fake.url}/v1`, maxRetries: 0 }));
      const sessionId = host.openSession();
      await say(host, sessionId, 'hi');
      while (fake.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
      host.closeSession(sessionId);
      while (!(await lastTurnEnd(host, sessionId))) await new Promise((r) => setTimeout(r, 5));
      assert.equal((await lastTurnEnd(host, sessionId)).outcome, 'cancelled');
    } finally {
      await fake.close();
    }
  });
});

describe('loop bounds and roles', () => {
  it('fails a turn whose model keeps calling tools past maxSteps, and one that answers nothing', async () => {
    const fake = await startFakeOpenAI();
    try {
      const loadSkill = { toolCalls: [{ name: 'skill', arguments: '{"name":"create-page"}' }] };
      fake.script(loadSkill, loadSkill, loadSkill, { text: '' });
      const host = driverHost(createOpenAIDriver({ model: 'm', apiKey: 'k', baseURL: `${fake.url}/v1`, maxRetries: 0, maxSteps: 3 }));
      const sessionId = host.openSession();
      await turn(host, sessionId, 'hi');
      assert.equal(fake.requests.length, 3);
      assert.match((await lastTurnEnd(host, sessionId)).error!, /called tools 3 times without answering; the turn stops here\.$/);
      await turn(host, sessionId, 'again');
      assert.match((await lastTurnEnd(host, sessionId)).error!, /returned an empty answer\.$/);
    } finally {
      await fake.close();
    }
  });

  it("sends notices as `developer` to OpenAI's own API (no baseURL), `system` elsewhere", async () => {
    const fake = await startFakeOpenAI();
    try {
      // OpenAI's own address, delivered to the fake by the SDK's `fetch` option.
      const fetchToFake = (url: string | URL | Request, init?: RequestInit) =>
        fetch(String(url instanceof Request ? url.url : url).replace('https://api.openai.com', fake.url), init);
      const client = new OpenAI({ apiKey: 'k', baseURL: 'https://api.openai.com/v1', fetch: fetchToFake, maxRetries: 0 });
      const host = driverHost(createOpenAIDriver({ model: 'm', client }));
      const sessionId = host.openSession();
      fake.script({
        toolCalls: [
          {
            name: 'show_task_surface',
            arguments: JSON.stringify({
              model: { version: 1, title: 'T', sections: [], fields: [{ kind: 'toggle', id: 't', label: 'T' }], submit: { label: 'Go' } },
            }),
          },
        ],
      });
      await turn(host, sessionId, 'hi');
      const { surfaceId } = host.getView(sessionId).taskSurface.active!;
      await host.taskSurface.dismiss({ sessionId, surfaceId, dismissalId: ids.dismissal() });
      fake.script({ text: 'ok' });
      await turn(host, sessionId, 'next');
      assert.equal(fake.requests.at(-1)!.messages.at(-2).role, 'developer');
    } finally {
      await fake.close();
    }
  });
});

describe('calls per response', () => {
  it('runs at most maxCallsPerStep calls of one response and hands the rest back unrun', async () => {
    const fake = await startFakeOpenAI();
    try {
      const skill = { name: 'skill', arguments: '{"name":"create-page"}' };
      fake.script({ toolCalls: [skill, skill, skill] }, { text: 'done' });
      const host = driverHost(
        createOpenAIDriver({ model: 'm', apiKey: 'k', baseURL: `${fake.url}/v1`, maxRetries: 0, maxCallsPerStep: 2 }),
      );
      const sessionId = host.openSession();
      await turn(host, sessionId, 'hi');
      const events = (await host.readLog(sessionId, { limit: 100 })).events;
      const calls = events.flatMap((e) => (e.type === 'tool/call' ? [e.callId] : []));
      const results = new Map(events.flatMap((e) => (e.type === 'tool/result' ? [[e.callId, e] as const] : [])));
      assert.equal(calls.length, 3);
      assert.deepEqual(
        calls.map((id) => results.get(id)!.ok),
        [true, true, false],
        'in the order the model sent them',
      );
      assert.match(results.get(calls[2]!)!.content, /^Too many tool calls in one response \(at most 2\); this one did not run\./);
      assert.equal((await lastTurnEnd(host, sessionId)).outcome, 'completed');
    } finally {
      await fake.close();
    }
  });
});

describe('oversized arguments', () => {
  it('are handed back unrun, and only their start is logged', async () => {
    const fake = await startFakeOpenAI();
    try {
      const huge = JSON.stringify({ model: { version: 1, title: 'x'.repeat(300_000), sections: [], submit: { label: 'Go' } } });
      fake.script({ toolCalls: [{ name: 'show_task_surface', arguments: huge }] }, { text: 'Sorry.' });
      const host = driverHost(createOpenAIDriver({ model: 'm', apiKey: 'k', baseURL: `${fake.url}/v1`, maxRetries: 0 }));
      const sessionId = host.openSession();
      await turn(host, sessionId, 'hi');
      const events = (await host.readLog(sessionId, { limit: 100 })).events;
      const call = events.find((e) => e.type === 'tool/call');
      const result = events.find((e) => e.type === 'tool/result');
      assert.ok(call?.type === 'tool/call' && typeof call.args === 'string' && call.args.length <= 201);
      assert.ok(result?.type === 'tool/result' && !result.ok);
      assert.match(
        result.content,
        /^The arguments of show_task_surface are 300,\d{3} characters, more than the 262,144 a call may have; nothing ran\./,
      );
      assert.equal(host.getView(sessionId).taskSurface.active, null);
    } finally {
      await fake.close();
    }
  });
});

describe('system prompt override', () => {
  it('`system` replaces the default prompt for OpenAI and Anthropic', async () => {
    const openai = await startFakeOpenAI();
    const anthropic = await startFakeAnthropic();
    try {
      for (const [fake, driver] of [
        [openai, createOpenAIDriver({ model: 'm', apiKey: 'k', baseURL: `${openai.url}/v1`, system: 'You are terse.' })],
        [anthropic, createAnthropicDriver({ model: 'm', apiKey: 'k', baseURL: anthropic.url, system: 'You are terse.' })],
      ] as const) {
        fake.script({ text: 'ok' });
        const host = driverHost(driver);
        await turn(host, host.openSession(), 'hi');
        const body = fake.requests.at(-1)!;
        assert.equal(body.system ?? body.messages[0].content, 'You are terse.');
        assert.ok(!JSON.stringify(body).includes('show_task_surface tool: a temporary panel'), 'the default prompt is not sent');
      }
    } finally {
      await openai.close();
      await anthropic.close();
    }
  });
});
