import Anthropic from '@anthropic-ai/sdk';
import { toAnthropicTool } from '../protocol/index.js';
import { DEFAULT_SYSTEM_PROMPT } from '../host/prompt.js';
import type { AgentDriver, ModelRequest } from '../host/types.js';
import { nativeConversation } from './conversation.js';
import { StreamCutError } from './errors.js';
import { createLoopDriver, sdkClientSettings, type LoopOptions, type ModelIO, type ModelStepResult, type ModelToolCall } from './loop.js';

export interface AnthropicDriverOptions extends LoopOptions {
  /** The model name, e.g. `claude-sonnet-4-5`. */
  model: string;
  /** Defaults to the SDK's own (`ANTHROPIC_API_KEY`). Ignored when `client` is given. */
  apiKey?: string;
  /** Defaults to the SDK's (`ANTHROPIC_BASE_URL`). */
  baseURL?: string;
  client?: Anthropic;
  /** Replaces the default system prompt. */
  system?: string;
  /** Stream the reply (default true). */
  stream?: boolean;
  /** Output tokens per step (default 4096). */
  maxTokens?: number;
  /** Retries of 429, 5xx and timeouts, with the SDK's back-off and retry-after (default 2). */
  maxRetries?: number;
  /** Per request (default 60 s). */
  timeoutMs?: number;
}

type Block = Anthropic.ContentBlockParam;

/** Anthropic tool_use ids allow only `[A-Za-z0-9_-]`: other characters become `_xx` (hex), one-to-one. */
export const toolUseId = (callId: string) => callId.replace(/[^A-Za-z0-9-]/g, (c) => `_${c.charCodeAt(0).toString(16).padStart(2, '0')}`);

/** How a developer notice reads inside a user turn (Anthropic has no developer role). */
export const developerBlockText = (text: string) => `<developer-notice>\n${text}\n</developer-notice>`;

/**
 * The session as Messages: `tool_use` blocks with their ids, each `tool_result` paired by
 * `tool_use_id` (failed ones `is_error`), developer notices as text blocks on the user side, and
 * consecutive same-role messages merged (tool results first in their user message).
 */
export function anthropicMessages(request: ModelRequest): Anthropic.MessageParam[] {
  const out: { role: 'user' | 'assistant'; content: Block[] }[] = [];
  const push = (role: 'user' | 'assistant', blocks: Block[]) => {
    if (blocks.length === 0) return;
    const last = out.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  };
  for (const item of nativeConversation(request.messages)) {
    switch (item.kind) {
      case 'user':
        push('user', [{ type: 'text', text: item.text === '' ? ' ' : item.text }]);
        break;
      case 'developer':
        push('user', [{ type: 'text', text: developerBlockText(item.text) }]);
        break;
      case 'assistant':
        push('assistant', [
          ...(item.text.trim() === '' ? [] : [{ type: 'text' as const, text: item.text }]),
          // Unreadable arguments were logged as their raw text; tool_use input must be an object.
          ...item.calls.map((c) => ({
            type: 'tool_use' as const,
            id: toolUseId(c.callId),
            name: c.name,
            input: typeof c.args === 'string' ? { raw_arguments: c.args } : c.args,
          })),
        ]);
        break;
      case 'results':
        push(
          'user',
          item.results.map((r) => ({
            type: 'tool_result' as const,
            tool_use_id: toolUseId(r.callId),
            content: r.content,
            ...(r.ok ? {} : { is_error: true }),
          })),
        );
        break;
    }
  }
  return out;
}

/** An `AgentDriver` over Anthropic Messages. */
export function createAnthropicDriver(options: AnthropicDriverOptions): AgentDriver {
  const { maxRetries, timeoutMs, init } = sdkClientSettings(options);
  const client = options.client ?? new Anthropic(init);
  const system = options.system ?? DEFAULT_SYSTEM_PROMPT;
  const stream = options.stream ?? true;
  return createLoopDriver(
    {
      label: `The model provider (Anthropic, ${options.model})`,
      retries: maxRetries,
      timeoutMs,
      async call(request, io) {
        const body = {
          model: options.model,
          max_tokens: options.maxTokens ?? 4096,
          system,
          messages: anthropicMessages(request),
          ...(request.tools.length > 0 ? { tools: request.tools.map((t) => toAnthropicTool(t) as Anthropic.Tool) } : {}),
        };
        if (!stream) {
          const message = await client.messages.create({ ...body, stream: false }, { signal: io.signal });
          let text = '';
          const toolCalls: ModelToolCall[] = [];
          for (const block of message.content) {
            if (block.type === 'text') text += block.text;
            else if (block.type === 'tool_use') toolCalls.push({ name: block.name, arguments: block.input as ModelToolCall['arguments'] });
          }
          return { text, toolCalls };
        }
        return readEvents(await client.messages.create({ ...body, stream: true }, { signal: io.signal }), io);
      },
    },
    options,
  );
}

/** Text deltas to `onText`; tool inputs joined from `input_json_delta`. No message_stop: the stream was cut. */
async function readEvents(events: AsyncIterable<Anthropic.RawMessageStreamEvent>, io: Omit<ModelIO, 'signal'>): Promise<ModelStepResult> {
  let text = '';
  let stopped = false;
  const blocks = new Map<number, { name: string; json: string; input: unknown }>();
  io.touch();
  for await (const event of events) {
    io.touch();
    if (event.type === 'content_block_start' && event.content_block.type === 'tool_use') {
      blocks.set(event.index, { name: event.content_block.name, json: '', input: event.content_block.input });
    } else if (event.type === 'content_block_delta') {
      if (event.delta.type === 'text_delta') {
        text += event.delta.text;
        io.onText(event.delta.text);
      } else if (event.delta.type === 'input_json_delta') {
        const block = blocks.get(event.index);
        if (block) {
          block.json += event.delta.partial_json;
          io.onToolInput?.(event.index, block.name, event.delta.partial_json);
        }
      }
    } else if (event.type === 'message_stop') {
      stopped = true;
    }
  }
  if (!stopped) throw new StreamCutError();
  const toolCalls = [...blocks.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, b]): ModelToolCall => ({
      name: b.name,
      // Streamed input arrives as JSON text; a block without deltas keeps its start input ({}).
      arguments: b.json !== '' ? b.json : ((b.input as ModelToolCall['arguments']) ?? {}),
    }));
  return { text, toolCalls };
}
