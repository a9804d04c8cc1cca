/*
 * `task-surface/agents`: ready-made AgentDrivers over the official model SDKs. Each SDK is an
 * optional peer dependency: import the driver whose SDK you installed (`task-surface/agents/openai`
 * style imports keep the others out; this index loads all three).
 */
export { createOpenAIDriver, openAIMessages, type OpenAIDriverOptions } from './openai.js';
export { createAnthropicDriver, anthropicMessages, toolUseId, developerBlockText, type AnthropicDriverOptions } from './anthropic.js';
export { createAiSdkDriver, aiSdkMessages, aiSdkTools, type AiSdkDriverOptions } from './aiSdk.js';
export { createLoopDriver, type ModelAdapter, type ModelStepResult, type ModelToolCall, type LoopOptions } from './loop.js';
export { nativeConversation, MISSING_RESULT, type NativeItem, type NativeCall, type NativeResult } from './conversation.js';
export { describeModelError, ModelTurnError, StreamCutError } from './errors.js';
export { DEFAULT_SYSTEM_PROMPT } from '../host/prompt.js';
