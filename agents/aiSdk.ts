import { jsonSchema, streamText, generateText, tool, type JSONSchema7, type LanguageModel, type ModelMessage, type ToolSet } from 'ai';
import { DEFAULT_SYSTEM_PROMPT } from '../host/prompt.js';
import type { AgentDriver, ModelRequest } from '../host/types.js';
import type { ToolDefinition } from '../protocol/index.js';
import { nativeConversation } from './conversation.js';
import { StreamCutError } from './errors.js';
import {
  createLoopDriver,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  type LoopOptions,
  type ModelIO,
  type ModelStepResult,
  type ModelToolCall,
} from './loop.js';

export interface AiSdkDriverOptions extends LoopOptions {
  /** Any AI SDK language model: `openai('gpt-4.1-mini')`, `anthropic(…)`, a local provider… */
  model: LanguageModel;
  /** Replaces the default system prompt. */
  system?: string;
  /** Stream the reply (default true). */
  stream?: boolean;
  /** Retries of retryable failures (429, 5xx) with the AI SDK's back-off (default 2). */
  maxRetries?: number;
  /** The longest silence: before the answer starts, between streamed parts, or the whole call without streaming (default 60 s). */
  timeoutMs?: number;
}

/**
 * The session as AI SDK model messages: `tool-call` parts with their ids, `tool-result` parts
 * paired by `toolCallId` (failed ones as `error-text`), developer notices as system messages in place.
 */
export function aiSdkMessages(request: ModelRequest): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (const item of nativeConversation(request.messages)) {
    switch (item.kind) {
      case 'user':
        out.push({ role: 'user', content: item.text });
        break;
      case 'developer':
        out.push({ role: 'system', content: item.text });
        break;
      case 'assistant':
        out.push({
          role: 'assistant',
          content: [
            ...(item.text === '' ? [] : [{ type: 'text' as const, text: item.text }]),
            ...item.calls.map((c) => ({ type: 'tool-call' as const, toolCallId: c.callId, toolName: c.name, input: c.args })),
          ],
        });
        break;
      case 'results':
        out.push({
          role: 'tool',
          content: item.results.map((r) => ({
            type: 'tool-result' as const,
            toolCallId: r.callId,
            toolName: r.name,
            output: r.ok ? { type: 'text' as const, value: r.content } : { type: 'error-text' as const, value: r.content },
          })),
        });
        break;
    }
  }
  return out;
}

/** The host's declarations as AI SDK tools without `execute`: the Host runs them, not the SDK. */
export function aiSdkTools(tools: readonly ToolDefinition[]): ToolSet {
  return Object.fromEntries(
    tools.map((t) => [t.name, tool({ description: t.description, inputSchema: jsonSchema(t.inputSchema as JSONSchema7) })]),
  );
}

/** An `AgentDriver` over the Vercel AI SDK: every provider it supports. */
export function createAiSdkDriver(options: AiSdkDriverOptions): AgentDriver {
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const system = options.system ?? DEFAULT_SYSTEM_PROMPT;
  const stream = options.stream ?? true;
  const name = typeof options.model === 'string' ? options.model : `${options.model.provider} ${options.model.modelId}`;
  return createLoopDriver(
    {
      label: `The model provider (AI SDK, ${name})`,
      retries: maxRetries,
      timeoutMs,
      async call(request, io) {
        // The AI SDK has no timeout of its own: the loop's watchdog bounds each silence (the whole call
        // without streaming).
        io.touch();
        const call = {
          model: options.model,
          instructions: system,
          messages: aiSdkMessages(request),
          // Developer notices (a dismissal, a card decision) stay in place as system messages.
          allowSystemInMessages: true,
          maxRetries,
          abortSignal: io.signal,
          ...(request.tools.length > 0 ? { tools: aiSdkTools(request.tools) } : {}),
        };
        if (!stream) {
          const result = await generateText(call);
          return { text: result.text, toolCalls: result.toolCalls.map(toModelCall) };
        }
        return readParts(streamText({ ...call, onError: () => {} }).fullStream, io);
      },
    },
    options,
  );
}

function toModelCall(call: { toolName: string; input: unknown; invalid?: boolean; error?: unknown }): ModelToolCall {
  const args = call.input as ModelToolCall['arguments'];
  if (call.invalid) return { name: call.toolName, arguments: args, invalid: errorText(call.error) };
  return { name: call.toolName, arguments: args };
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0]!;

type Part = {
  type: string;
  text?: string;
  error?: unknown;
  id?: string;
  delta?: string;
  toolName?: string;
  input?: unknown;
  invalid?: boolean;
};

/** Text deltas to `onText`; tool calls collected; an `error` part throws; no `finish`: the stream was cut. */
async function readParts(parts: AsyncIterable<Part>, io: Omit<ModelIO, 'signal'>): Promise<ModelStepResult> {
  let text = '';
  const names = new Map<string, string>();
  let finished = false;
  const toolCalls: ModelToolCall[] = [];
  for await (const part of parts) {
    // Parts arrive after the response headers: from here the watchdog bounds each silence.
    io.touch();
    if (part.type === 'text-delta' && part.text) {
      text += part.text;
      io.onText(part.text);
    } else if (part.type === 'tool-input-start' && part.id !== undefined) {
      names.set(part.id, part.toolName ?? '');
    } else if (part.type === 'tool-input-delta' && part.id !== undefined && part.delta) {
      io.onToolInput?.(part.id, names.get(part.id) ?? '', part.delta);
    } else if (part.type === 'tool-call') {
      toolCalls.push(toModelCall(part as Parameters<typeof toModelCall>[0]));
    } else if (part.type === 'error') {
      throw part.error;
    } else if (part.type === 'finish') {
      finished = true;
    }
  }
  if (!finished) throw new StreamCutError();
  return { text, toolCalls };
}
