// The Anthropic driver's default timeout (the case: timeoutDefault.ts).
import { createAnthropicDriver } from '../../agents/anthropic.js';
import { startFakeAnthropic } from './fakeProviders.js';
import { timeoutDefaultCase } from './timeoutDefault.js';

timeoutDefaultCase('Anthropic', startFakeAnthropic, (url) => createAnthropicDriver({ model: 'm', apiKey: 'k', baseURL: url }));
