// Provider failures end the turn `failed` with a readable, generic reason in the log (turn/ended.error)
// while the provider's own text goes to the server log only; 429 and 5xx are retried first (honouring
// retry-after). The same table runs through all three SDKs.
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createOpenAI } from '@ai-sdk/openai';
import { createAiSdkDriver } from '../../agents/aiSdk.js';
import { createAnthropicDriver } from '../../agents/anthropic.js';
import { createOpenAIDriver } from '../../agents/openai.js';
import type { AgentDriver, Host } from '../../host/types.js';
import type { SessionId } from '../../protocol/index.js';
import { startFakeAnthropic, startFakeOpenAI, type FakeProvider } from './fakeProviders.js';
import { driverHost, lastTurnEnd, log, recordViews, turn } from './helpers.js';

interface Provider {
  name: string;
  start(): Promise<FakeProvider>;
  driver(url: string, o: { maxRetries: number; timeoutMs: number; onModelError(detail: string): void }): AgentDriver;
}

const providers: Provider[] = [
  {
    name: 'OpenAI',
    start: startFakeOpenAI,
    driver: (url, o) => createOpenAIDriver({ model: 'm', apiKey: 'k', baseURL: `${url}/v1`, ...o }),
  },
  {
    name: 'Anthropic',
    start: startFakeAnthropic,
    driver: (url, o) => createAnthropicDriver({ model: 'm', apiKey: 'k', baseURL: url, ...o }),
  },
  {
    name: 'AI SDK',
    start: startFakeOpenAI,
    driver: (url, o) => createAiSdkDriver({ model: createOpenAI({ apiKey: 'k', baseURL: `${url}/v1` }).chat('m'), ...o }),
  },
];

const fast = { 'retry-after-ms': '20' };

for (const provider of providers) {
  describe(`${provider.name} driver: provider errors`, () => {
    let fake: FakeProvider;
    let host: Host;
    let sessionId: SessionId;
    /** What reached the server log. */
    let details: string[] = [];
    const setUp = (o = { maxRetries: 1, timeoutMs: 5_000 }) => {
      details = [];
      host = driverHost(provider.driver(fake.url, { ...o, onModelError: (detail) => details.push(detail) }));
      sessionId = host.openSession({ title: 'Errors' });
    };
    before(async () => {
      fake = await provider.start();
    });
    after(async () => {
      await fake.close();
    });
    beforeEach(() => {
      fake.reset();
      setUp();
    });

    const failedWith = async (pattern: RegExp) => {
      const ended = await lastTurnEnd(host, sessionId);
      assert.equal(ended.outcome, 'failed');
      assert.match(ended.error ?? '', pattern);
      assert.equal((await log(host, sessionId)).filter((e) => e.type === 'assistant/message').length, 0, 'no answer logged');
      assert.equal(host.getView(sessionId).turn, 'idle');
    };

    it('401: fails at once, saying the key was refused; the provider text reaches the server log only', async () => {
      fake.script({ status: 401, message: `Incorrect API key provided: sk-bad at ${fake.url}` });
      await turn(host, sessionId, 'hi');
      await failedWith(/^The model provider \(.+\) refused the API key \(401\)\. Check the key and the base URL\.$/);
      const shown = JSON.stringify(await log(host, sessionId));
      assert.ok(!shown.includes('sk-bad') && !shown.includes(fake.url), 'no key fragment or base URL in the log a person reads');
      assert.ok(
        details.some((d) => d.includes('Incorrect API key provided: sk-bad')),
        `the detail was logged: ${JSON.stringify(details)}`,
      );
      assert.equal(fake.requests.length, 1, 'a 401 is not retried');
    });

    it('429 with retry-after: retried, then the turn completes', async () => {
      fake.script({ status: 429, message: 'Rate limit reached', headers: fast }, { text: 'Recovered.' });
      await turn(host, sessionId, 'hi');
      assert.equal(fake.requests.length, 2);
      assert.equal((await lastTurnEnd(host, sessionId)).outcome, 'completed');
    });

    it('429 that persists: fails after the retries, saying so', async () => {
      fake.script(
        { status: 429, message: 'Rate limit reached', headers: fast },
        { status: 429, message: 'Rate limit reached', headers: fast },
      );
      await turn(host, sessionId, 'hi');
      assert.equal(fake.requests.length, 2);
      await failedWith(/is rate-limiting requests \(429\) \(after 1 retry\)\. Try again later\.$/);
    });

    it('5xx: retried, then the turn completes', async () => {
      fake.script({ status: 503, message: 'Overloaded', headers: fast }, { text: 'Recovered.' });
      await turn(host, sessionId, 'hi');
      assert.equal(fake.requests.length, 2);
      assert.equal((await lastTurnEnd(host, sessionId)).outcome, 'completed');
    });

    it('5xx that persists: fails with the status', async () => {
      fake.script({ status: 500, message: 'Internal error', headers: fast }, { status: 502, message: 'Bad gateway', headers: fast });
      await turn(host, sessionId, 'hi');
      await failedWith(/failed \(50[02]\) \(after 1 retry\)\.$/);
    });

    it('a timeout: fails saying how long it waited', async () => {
      setUp({ maxRetries: 0, timeoutMs: 300 });
      fake.script({ hang: true });
      await turn(host, sessionId, 'hi');
      await failedWith(/did not answer within 0\.3 s\.$/);
    });

    it('a stream cut mid-way: fails with how much had arrived; the partial text is cleared, not logged', async () => {
      const views = recordViews(host, sessionId);
      fake.script({ cut: 'The beginning of an answer that never' });
      await turn(host, sessionId, 'hi');
      await failedWith(/reply was cut off after \d+ characters|could not be reached or closed the connection/);
      assert.ok(
        views.some((v) => v.streaming?.text.startsWith('The beginning')),
        'watchers saw the partial text',
      );
      assert.equal(views.at(-1)!.streaming, undefined, 'and then it was cleared');
    });

    it('a stream that stalls mid-way: fails once nothing arrived for the timeout, with what had arrived', async () => {
      setUp({ maxRetries: 0, timeoutMs: 400 });
      const views = recordViews(host, sessionId);
      fake.script({ stall: 'Half of an answer that then' });
      await turn(host, sessionId, 'hi');
      await failedWith(/stopped sending mid-reply: nothing arrived for 0\.4 s \(after \d+ characters\)\.$/);
      assert.ok(views.some((v) => v.streaming?.text.startsWith('Half of')));
      assert.equal(views.at(-1)!.streaming, undefined);
    });

    it('the next message after a failure runs a fresh turn normally', async () => {
      fake.script({ status: 401, message: 'bad key' }, { text: 'Back again.' });
      await turn(host, sessionId, 'hi');
      await turn(host, sessionId, 'again');
      assert.equal((await lastTurnEnd(host, sessionId)).outcome, 'completed');
    });
  });
}
