// Whole conversations through the Vercel AI SDK (@ai-sdk/openai's chat model) against the fake
// Chat Completions server.
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createOpenAI } from '@ai-sdk/openai';
import { createAiSdkDriver } from '../../agents/aiSdk.js';
import { DEFAULT_SYSTEM_PROMPT } from '../../host/prompt.js';
import type { Host } from '../../host/types.js';
import type { SessionId } from '../../protocol/index.js';
import { sampleModel } from '../host/helpers.js';
import { startFakeOpenAI, type FakeProvider } from './fakeProviders.js';
import { driverHost, ids, lastTurnEnd, log, recordViews, submitOpen, turn } from './helpers.js';

const show = () => ({ name: 'show_task_surface', arguments: JSON.stringify({ model: sampleModel() }) });

for (const stream of [true, false]) {
  describe(`AI SDK driver (${stream ? 'streamText' : 'generateText'})`, () => {
    let fake: FakeProvider;
    let host: Host;
    let sessionId: SessionId;
    before(async () => {
      fake = await startFakeOpenAI();
    });
    after(async () => {
      await fake.close();
    });
    beforeEach(() => {
      fake.reset();
      const provider = createOpenAI({ apiKey: 'sk-test', baseURL: `${fake.url}/v1` });
      host = driverHost(createAiSdkDriver({ model: provider.chat('fake-model'), stream, maxRetries: 0 }));
      sessionId = host.openSession({ title: 'Chat' });
    });

    it('shows a surface; the next request pairs the call and its result and carries the submission', async () => {
      fake.script({ toolCalls: [show()] }, { text: 'Plan A it is.' });
      await turn(host, sessionId, 'help me pick');
      const first = fake.requests[0]!;
      assert.deepEqual(first.messages[0], { role: 'system', content: DEFAULT_SYSTEM_PROMPT });
      assert.deepEqual(
        first.tools.map((t: any) => t.function.name),
        ['show_task_surface', 'skill'],
      );
      const { callId } = host.getView(sessionId).taskSurface.active!;
      await submitOpen(host, sessionId, { plan: 'b', why: 'faster' });
      const second = fake.requests[1]!.messages;
      const assistant = second.find((m: any) => m.tool_calls);
      assert.equal(assistant.tool_calls[0].id, callId);
      assert.deepEqual(JSON.parse(assistant.tool_calls[0].function.arguments), { model: sampleModel() });
      const result = second.find((m: any) => m.role === 'tool');
      assert.equal(result.tool_call_id, callId);
      assert.match(result.content, /is now shown to the user/);
      assert.match(second.at(-1).content, /^Pick a plan\nPlan: Plan B/);
      assert.equal((await lastTurnEnd(host, sessionId)).outcome, 'completed');
      assert.deepEqual(
        (await log(host, sessionId)).filter((e) => e.type === 'assistant/message').map((e) => e.type === 'assistant/message' && e.text),
        ['Plan A it is.'],
      );
    });

    it('passes a dismissal to the model as a system message in place', async () => {
      fake.script({ toolCalls: [show()] }, { text: 'ok' });
      await turn(host, sessionId, 'pick');
      const { surfaceId } = host.getView(sessionId).taskSurface.active!;
      await host.taskSurface.dismiss({ sessionId, surfaceId, dismissalId: ids.dismissal() });
      await turn(host, sessionId, 'never mind');
      assert.deepEqual(fake.requests[1]!.messages.slice(-2), [
        { role: 'system', content: `The user dismissed task surface ${surfaceId} without submitting it.` },
        { role: 'user', content: 'never mind' },
      ]);
    });

    it('hands malformed arguments back as a failed result the model corrects', async () => {
      fake.script({ toolCalls: [{ name: 'show_task_surface', arguments: '{"model":' }] }, { toolCalls: [show()] });
      await turn(host, sessionId, 'pick');
      const retry = fake.requests[1]!.messages;
      const result = retry.find((m: any) => m.role === 'tool');
      assert.match(result.content, /show_task_surface/);
      assert.match(result.content, /Call show_task_surface again with a JSON object/);
      assert.ok(host.getView(sessionId).taskSurface.active, 'the corrected call opened the surface');
    });

    if (stream) {
      it('streams text to watchers and logs it once', async () => {
        const views = recordViews(host, sessionId);
        fake.script({ text: 'Streaming through the AI SDK in pieces.' });
        await turn(host, sessionId, 'hi');
        assert.ok(views.filter((v) => v.streaming).length >= 3);
        assert.equal(views.at(-1)!.streaming, undefined);
        assert.equal((await log(host, sessionId)).filter((e) => e.type === 'assistant/message').length, 1);
      });
    }
  });
}
