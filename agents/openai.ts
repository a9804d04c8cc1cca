import OpenAI from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { toOpenAITool } from '../protocol/index.js';
import { DEFAULT_SYSTEM_PROMPT } from '../host/prompt.js';
import type { AgentDriver, ModelRequest } from '../host/types.js';
import { nativeConversation } from './conversation.js';
import { ModelTurnError, StreamCutError } from './errors.js';
import { createLoopDriver, sdkClientSettings, type LoopOptions, type ModelIO, type ModelStepResult, type ModelToolCall } from './loop.js';

export interface OpenAIDriverOptions extends LoopOptions {
  /** The model name, e.g. `gpt-4.1-mini` (or a local server's model). */
  model: string;
  /** Defaults to the SDK's own (`OPENAI_API_KEY`). Ignored when `client` is given. */
  apiKey?: string;
  /** An OpenAI-compatible server (llama.cpp, Ollama, vLLM). Defaults to the SDK's (`OPENAI_BASE_URL`). */
  baseURL?: string;
  /** A client you built yourself (proxies, headers). */
  client?: OpenAI;
  /** Replaces the default system prompt. */
  system?: string;
  /** Stream the reply (default true). */
  stream?: boolean;
  /** Retries of 429, 5xx and timeouts, with the SDK's back-off and retry-after (default 2). */
  maxRetries?: number;
  /** Per request (default 60 s). */
  timeoutMs?: number;
  /**
   * The role of developer notices: `developer` for OpenAI's own API (the default without a
   * baseURL), `system` for compatible servers that do not know it (the default with one).
   */
  developerRole?: 'developer' | 'system';
}

/** The session as Chat Completions messages: tool calls with their ids, each result paired by `tool_call_id`. */
export function openAIMessages(request: ModelRequest, system: string, developerRole: 'developer' | 'system'): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [{ role: 'system', content: system }];
  for (const item of nativeConversation(request.messages)) {
    switch (item.kind) {
      case 'user':
        out.push({ role: 'user', content: item.text });
        break;
      case 'developer':
        out.push({ role: developerRole, content: item.text });
        break;
      case 'assistant':
        out.push(
          item.calls.length === 0
            ? { role: 'assistant', content: item.text }
            : {
                role: 'assistant',
                content: item.text === '' ? null : item.text,
                tool_calls: item.calls.map((c) => ({
                  id: c.callId,
                  type: 'function' as const,
                  function: { name: c.name, arguments: typeof c.args === 'string' ? c.args : JSON.stringify(c.args) },
                })),
              },
        );
        break;
      case 'results':
        for (const r of item.results) out.push({ role: 'tool', tool_call_id: r.callId, content: r.content });
        break;
    }
  }
  return out;
}

/** An `AgentDriver` over OpenAI Chat Completions (and every server that speaks it). */
export function createOpenAIDriver(options: OpenAIDriverOptions): AgentDriver {
  const { maxRetries, timeoutMs, init } = sdkClientSettings(options);
  const client = options.client ?? new OpenAI(init);
  const custom = options.baseURL !== undefined || !/^https:\/\/api\.openai\.com\//.test(client.baseURL);
  const developerRole = options.developerRole ?? (custom ? 'system' : 'developer');
  const system = options.system ?? DEFAULT_SYSTEM_PROMPT;
  const stream = options.stream ?? true;
  return createLoopDriver(
    {
      label: `The model provider (OpenAI-compatible, ${options.model})`,
      retries: maxRetries,
      timeoutMs,
      async call(request, io) {
        const body = {
          model: options.model,
          messages: openAIMessages(request, system, developerRole),
          ...(request.tools.length > 0 ? { tools: request.tools.map((t) => toOpenAITool(t) as ChatCompletionTool) } : {}),
        };
        if (!stream) {
          const completion = await client.chat.completions.create({ ...body, stream: false }, { signal: io.signal });
          const message = completion.choices[0]?.message;
          if (!message) throw new ModelTurnError('The model provider answered without a message.');
          const toolCalls: ModelToolCall[] = (message.tool_calls ?? []).flatMap((c) =>
            c.type === 'function' ? [{ name: c.function.name, arguments: c.function.arguments }] : [],
          );
          return { text: message.content ?? '', toolCalls };
        }
        return readStream(await client.chat.completions.create({ ...body, stream: true }, { signal: io.signal }), io);
      },
    },
    options,
  );
}

type ChunkStream = AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>;

/** Text deltas to `onText`; tool-call deltas joined by index. No finish_reason: the stream was cut. */
async function readStream(chunks: ChunkStream, io: Omit<ModelIO, 'signal'>): Promise<ModelStepResult> {
  let text = '';
  let finished = false;
  const calls: { id?: string; name: string; arguments: string }[] = [];
  io.touch();
  for await (const chunk of chunks) {
    io.touch();
    const choice = chunk.choices[0];
    if (!choice) continue;
    const delta = choice.delta;
    if (delta?.content) {
      text += delta.content;
      io.onText(delta.content);
    }
    for (const part of delta?.tool_calls ?? []) {
      const call = toolCallSlot(calls, part);
      if (part.function?.name) call.name += part.function.name;
      if (part.function?.arguments) {
        call.arguments += part.function.arguments;
        io.onToolInput?.(calls.indexOf(call), call.name, part.function.arguments);
      }
    }
    if (choice.finish_reason) finished = true;
  }
  if (!finished) throw new StreamCutError();
  return { text, toolCalls: calls.filter((c) => c !== undefined).map((c) => ({ name: c.name, arguments: c.arguments })) };
}

/**
 * The call a tool-call delta continues: by `index` (the API's rule); servers that omit it start a
 * new call with each new `id` and continue the last one otherwise.
 */
function toolCallSlot(calls: { id?: string; name: string; arguments: string }[], part: { index?: number; id?: string }) {
  if (typeof part.index === 'number') return (calls[part.index] ??= { name: '', arguments: '' });
  const last = calls.at(-1);
  if (last && (part.id === undefined || part.id === last.id)) return last;
  const call = { ...(part.id !== undefined ? { id: part.id } : {}), name: '', arguments: '' };
  calls.push(call);
  return call;
}
