// `npm run demo:ai-sdk`: the AI SDK example. The scripted model by default; OPENAI_API_KEY (with
// OPENAI_BASE_URL and TASK_SURFACE_MODEL, as the main demo) for a real one. PORT (default 8788).
// TASK_SURFACE_TRUSTED_PROXIES=10.0.0.0/8,…: HTTP proxies whose X-Forwarded-For names the client.
import { createOpenAI } from '@ai-sdk/openai';
import type { LanguageModel } from 'ai';
import { DEFAULT_OPENAI_MODEL } from '../agent/model.js';
import { scriptedModel } from './model.js';
import { startAiSdkDemo } from './server.js';
import { trustedProxiesFromEnv } from '../exampleDoor.js';

const env = (name: string) => process.env[name]?.trim() || undefined;
const port = Number(env('PORT') ?? 8788);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a port number, not "${env('PORT')}"`);
  process.exit(1);
}
let model: LanguageModel = scriptedModel();
let label = 'the scripted model (set OPENAI_API_KEY for a real one)';
const key = env('OPENAI_API_KEY');
if (key) {
  const baseURL = env('OPENAI_BASE_URL');
  const name = env('TASK_SURFACE_MODEL') ?? DEFAULT_OPENAI_MODEL;
  model = createOpenAI({ apiKey: key, ...(baseURL ? { baseURL } : {}) }).chat(name);
  label = `OpenAI model ${name}${baseURL ? ` at ${baseURL}` : ''}`;
}
const trustedProxies = trustedProxiesFromEnv(env('TASK_SURFACE_TRUSTED_PROXIES')); // a bad entry stops the start, named
const demo = await startAiSdkDemo({ model, dataDir: env('TASK_SURFACE_AI_SDK_DATA') ?? '.data/ai-sdk', port, trustedProxies });
console.log(`AI SDK example with ${label}: ${demo.url}/ (chats in ${env('TASK_SURFACE_AI_SDK_DATA') ?? '.data/ai-sdk'})`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void demo.close().then(() => process.exit(0)));
