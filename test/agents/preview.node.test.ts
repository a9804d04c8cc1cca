// The panel's preview while a show_task_surface call streams (host/taskSurface/preview.ts): each
// shipped driver carries its provider's streamed arguments (OpenAI tool_calls deltas, Anthropic
// input_json_delta, the AI SDK's tool-input-delta) to the view's transient `preview`, as the Host
// carries streamed text; the log never holds it; a refused call and a failed turn clear it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createOpenAI } from '@ai-sdk/openai';
import { createAiSdkDriver } from '../../agents/aiSdk.js';
import { createAnthropicDriver } from '../../agents/anthropic.js';
import { createOpenAIDriver } from '../../agents/openai.js';
import type { AgentDriver, AgentTurn } from '../../host/types.js';
import { everyKindModel } from '../../fixtures/models.js';
import { ScriptedDriver } from '../host/helpers.js';
import { startFakeAnthropic, startFakeOpenAI, type FakeProvider } from './fakeProviders.js';
import { driverHost, lastTurnEnd, log, recordViews, turn } from './helpers.js';

const model = everyKindModel();
const text = JSON.stringify({ model });

const drivers: [string, () => Promise<FakeProvider>, (url: string) => AgentDriver][] = [
  ['OpenAI', startFakeOpenAI, (url) => createOpenAIDriver({ model: 'm', apiKey: 'k', baseURL: `${url}/v1`, maxRetries: 0 })],
  ['Anthropic', startFakeAnthropic, (url) => createAnthropicDriver({ model: 'm', apiKey: 'k', baseURL: url, maxRetries: 0 })],
  [
    'AI SDK',
    startFakeOpenAI,
    (url) => createAiSdkDriver({ model: createOpenAI({ apiKey: 'k', baseURL: `${url}/v1` }).chat('m'), maxRetries: 0 }),
  ],
];

for (const [name, start, driverFor] of drivers) {
  describe(`${name} driver: the preview of a streaming show_task_surface`, () => {
    let fake: FakeProvider;
    before(async () => {
      fake = await start();
    });
    after(() => fake.close());

    it('grows in the view before the panel opens, and nothing of it is logged', async () => {
      const host = driverHost(driverFor(fake.url));
      const sessionId = host.openSession();
      const views = recordViews(host, sessionId);
      fake.script({ toolCalls: [{ name: 'show_task_surface', arguments: text }] });
      await turn(host, sessionId, 'help me pick');
      const previews = views.flatMap((v) => (v.preview ? [v.preview.model] : []));
      assert.ok(previews.length >= 3, `several previews (${previews.length})`);
      const blocks = previews.map((m) => m.sections.flatMap((s) => s.blocks).length);
      assert.deepEqual(
        blocks,
        [...blocks].sort((a, b) => a - b),
        'the preview only grows',
      );
      assert.ok(previews.every((m) => m.title === model.title));
      const opened = views.findIndex((v) => v.taskSurface.active !== null);
      assert.ok(opened > 0 && views.slice(0, opened).some((v) => v.preview), 'the preview comes before the panel');
      assert.equal(views.at(-1)!.preview, undefined, 'cleared once the panel is open');
      assert.ok(!JSON.stringify(await log(host, sessionId)).includes('"preview"'), 'the log holds no preview');
      await host.dispose();
    });
  });
}

describe('the Host contract: showToolInput', () => {
  const partial = text.slice(0, text.indexOf('"fields"'));

  it('a refused call clears the preview and the model reads its issues; a failed turn clears it too', async () => {
    const driver = new ScriptedDriver();
    const host = driverHost(driver);
    const sessionId = host.openSession();
    const views = recordViews(host, sessionId);
    let read = '';
    driver.then(async (t: AgentTurn) => {
      t.step();
      t.showToolInput('show_task_surface', partial);
      assert.ok(host.getView(sessionId).preview, 'shown');
      read = (await t.callTool('show_task_surface', { model: { ...model, version: 2 } })).content;
      assert.equal(host.getView(sessionId).preview, undefined, 'a refused call leaves nothing');
      t.showToolInput('show_task_surface', partial);
      throw new Error('stream cut');
    });
    await turn(host, sessionId, 'hi');
    assert.match(read, /version must be 1/);
    assert.ok(views.some((v) => v.preview));
    assert.equal(host.getView(sessionId).preview, undefined, 'a failed turn leaves nothing');
    assert.equal((await lastTurnEnd(host, sessionId)).error, 'stream cut');
    await host.dispose();
  });

  it('shows nothing for another tool, or while a panel is open', async () => {
    const driver = new ScriptedDriver();
    const host = driverHost(driver);
    const sessionId = host.openSession();
    driver.then(async (t: AgentTurn) => {
      t.step();
      t.showToolInput('propose_action', partial);
      assert.equal(host.getView(sessionId).preview, undefined);
      await t.callTool('show_task_surface', { model });
    });
    await turn(host, sessionId, 'hi');
    driver.then((t: AgentTurn) => {
      t.step();
      t.showToolInput('show_task_surface', partial);
      assert.equal(host.getView(sessionId).preview, undefined, 'a second panel would be refused: no preview of it');
      t.reply('ok');
    });
    await turn(host, sessionId, 'more');
    await host.dispose();
  });
});
