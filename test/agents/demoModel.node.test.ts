// The demo's model choice from the environment, and the startup line that names it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chooseModel, DEFAULT_ANTHROPIC_MODEL, DEFAULT_OPENAI_MODEL } from '../../demo/agent/model.js';
import { startFakeAnthropic, startFakeOpenAI } from './fakeProviders.js';
import { driverHost, lastTurnEnd, turn } from './helpers.js';

describe('demo model choice', () => {
  it('runs the scripted agent without a key (a blank key counts as none)', () => {
    for (const env of [{}, { OPENAI_API_KEY: '  ' }, { TASK_SURFACE_MODEL: 'gpt-x' }]) {
      const choice = chooseModel(env);
      assert.equal(choice.driver, undefined);
      assert.match(choice.label, /^the scripted demo agent \(set OPENAI_API_KEY or ANTHROPIC_API_KEY for a real model\)$/);
    }
  });

  it('OPENAI_API_KEY picks Chat Completions (before Anthropic), with the default model or TASK_SURFACE_MODEL', () => {
    assert.equal(
      chooseModel({ OPENAI_API_KEY: 'k', ANTHROPIC_API_KEY: 'a' }).label,
      `OpenAI Chat Completions driver, model ${DEFAULT_OPENAI_MODEL}`,
    );
    assert.equal(
      chooseModel({ OPENAI_API_KEY: 'k', TASK_SURFACE_MODEL: 'llama3', OPENAI_BASE_URL: 'http://localhost:11434/v1' }).label,
      'OpenAI Chat Completions driver, model llama3 at http://localhost:11434/v1',
    );
  });

  it('refuses a base URL that is not http(s), naming the variable', () => {
    assert.throws(
      () => chooseModel({ OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'localhost:11434' }),
      /^Error: OPENAI_BASE_URL must be an http:\/\/ or https:\/\/ URL, not "localhost:11434"$/,
    );
    assert.throws(() => chooseModel({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: 'ftp://x' }), /ANTHROPIC_BASE_URL must be an http/);
  });

  it('ANTHROPIC_API_KEY picks Messages', () => {
    assert.equal(chooseModel({ ANTHROPIC_API_KEY: 'a' }).label, `Anthropic Messages driver, model ${DEFAULT_ANTHROPIC_MODEL}`);
  });

  it('the chosen drivers talk to OPENAI_BASE_URL and ANTHROPIC_BASE_URL with the named model', async () => {
    const openai = await startFakeOpenAI();
    const anthropic = await startFakeAnthropic();
    try {
      for (const [fake, env] of [
        [openai, { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: `${openai.url}/v1`, TASK_SURFACE_MODEL: 'local-model' }],
        [anthropic, { ANTHROPIC_API_KEY: 'a', ANTHROPIC_BASE_URL: anthropic.url, TASK_SURFACE_MODEL: 'local-model' }],
      ] as const) {
        fake.script({ text: 'hello' });
        const host = driverHost(chooseModel(env).driver!);
        const sessionId = host.openSession();
        await turn(host, sessionId, 'hi');
        assert.equal((await lastTurnEnd(host, sessionId)).outcome, 'completed');
        assert.equal(fake.requests.at(-1)!.model, 'local-model');
        await host.dispose();
      }
    } finally {
      await openai.close();
      await anthropic.close();
    }
  });
});
