// Local fake model providers that speak the real wire formats, for the official SDKs to talk to:
// OpenAI Chat Completions (JSON, and SSE chunks with tool_calls deltas and [DONE]) and Anthropic
// Messages (JSON, and message_start … content_block_delta (text_delta, input_json_delta) …
// message_stop). Each answer is scripted; every request body is recorded.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedCall {
  name: string;
  arguments: string;
}

export type Script =
  /** An answer: text (streamed in pieces, `paceMs` apart), tool calls (arguments streamed in pieces). */
  | {
      text?: string;
      toolCalls?: ScriptedCall[];
      paceMs?: number;
      /** OpenAI: tool-call deltas without `index`, as some local servers send them. */ noIndex?: boolean;
    }
  /** An HTTP error with the provider's error body. */
  | { status: number; message: string; headers?: Record<string, string> }
  /** Streams `text`, then drops the connection without finishing. */
  | { cut: string }
  /** Streams `text`, then sends nothing more and keeps the connection open. */
  | { stall: string }
  /** Never answers. */
  | { hang: true };

export interface FakeProvider {
  url: string;
  /** Request bodies, oldest first. */
  requests: Record<string, any>[];
  /** Queue answers; a request with nothing queued gets "(no script)" text. */
  script(...answers: Script[]): void;
  /** Forgets recorded requests and unused answers (between tests). */
  reset(): void;
  close(): Promise<void>;
}

type Writer = (
  res: ServerResponse,
  answer: Exclude<Script, { status: number } | { hang: true } | { stall: string }>,
  stream: boolean,
) => void | Promise<void>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function start(path: string, write: Writer, errorBody: (status: number, message: string) => object): Promise<FakeProvider> {
  const requests: Record<string, any>[] = [];
  const queue: Script[] = [];
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    if (req.method !== 'POST' || !req.url?.startsWith(path)) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify(errorBody(404, `no route ${req.url}`)));
      return;
    }
    const body = JSON.parse(raw) as Record<string, any>;
    requests.push(body);
    const answer = queue.shift() ?? { text: '(no script)' };
    if ('hang' in answer) {
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
      return;
    }
    if ('stall' in answer) {
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
      // The start of a reply (headers, first text), then silence: a cut that never closes.
      await write(res, { cut: answer.stall, hold: true } as never, true);
      return;
    }
    if ('status' in answer) {
      res
        .writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers })
        .end(JSON.stringify(errorBody(answer.status, answer.message)));
      return;
    }
    await write(res, answer, body.stream === true);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script: (...answers) => {
      queue.push(...answers);
    },
    reset: () => {
      requests.length = 0;
      queue.length = 0;
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Pieces of a string, as a provider streams it. */
const pieces = (text: string, size = 7) => {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
};

/** Drops the connection once what was written has reached the client (a cut mid-stream, not a refused request). */
const cutAfterFlush = (res: ServerResponse, answer?: object) => {
  if (answer && 'hold' in answer) return; // a stall: keep the connection open, send nothing more
  res.write('', () => setTimeout(() => res.socket?.destroy(), 30));
};

const sse = (res: ServerResponse) => res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });

/* ---- OpenAI Chat Completions ---- */

let openAIIds = 0;

const writeOpenAI: Writer = async (res, answer, stream) => {
  const id = `chatcmpl-${++openAIIds}`;
  const created = 1_700_000_000;
  const text = 'cut' in answer ? answer.cut : (answer.text ?? '');
  const toolCalls = 'cut' in answer ? [] : (answer.toolCalls ?? []);
  const finish = toolCalls.length > 0 ? 'tool_calls' : 'stop';
  if (!stream) {
    const message = {
      role: 'assistant',
      content: text === '' ? null : text,
      refusal: null,
      ...(toolCalls.length > 0 ? { tool_calls: toolCalls.map((c, i) => ({ id: `call_${id}_${i}`, type: 'function', function: c })) } : {}),
    };
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        id,
        object: 'chat.completion',
        created,
        model: 'fake',
        choices: [{ index: 0, message, finish_reason: finish, logprobs: null }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      }),
    );
    return;
  }
  sse(res);
  const chunk = (delta: object, finishReason: string | null = null) =>
    res.write(
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: 'fake', choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }] })}\n\n`,
    );
  chunk({ role: 'assistant', content: '' });
  const pace = 'paceMs' in answer ? (answer.paceMs ?? 0) : 0;
  for (const piece of pieces(text)) {
    chunk({ content: piece });
    if (pace > 0) await sleep(pace);
  }
  if ('cut' in answer) {
    cutAfterFlush(res, answer);
    return;
  }
  const noIndex = 'noIndex' in answer && answer.noIndex === true;
  toolCalls.forEach((c, index) => {
    const at = noIndex ? {} : { index };
    chunk({ tool_calls: [{ ...at, id: `call_${id}_${index}`, type: 'function', function: { name: c.name, arguments: '' } }] });
    for (const piece of pieces(c.arguments, 40)) chunk({ tool_calls: [{ ...at, function: { arguments: piece } }] });
  });
  chunk({}, finish);
  res.end('data: [DONE]\n\n');
};

export const startFakeOpenAI = () =>
  start('/v1/chat/completions', writeOpenAI, (status, message) => ({
    error: {
      message,
      type: status === 429 ? 'rate_limit_exceeded' : status === 401 ? 'invalid_request_error' : 'server_error',
      param: null,
      code: null,
    },
  }));

/* ---- Anthropic Messages ---- */

let anthropicIds = 0;

const writeAnthropic: Writer = (res, answer, stream) => {
  const id = `msg_${++anthropicIds}`;
  const text = 'cut' in answer ? answer.cut : (answer.text ?? '');
  const toolCalls = 'cut' in answer ? [] : (answer.toolCalls ?? []);
  const stopReason = toolCalls.length > 0 ? 'tool_use' : 'end_turn';
  const usage = { input_tokens: 1, output_tokens: 1 };
  if (!stream) {
    const content = [
      ...(text === '' ? [] : [{ type: 'text', text }]),
      ...toolCalls.map((c, i) => ({ type: 'tool_use', id: `toolu_${id}_${i}`, name: c.name, input: JSON.parse(c.arguments) })),
    ];
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        id,
        type: 'message',
        role: 'assistant',
        model: 'fake',
        content,
        stop_reason: stopReason,
        stop_sequence: null,
        usage,
      }),
    );
    return;
  }
  sse(res);
  const event = (type: string, data: object) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  event('message_start', {
    message: { id, type: 'message', role: 'assistant', model: 'fake', content: [], stop_reason: null, stop_sequence: null, usage },
  });
  let index = 0;
  if (text !== '') {
    event('content_block_start', { index, content_block: { type: 'text', text: '' } });
    for (const piece of pieces(text)) event('content_block_delta', { index, delta: { type: 'text_delta', text: piece } });
    if ('cut' in answer) {
      cutAfterFlush(res, answer);
      return;
    }
    event('content_block_stop', { index });
    index += 1;
  }
  for (const c of toolCalls) {
    event('content_block_start', { index, content_block: { type: 'tool_use', id: `toolu_${id}_${index}`, name: c.name, input: {} } });
    for (const piece of pieces(c.arguments, 40))
      event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } });
    event('content_block_stop', { index });
    index += 1;
  }
  event('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 1 } });
  event('message_stop', {});
  res.end();
};

export const startFakeAnthropic = () =>
  start('/v1/messages', writeAnthropic, (status, message) => ({
    type: 'error',
    error: {
      type:
        status === 429
          ? 'rate_limit_error'
          : status === 401
            ? 'authentication_error'
            : status >= 500
              ? 'api_error'
              : 'invalid_request_error',
      message,
    },
  }));
