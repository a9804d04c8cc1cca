// The demo on a "real" model: OPENAI_API_KEY and OPENAI_BASE_URL point the demo's model choice at
// a fake Chat Completions server; the official openai SDK drives the host; Chromium shows it all.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { chooseModel } from '../../demo/agent/model.js';
import { startFakeOpenAI, type FakeProvider } from '../agents/fakeProviders.js';
import { dock, dockState, e2eSuite, say, surfaceAnswers } from './harness.js';
import { TSX_IMPORT } from '../../fixtures/tsxImport.js';

const suite = e2eSuite();

const model = {
  version: 1,
  title: 'Pick a plan',
  sections: [{ id: 'intro', blocks: [{ kind: 'markdown', text: 'Two plans fit.' }] }],
  fields: [
    {
      kind: 'choice',
      id: 'plan',
      label: 'Plan',
      options: [
        { id: 'a', label: 'Plan A' },
        { id: 'b', label: 'Plan B' },
      ],
    },
    { kind: 'text', id: 'why', label: 'Why', required: true },
  ],
  submit: { label: 'Send my choice' },
};

describe('the demo on a model behind OPENAI_BASE_URL (fake provider, real SDK, Chromium)', () => {
  let fake: FakeProvider;
  before(async () => {
    fake = await startFakeOpenAI();
  });
  after(async () => {
    await fake.close();
  });

  it('the model shows a panel, the person submits it, and the answer streams into the transcript', async () => {
    const choice = chooseModel({ OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${fake.url}/v1`, TASK_SURFACE_MODEL: 'fake-model' });
    assert.match(choice.label, /^OpenAI Chat Completions driver, model fake-model at http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const answer = 'Plan B it is: it is faster, and you said speed matters most. I will set it up next.';
    fake.script(
      { text: 'Here are the two plans.', toolCalls: [{ name: 'show_task_surface', arguments: JSON.stringify({ model }) }] },
      { text: answer, paceMs: 120 },
    );
    const demo = await suite.start({ driver: choice.driver! });
    const page = await demo.open();
    await say(page, 'help me pick a plan');
    await dock(page).getByRole('heading', { name: 'Pick a plan' }).waitFor();
    await dock(page)
      .getByRole('radio', { name: /Plan B/ })
      .click();
    await dock(page).getByRole('textbox', { name: /Why/ }).fill('faster');
    await dock(page).getByRole('button', { name: 'Send my choice' }).click();

    // While it streams: a busy row with part of the text, before the whole answer exists.
    const streaming = page.locator('demo-transcript li.streaming[aria-busy="true"]');
    await streaming.getByText('Plan B it is', { exact: false }).waitFor();
    const partial = (await streaming.innerText()).trim();
    assert.ok(partial.length < answer.length, `partial text while streaming (${partial.length} of ${answer.length})`);
    // The log does not read the stream out piece by piece; the logged message is announced once.
    assert.equal(await streaming.getAttribute('aria-live'), 'off');
    assert.equal(await streaming.locator('.speaker').textContent(), 'Agent:');
    // Then the logged message, once, and no streaming row.
    await page.locator('demo-transcript li.agent:not(.streaming)').getByText('I will set it up next.').waitFor();
    await streaming.waitFor({ state: 'detached' });
    await dockState(page, 'hidden');

    const events = await demo.events();
    assert.equal(events.filter((e) => e.type === 'assistant/message' && e.text === answer).length, 1);
    assert.equal(surfaceAnswers(events).length, 1);
    const second = fake.requests[1]!.messages;
    const call = second.find((m: any) => m.tool_calls);
    const result = second.find((m: any) => m.role === 'tool');
    assert.equal(result.tool_call_id, call.tool_calls[0].id);
    assert.match(second.at(-1).content, /^Pick a plan\nPlan: Plan B\nWhy: faster/);
  });

  // A demo process of its own starts here (tsx compiles the host): 60 s, as a cluster worker's start has.
  it(
    '`npm start` with the variables set names the driver and the model on its startup line, and answers with it',
    { timeout: 60_000 },
    async () => {
      const env = {
        ...process.env,
        PORT: '0',
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: `${fake.url}/v1`,
        TASK_SURFACE_MODEL: 'fake-model',
      };
      const child = spawn(process.execPath, [...TSX_IMPORT, 'demo/server.ts', '--memory'], {
        env,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      child.stdout.on('data', (chunk) => {
        out += chunk;
      });
      try {
        while (!/Ctrl\+C stops/.test(out)) {
          if (child.exitCode !== null) assert.fail(`the demo exited: ${out}`);
          await new Promise((r) => setTimeout(r, 50));
        }
        assert.match(
          out,
          new RegExp(`^agent: OpenAI Chat Completions driver, model fake-model at ${fake.url.replace(/\./g, '\\.')}/v1$`, 'm'),
        );
      } finally {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
    },
  );

  it('a refused key ends the turn with the reason in the transcript', async () => {
    fake.script({ status: 401, message: 'Incorrect API key provided' });
    const choice = chooseModel({ OPENAI_API_KEY: 'sk-bad', OPENAI_BASE_URL: `${fake.url}/v1` });
    const demo = await suite.start({ driver: choice.driver! });
    const page = await demo.open();
    await say(page, 'hello');
    await page
      .locator('demo-transcript li.failed')
      .getByText(/The agent could not answer: .*refused the API key \(401\)/)
      .waitFor();
  });
});
