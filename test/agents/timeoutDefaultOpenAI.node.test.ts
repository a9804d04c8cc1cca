// The OpenAI driver's default timeout (the case: timeoutDefault.ts).
import { createOpenAIDriver } from '../../agents/openai.js';
import { startFakeOpenAI } from './fakeProviders.js';
import { timeoutDefaultCase } from './timeoutDefault.js';

timeoutDefaultCase('OpenAI', startFakeOpenAI, (url) => createOpenAIDriver({ model: 'm', apiKey: 'k', baseURL: `${url}/v1` }));
