// The AI SDK driver's default timeout (the case: timeoutDefault.ts).
import { createOpenAI } from '@ai-sdk/openai';
import { createAiSdkDriver } from '../../agents/aiSdk.js';
import { startFakeOpenAI } from './fakeProviders.js';
import { timeoutDefaultCase } from './timeoutDefault.js';

timeoutDefaultCase('AI SDK', startFakeOpenAI, (url) =>
  createAiSdkDriver({ model: createOpenAI({ apiKey: 'k', baseURL: `${url}/v1` }).chat('m') }),
);
