// Whole conversations through the official @anthropic-ai/sdk against a fake Messages server.
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createAnthropicDriver, toolUseId } from '../../agents/anthropic.js';
import { DEFAULT_SYSTEM_PROMPT } from '../../host/prompt.js';
import type { Host } from '../../host/types.js';
import { showTaskSurfaceTool, toAnthropicTool, type SessionId } from '../../protocol/index.js';
import { sampleModel } from '../host/helpers.js';
import { startFakeAnthropic, type FakeProvider } from './fakeProviders.js';
import { driverHost, ids, lastTurnEnd, log, recordViews, submitOpen, turn } from './helpers.js';

const show = () => ({ name: 'show_task_surface', arguments: JSON.stringify({ model: sampleModel() }) });

describe('toolUseId', () => {
  it('keeps Anthropic-safe ids and maps every other character one-to-one', () => {
    assert.equal(toolUseId('call-1'), 'call-1');
    assert.equal(toolUseId('a.b:c_d'), 'a_2eb_3ac_5fd');
    assert.notEqual(toolUseId('a.b'), toolUseId('a_2eb'));
    assert.match(toolUseId('x:y.z_w-1'), /^[A-Za-z0-9_-]+$/);
  });
});

for (const stream of [true, false]) {
  describe(`Anthropic Messages driver (${stream ? 'streaming' : 'JSON'})`, () => {
    let fake: FakeProvider;
    let host: Host;
    let sessionId: SessionId;
    before(async () => {
      fake = await startFakeAnthropic();
    });
    after(async () => {
      await fake.close();
    });
    beforeEach(() => {
      fake.reset();
      host = driverHost(createAnthropicDriver({ model: 'claude-fake', apiKey: 'sk-ant-test', baseURL: fake.url, stream, maxRetries: 0 }));
      sessionId = host.openSession({ title: 'Chat' });
    });

    it('shows a surface; the next request pairs tool_use and tool_result by id and carries the submission', async () => {
      fake.script({ text: 'Let me lay it out.', toolCalls: [show()] }, { text: 'Plan A it is.' });
      await turn(host, sessionId, 'help me pick a plan');
      const first = fake.requests[0]!;
      assert.equal(first.system, DEFAULT_SYSTEM_PROMPT);
      assert.equal(first.stream ?? false, stream);
      assert.deepEqual(first.messages, [{ role: 'user', content: [{ type: 'text', text: 'help me pick a plan' }] }]);
      assert.deepEqual(first.tools[0], toAnthropicTool(showTaskSurfaceTool));
      const { callId } = host.getView(sessionId).taskSurface.active!;
      await submitOpen(host, sessionId, { plan: 'a', why: 'cheaper' });
      const second = fake.requests[1]!.messages;
      assert.equal(second.length, 3);
      assert.deepEqual(second[1], {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me lay it out.' },
          { type: 'tool_use', id: toolUseId(callId), name: 'show_task_surface', input: { model: sampleModel() } },
        ],
      });
      assert.equal(second[2].role, 'user');
      assert.equal(second[2].content[0].type, 'tool_result');
      assert.equal(second[2].content[0].tool_use_id, toolUseId(callId));
      assert.match(second[2].content[0].content, /is now shown to the user/);
      assert.equal(second[2].content[0].is_error, undefined);
      assert.equal(second[2].content[1].type, 'text');
      assert.match(second[2].content[1].text, /^Pick a plan\nPlan: Plan A/);
      assert.equal((await lastTurnEnd(host, sessionId)).outcome, 'completed');
    });

    it('proposes a card after a skill call, and the card status notice reaches the model as a user-side text block', async () => {
      fake.script(
        { toolCalls: [{ name: 'skill', arguments: '{"name":"create-page"}' }] },
        {
          toolCalls: [
            {
              name: 'propose_action',
              arguments: JSON.stringify({
                action: 'create_page',
                title: 'Save as a page',
                brief: 'Saves it.',
                details: { pageTitle: 'Plan', sections: ['Intro'] },
              }),
            },
          ],
        },
        { text: 'Done. Save it below if you like.' },
      );
      await turn(host, sessionId, 'plan my week');
      const names = (t: any[]) => t.map((x) => x.name);
      assert.deepEqual(names(fake.requests[1]!.tools), ['show_task_surface', 'skill', 'propose_action']);
      const callId = host.getView(sessionId).actionCards.proposals[0]!.callId;
      await host.actionCards.act({ sessionId, callId, verb: 'dismiss' });
      fake.script({ text: 'ok' });
      await turn(host, sessionId, 'thanks');
      const last = fake.requests.at(-1)!.messages.at(-1);
      assert.equal(last.role, 'user');
      const texts = last.content.map((b: any) => b.text);
      assert.equal(texts.at(-2), 'thanks');
      assert.match(texts.at(-1), /^<developer-notice>\nLatest status of action cards/, 'the notice is a text block, after the new context');
    });

    it('tells the model about a dismissal', async () => {
      fake.script({ toolCalls: [show()] }, { text: 'ok' });
      await turn(host, sessionId, 'pick');
      const { surfaceId } = host.getView(sessionId).taskSurface.active!;
      await host.taskSurface.dismiss({ sessionId, surfaceId, dismissalId: ids.dismissal() });
      await turn(host, sessionId, 'forget it');
      const last = fake.requests[1]!.messages.at(-1);
      assert.deepEqual(last.content.slice(-2), [
        {
          type: 'text',
          text: `<developer-notice>\nThe user dismissed task surface ${surfaceId} without submitting it.\n</developer-notice>`,
        },
        { type: 'text', text: 'forget it' },
      ]);
    });

    if (stream) {
      it('hands malformed streamed input back as an is_error result, then the model corrects it', async () => {
        fake.script({ toolCalls: [{ name: 'show_task_surface', arguments: '{"model": [' }] }, { toolCalls: [show()] });
        await turn(host, sessionId, 'pick');
        const retry = fake.requests[1]!.messages;
        assert.deepEqual(retry[1].content[0].input, { raw_arguments: '{"model": [' });
        assert.equal(retry[2].content[0].is_error, true);
        assert.match(retry[2].content[0].content, /not valid JSON/);
        assert.ok(host.getView(sessionId).taskSurface.active);
      });

      it('streams text to watchers and logs it once', async () => {
        const views = recordViews(host, sessionId);
        fake.script({ text: 'A reply that streams in several small pieces.' });
        await turn(host, sessionId, 'hi');
        assert.ok(views.filter((v) => v.streaming).length >= 3);
        assert.equal(views.at(-1)!.streaming, undefined);
        assert.equal((await log(host, sessionId)).filter((e) => e.type === 'assistant/message').length, 1);
      });
    }
  });
}
