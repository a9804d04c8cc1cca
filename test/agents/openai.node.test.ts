// Whole conversations through the official openai SDK against a fake Chat Completions server.
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createOpenAIDriver } from '../../agents/openai.js';
import { DEFAULT_SYSTEM_PROMPT } from '../../host/prompt.js';
import type { Host } from '../../host/types.js';
import { showTaskSurfaceTool, toOpenAITool, type SessionId } from '../../protocol/index.js';
import { sampleModel } from '../host/helpers.js';
import { startFakeOpenAI, type FakeProvider } from './fakeProviders.js';
import { driverHost, ids, lastTurnEnd, log, recordViews, submitOpen, turn } from './helpers.js';

const show = (title = 'Pick a plan') => ({ name: 'show_task_surface', arguments: JSON.stringify({ model: sampleModel(title) }) });

for (const stream of [true, false]) {
  describe(`OpenAI Chat Completions driver (${stream ? 'streaming' : 'JSON'})`, () => {
    let fake: FakeProvider;
    let host: Host;
    let sessionId: SessionId;
    before(async () => {
      fake = await startFakeOpenAI();
    });
    after(async () => {
      await fake.close();
    });
    beforeEach(async () => {
      fake.reset();
      host = driverHost(createOpenAIDriver({ model: 'fake-model', apiKey: 'sk-test', baseURL: `${fake.url}/v1`, stream, maxRetries: 0 }));
      sessionId = host.openSession({ title: 'Chat' });
    });

    it('shows a surface; the next request pairs the call and its result by id and carries the submission', async () => {
      fake.script({ text: 'Let me lay the options out.', toolCalls: [show()] }, { text: 'Plan A it is.' });
      await turn(host, sessionId, 'help me pick a plan');
      const first = fake.requests[0]!;
      assert.equal(first.model, 'fake-model');
      assert.equal(first.stream ?? false, stream);
      assert.deepEqual(first.messages, [
        { role: 'system', content: DEFAULT_SYSTEM_PROMPT },
        { role: 'user', content: 'help me pick a plan' },
      ]);
      assert.deepEqual(first.tools[0], toOpenAITool(showTaskSurfaceTool));
      assert.deepEqual(
        first.tools.map((t: any) => t.function.name),
        ['show_task_surface', 'skill'],
      );
      const active = host.getView(sessionId).taskSurface.active!;
      assert.ok(active, 'the call opened the surface');
      assert.equal((await lastTurnEnd(host, sessionId)).outcome, 'concluded');

      await submitOpen(host, sessionId, { plan: 'a', why: 'cheaper' });
      const second = fake.requests[1]!.messages;
      const callId = active.callId;
      assert.deepEqual(second.slice(1, 3), [
        { role: 'user', content: 'help me pick a plan' },
        {
          role: 'assistant',
          content: 'Let me lay the options out.',
          tool_calls: [{ id: callId, type: 'function', function: { name: 'show_task_surface', arguments: show().arguments } }],
        },
      ]);
      assert.equal(second[3].role, 'tool');
      assert.equal(second[3].tool_call_id, callId);
      assert.match(second[3].content, /is now shown to the user; your turn ends here/);
      assert.equal(second[4].role, 'user');
      assert.match(second[4].content, /^Pick a plan\nPlan: Plan A\nWhy: cheaper/);
      assert.equal(second.length, 5);
      const answers = (await log(host, sessionId)).filter((e) => e.type === 'assistant/message');
      assert.deepEqual(
        answers.map((e) => e.type === 'assistant/message' && e.text),
        ['Let me lay the options out.', 'Plan A it is.'],
      );
    });

    it('loads a skill, is told propose_action joined (append-only), and proposes a card', async () => {
      fake.script(
        { toolCalls: [{ name: 'skill', arguments: '{"name":"create-page"}' }] },
        {
          toolCalls: [
            {
              name: 'propose_action',
              arguments: JSON.stringify({
                action: 'create_page',
                title: 'Save as a page',
                brief: 'Saves this answer as a page.',
                details: { pageTitle: 'Trip plan', sections: ['Day 1', 'Day 2'] },
              }),
            },
          ],
        },
        { text: 'Here is your plan. You can save it as a page below.' },
      );
      await turn(host, sessionId, 'plan my trip');
      assert.equal(fake.requests.length, 3);
      const skillTool = fake.requests[0]!.tools.find((t: any) => t.function.name === 'skill');
      assert.match(skillTool.function.description, /- create-page: Use when the answer is worth keeping as a page/);
      assert.match(skillTool.function.description, /- schedule-follow-up: /);
      assert.deepEqual(
        fake.requests[0]!.tools.map((t: any) => t.function.name),
        ['show_task_surface', 'skill'],
      );
      assert.deepEqual(
        fake.requests[1]!.tools.map((t: any) => t.function.name),
        ['show_task_surface', 'skill', 'propose_action'],
      );
      // The first request is a prefix of the second: the tool addition is appended, nothing rewritten.
      const [m1, m2] = [fake.requests[0]!.messages, fake.requests[1]!.messages];
      assert.deepEqual(m2.slice(0, m1.length), m1);
      assert.deepEqual(m2.at(-1), {
        role: 'system',
        content: 'Tool update: propose_action is now available (declared in your tools from here on).',
      });
      assert.equal(host.getView(sessionId).actionCards.proposals.length, 1);
      const proposeResult = fake.requests[2]!.messages.find(
        (m: any) => m.role === 'tool' && /Card shown below your answer/.test(m.content),
      );
      assert.ok(proposeResult, 'the accepted call answered with the invitation');
    });

    it('tells the model about a dismissal before the next user message', async () => {
      fake.script({ toolCalls: [show()] }, { text: 'Fine, no panel then.' });
      await turn(host, sessionId, 'help me pick');
      const { surfaceId } = host.getView(sessionId).taskSurface.active!;
      await host.taskSurface.dismiss({ sessionId, surfaceId, dismissalId: ids.dismissal() });
      await turn(host, sessionId, 'never mind');
      const messages = fake.requests[1]!.messages;
      assert.deepEqual(messages.slice(-2), [
        { role: 'system', content: `The user dismissed task surface ${surfaceId} without submitting it.` },
        { role: 'user', content: 'never mind' },
      ]);
    });

    it('sends malformed arguments back as a failed result the model corrects on its next step', async () => {
      fake.script({ toolCalls: [{ name: 'show_task_surface', arguments: '{"model": {"version": 1,' }] }, { toolCalls: [show()] });
      await turn(host, sessionId, 'help me pick');
      assert.ok(host.getView(sessionId).taskSurface.active, 'the corrected call opened the surface');
      const retry = fake.requests[1]!.messages;
      assert.deepEqual(retry.at(-2).tool_calls[0].function, { name: 'show_task_surface', arguments: '{"model": {"version": 1,' });
      assert.equal(retry.at(-1).role, 'tool');
      assert.equal(retry.at(-1).tool_call_id, retry.at(-2).tool_calls[0].id);
      assert.match(
        retry.at(-1).content,
        /^The arguments of show_task_surface are not valid JSON \(.+\)\. Call show_task_surface again with a JSON object as its arguments\.$/,
      );
      assert.equal((await lastTurnEnd(host, sessionId)).outcome, 'concluded');
    });

    it('sends a model the parser rejects back with every issue, and the model fixes it', async () => {
      const bad = {
        name: 'show_task_surface',
        arguments: JSON.stringify({ model: { version: 1, title: ' ', sections: [], submit: { label: 'Go' } } }),
      };
      fake.script({ toolCalls: [bad] }, { toolCalls: [show()] });
      await turn(host, sessionId, 'help me pick');
      const result = fake.requests[1]!.messages.at(-1);
      assert.equal(result.role, 'tool');
      assert.match(result.content, /title/);
      assert.ok(host.getView(sessionId).taskSurface.active);
    });

    it('makes show_task_surface an exclusive barrier among parallel calls: later calls do not run', async () => {
      fake.script(
        {
          toolCalls: [
            { name: 'skill', arguments: '{"name":"create-page"}' },
            show(),
            { name: 'skill', arguments: '{"name":"schedule-follow-up"}' },
          ],
        },
        { text: 'ok' },
      );
      await turn(host, sessionId, 'go');
      const calls = (await log(host, sessionId)).filter((e) => e.type === 'tool/call').map((e) => e.type === 'tool/call' && e.name);
      assert.deepEqual(calls, ['skill', 'show_task_surface'], 'the call after the barrier never ran');
      assert.equal((await lastTurnEnd(host, sessionId)).outcome, 'concluded');
      await submitOpen(host, sessionId, { plan: 'b', why: 'faster' });
      const messages = fake.requests[1]!.messages;
      const sent = messages.filter((m: any) => m.tool_calls).flatMap((m: any) => m.tool_calls.map((c: any) => c.id));
      const answered = messages.filter((m: any) => m.role === 'tool').map((m: any) => m.tool_call_id);
      assert.deepEqual(sent, ['call-1', 'call-2']);
      assert.deepEqual(answered, sent, 'every call sent has its result, in order');
      messages.forEach((m: any, i: number) => {
        for (const [k, c] of (m.tool_calls ?? []).entries())
          assert.equal(messages[i + 1 + k].tool_call_id, c.id, 'each result follows its call');
      });
    });

    it('reads parallel tool calls from a server that omits the delta index, and a call without a name is handed back', async () => {
      fake.script({ toolCalls: [{ name: 'skill', arguments: '{"name":"create-page"}' }, show()], noIndex: true });
      await turn(host, sessionId, 'go');
      const calls = (await log(host, sessionId))
        .filter((e) => e.type === 'tool/call')
        .map((e) => e.type === 'tool/call' && [e.name, e.args]);
      assert.deepEqual(calls, [
        ['skill', { name: 'create-page' }],
        ['show_task_surface', { model: sampleModel() }],
      ]);
      fake.script({ toolCalls: [{ name: '', arguments: '{}' }] }, { text: 'Sorry, answering in words.' });
      const other = host.openSession();
      await turn(host, other, 'go');
      const result = (await log(host, other)).find((e) => e.type === 'tool/result');
      assert.ok(result?.type === 'tool/result' && !result.ok && result.name === '(unnamed)' && /had no name/.test(result.content));
      assert.equal((await lastTurnEnd(host, other)).outcome, 'completed');
    });

    if (stream) {
      it('streams text to watchers as a transient view field and logs the final message once', async () => {
        const views = recordViews(host, sessionId);
        const text = 'Here is a longer answer that arrives in several pieces.';
        fake.script({ text });
        await turn(host, sessionId, 'explain');
        const partials = views.map((v) => v.streaming?.text).filter((t): t is string => t !== undefined);
        assert.ok(partials.length >= 3, `several partial views (${partials.length})`);
        assert.ok(
          partials.every((p, i) => text.startsWith(p) && (i === 0 || p.length >= partials[i - 1]!.length)),
          'each is a growing prefix',
        );
        assert.equal(views.at(-1)!.streaming, undefined, 'cleared once the message is logged');
        const events = await log(host, sessionId);
        assert.deepEqual(
          events.filter((e) => e.type === 'assistant/message').map((e) => e.type === 'assistant/message' && e.text),
          [text],
        );
        assert.deepEqual(
          events.map((e) => e.type),
          ['user/message', 'turn/started', 'assistant/message', 'turn/ended'],
          'no event per delta',
        );
      });
    }
  });
}
