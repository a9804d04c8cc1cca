import { SHOW_TASK_SURFACE, type JsonValue } from '../protocol/index.js';
import type { AgentDriver, AgentTurn, ModelRequest } from '../host/types.js';
import { describeModelError, modelErrorDetail, ModelTurnError } from './errors.js';

/** A tool call as the provider returned it: arguments as raw JSON text, or already parsed. */
export interface ModelToolCall {
  name: string;
  arguments: string | JsonValue;
  /** The SDK already found the arguments unreadable (the AI SDK's `invalid` calls). */
  invalid?: string;
}

export interface ModelStepResult {
  text: string;
  toolCalls: ModelToolCall[];
}

/** What an adapter's call is given: the signal, where streamed text and tool arguments go, the watchdog's touch. */
export interface ModelIO {
  signal: AbortSignal;
  onText(delta: string): void;
  /**
   * A streamed piece of a tool call's arguments (JSON text): `call` tells the calls of one
   * response apart (the provider's index or id), `name` is the tool's name as known so far. The
   * first show_task_surface call of a response is shown to watchers as the panel's preview.
   */
  onToolInput?(call: string | number, name: string, delta: string): void;
  touch(): void;
}

/** One provider behind the shared turn loop: one model call per step. */
export interface ModelAdapter {
  /** For error texts: "OpenAI (gpt-4.1-mini)". */
  readonly label: string;
  readonly retries: number;
  readonly timeoutMs: number;
  /**
   * `signal`: pass it to the SDK (the turn's cancellation and the stall watchdog). `touch()`: call it
   * on every streamed chunk; `timeoutMs` without one ends the call as stalled.
   */
  call(request: ModelRequest, io: ModelIO): Promise<ModelStepResult>;
}

export interface LoopOptions {
  /** Model calls per turn before the turn fails (a model that keeps calling tools). Default 16. */
  maxSteps?: number;
  /** Tool calls run from one model response; later ones are handed back unrun. Default 16. */
  maxCallsPerStep?: number;
  /**
   * Where a failed call's provider detail goes (the person sees only a generic sentence: no key
   * fragment, base URL or provider text reaches the transcript). Default: `console.error`.
   */
  onModelError?(detail: string, error: unknown): void;
}

/**
 * The turn loop every driver shares: step, call the model (streaming text to watchers), log the
 * answer once, run the tool calls in the order they arrived (show_task_surface is an exclusive
 * barrier: later calls wait for it and are refused once it concluded the turn), and go on until
 * the model answers without tools or a tool concluded the turn.
 */
export function createLoopDriver(adapter: ModelAdapter, options: LoopOptions = {}): AgentDriver {
  const maxSteps = options.maxSteps ?? 16;
  const maxCalls = options.maxCallsPerStep ?? 16;
  const report = options.onModelError ?? ((detail: string) => console.error(`[task-surface] ${adapter.label}: ${detail}`));
  return {
    async runTurn(turn) {
      for (let step = 0; step < maxSteps; step += 1) {
        const request = turn.step();
        const result = await callModel(adapter, turn, request, report);
        if (result.text.trim() !== '') turn.reply(result.text);
        if (result.toolCalls.length === 0) {
          if (result.text.trim() === '') throw new ModelTurnError(`${adapter.label} returned an empty answer.`);
          return;
        }
        await Promise.all(
          result.toolCalls.map((call, i) =>
            i < maxCalls
              ? dispatch(turn, call)
              : turn.rejectCall(
                  call.name.trim() || '(unnamed)',
                  rawText(call.arguments),
                  `Too many tool calls in one response (at most ${maxCalls}); this one did not run. Call it again if you still need it.`,
                ),
          ),
        );
        if (turn.concluded || turn.signal.aborted) return;
      }
      throw new ModelTurnError(`${adapter.label} called tools ${maxSteps} times without answering; the turn stops here.`);
    },
  };
}

/** One model call through the Host's model-call limits: it may wait for a slot first (the stall watchdog starts after). */
function callModel(adapter: ModelAdapter, turn: AgentTurn, request: ModelRequest, report: Reporter): Promise<ModelStepResult> {
  return turn.modelCall(() => callNow(adapter, turn, request, report));
}

type Reporter = (detail: string, error: unknown) => void;

async function callNow(adapter: ModelAdapter, turn: AgentTurn, request: ModelRequest, report: Reporter): Promise<ModelStepResult> {
  let streamed = '';
  // The first show_task_surface call of the response, and its arguments so far.
  let shown: { call: string | number; args: string } | undefined;
  const watch = idleWatch(turn.signal, adapter.timeoutMs);
  try {
    return await adapter.call(request, {
      signal: watch.signal,
      touch: watch.touch,
      onText: (delta) => {
        streamed += delta;
        turn.showPartial(streamed);
      },
      onToolInput: (call, name, delta) => {
        if (shown === undefined && name === SHOW_TASK_SURFACE) shown = { call, args: '' };
        if (shown?.call !== call || shown.args.length + delta.length > MAX_ARGUMENT_CHARS) return;
        shown.args += delta;
        // Only a comma or a closing bracket can make a part whole: the rest changes nothing shown.
        if (/[,\]}]/.test(delta)) turn.showToolInput(SHOW_TASK_SURFACE, shown.args);
      },
    });
  } catch (error) {
    turn.showPartial(null);
    turn.showToolInput(SHOW_TASK_SURFACE, null);
    if (turn.signal.aborted) throw error; // cancelled: the host records that, not a provider failure
    if (watch.stalled) {
      const seconds = `${Math.round(adapter.timeoutMs / 100) / 10} s`;
      throw new ModelTurnError(
        streamed.length === 0
          ? `${adapter.label} did not answer within ${seconds}.`
          : `${adapter.label} stopped sending mid-reply: nothing arrived for ${seconds} (after ${streamed.length} characters).`,
      );
    }
    // The provider's own words go to the server log; the person is told the kind of failure.
    if (!(error instanceof ModelTurnError)) report(modelErrorDetail(error), error);
    throw new ModelTurnError(
      describeModelError(error, {
        provider: adapter.label,
        retries: adapter.retries,
        timeoutMs: adapter.timeoutMs,
        streamed: streamed.length,
      }),
    );
  } finally {
    watch.dispose();
  }
}

const rawText = (args: ModelToolCall['arguments']) => (typeof args === 'string' ? args : JSON.stringify(args));

/**
 * The most characters of arguments one call may carry: four times the largest model the Host
 * accepts (64 KiB), so no valid call is refused and the log never holds megabytes of one call.
 */
/** Retries of a 429 or 5xx before the turn fails, unless a driver's options say otherwise. */
export const DEFAULT_MAX_RETRIES = 2;
/** How long a call (or a stream between chunks) may stay silent, unless a driver's options say otherwise. */
export const DEFAULT_TIMEOUT_MS = 60_000;

/** A driver's retry and timeout settings, and the init an official SDK client takes from them. */
export function sdkClientSettings(options: { apiKey?: string; baseURL?: string; maxRetries?: number; timeoutMs?: number }) {
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const init = {
    ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
    ...(options.baseURL !== undefined ? { baseURL: options.baseURL } : {}),
    maxRetries,
    timeout: timeoutMs,
  };
  return { maxRetries, timeoutMs, init };
}

export const MAX_ARGUMENT_CHARS = 256 * 1024;

/** Runs one call, or hands its unreadable arguments back to the model as a failed result. */
function dispatch(turn: AgentTurn, call: ModelToolCall): Promise<unknown> {
  if (call.name.trim() === '') {
    return turn.rejectCall('(unnamed)', rawText(call.arguments), 'A tool call had no name. Call one of your declared tools by its name.');
  }
  const correct = (reason: string) =>
    turn.rejectCall(call.name, rawText(call.arguments), `${reason} Call ${call.name} again with a JSON object as its arguments.`);
  const raw = rawText(call.arguments);
  if (raw.length > MAX_ARGUMENT_CHARS) {
    // Only the start is logged: the point is that it was too long.
    return turn.rejectCall(
      call.name,
      `${raw.slice(0, 200)}…`,
      `The arguments of ${call.name} are ${raw.length.toLocaleString('en')} ` +
        `characters, more than the ${MAX_ARGUMENT_CHARS.toLocaleString('en')} a call may have; nothing ran. Send a smaller call.`,
    );
  }
  if (call.invalid !== undefined) return correct(`The arguments of ${call.name} could not be read: ${call.invalid}.`);
  let args: unknown = call.arguments;
  if (typeof args === 'string') {
    if (args.trim() === '') args = {};
    else {
      try {
        args = JSON.parse(args);
      } catch (error) {
        return correct(`The arguments of ${call.name} are not valid JSON (${(error as Error).message}).`);
      }
    }
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    return correct(
      `The arguments of ${call.name} must be a JSON object, not ${Array.isArray(args) ? 'an array' : args === null ? 'null' : typeof args}.`,
    );
  }
  return turn.callTool(call.name, args as JsonValue);
}

/**
 * A stalled stream's bound: `touch()` on every chunk; `timeoutMs` without one aborts `signal` (pass it
 * to the SDK with the turn's own), and `stalled` says the watchdog did it. The SDKs' own timeouts end
 * at the response headers, so a reply that stops mid-way would otherwise hang the turn.
 */
export function idleWatch(turnSignal: AbortSignal, timeoutMs: number) {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const watch = {
    signal: AbortSignal.any([turnSignal, controller.signal]),
    stalled: false,
    touch() {
      clearTimeout(timer);
      timer = setTimeout(() => {
        watch.stalled = true;
        controller.abort(new ModelTurnError('stalled'));
      }, timeoutMs);
    },
    dispose() {
      clearTimeout(timer);
    },
  };
  return watch;
}
