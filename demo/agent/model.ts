import { createAnthropicDriver } from '../../agents/anthropic.js';
import { createOpenAIDriver } from '../../agents/openai.js';
import type { AgentDriver } from '../../host/types.js';
import { shownUrl } from '../shownUrl.js';

/** Which agent the demo runs: a real model when a key is set, the scripted agent otherwise. */
export interface ModelChoice {
  /** Undefined: the scripted agent. */
  driver: AgentDriver | undefined;
  /** The startup line's words: which driver and which model. */
  label: string;
}

export const DEFAULT_OPENAI_MODEL = 'gpt-4.1-mini';
export const DEFAULT_ANTHROPIC_MODEL = 'claude-sonnet-4-5';

const isHttpUrl = (text: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(text).protocol);
  } catch {
    return false;
  }
};

/**
 * `OPENAI_API_KEY` set: the Chat Completions driver (`OPENAI_BASE_URL` honoured, so a local
 * OpenAI-compatible server works); else `ANTHROPIC_API_KEY`: the Anthropic driver
 * (`ANTHROPIC_BASE_URL` honoured); `TASK_SURFACE_MODEL` names the model. Blank values count as unset;
 * a base URL that is not http(s) throws, naming the variable.
 */
export function chooseModel(env: Record<string, string | undefined>): ModelChoice {
  const set = (name: string) => (env[name]?.trim() ? env[name]!.trim() : undefined);
  for (const name of ['OPENAI_BASE_URL', 'ANTHROPIC_BASE_URL']) {
    const url = set(name);
    if (url !== undefined && !isHttpUrl(url)) throw new Error(`${name} must be an http:// or https:// URL, not "${url}"`);
  }
  const model = set('TASK_SURFACE_MODEL');
  const openAIKey = set('OPENAI_API_KEY');
  if (openAIKey) {
    const baseURL = set('OPENAI_BASE_URL');
    const name = model ?? DEFAULT_OPENAI_MODEL;
    return {
      driver: createOpenAIDriver({ model: name, apiKey: openAIKey, ...(baseURL ? { baseURL } : {}) }),
      label: `OpenAI Chat Completions driver, model ${name}${baseURL ? ` at ${shownUrl(baseURL)}` : ''}`,
    };
  }
  const anthropicKey = set('ANTHROPIC_API_KEY');
  if (anthropicKey) {
    const baseURL = set('ANTHROPIC_BASE_URL');
    const name = model ?? DEFAULT_ANTHROPIC_MODEL;
    return {
      driver: createAnthropicDriver({ model: name, apiKey: anthropicKey, ...(baseURL ? { baseURL } : {}) }),
      label: `Anthropic Messages driver, model ${name}${baseURL ? ` at ${shownUrl(baseURL)}` : ''}`,
    };
  }
  return { driver: undefined, label: 'the scripted demo agent (set OPENAI_API_KEY or ANTHROPIC_API_KEY for a real model)' };
}
