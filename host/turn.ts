import type {
  CallId,
  JsonValue,
  MessageId,
  NewSessionEvent,
  SessionEvent,
  SessionId,
  TurnId,
  UserMessageEvent,
} from '../protocol/index.js';
import { promptMessages } from './prompt.js';
import type { LoadedSession } from './sessions.js';
import type { ToolRegistry } from './tools/registry.js';
import type { AgentTurn, ModelRequest, StepContext, ToolCallOptions, ToolContext, ToolOutcome } from './types.js';

export interface AgentTurnOptions {
  sessionId: SessionId;
  turnId: TurnId;
  input: readonly UserMessageEvent[];
  signal: AbortSignal;
  session(): LoadedSession;
  append(event: NewSessionEvent): SessionEvent;
  tools: ToolRegistry;
  beforeStep(ctx: StepContext): void;
  /** Claims and commits the session's steering rows into this turn. */
  admitSteering(): void;
  mintCallId(): CallId;
  mintMessageId(): MessageId;
  /** A tool concluded the turn. */
  onConcluded(): void;
  /** The reply streamed so far (null: none); transient, for the session's watchers. */
  onPartial?(text: string | null): void;
  /** A call's arguments streamed so far (null: none); transient, for the session's watchers. */
  onToolInput?(name: string, args: string | null): void;
}

/** Whether `value` is plain JSON (what the log can store and give back unchanged). */
function isJsonValue(value: unknown, depth = 0): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'object' || depth > 200) return false;
  if (Array.isArray(value)) return value.every((item) => isJsonValue(item, depth + 1));
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  for (const key in value) if (!isJsonValue((value as Record<string, unknown>)[key], depth + 1)) return false;
  return true;
}

/**
 * What a driver passes in is checked once, here: the log stamps host-built events without parsing
 * them again. A bad value throws a TypeError naming it, and nothing is appended.
 */
function checkDriverInput(name: unknown, args: unknown, options: ToolCallOptions = {}): void {
  if (typeof name !== 'string' || name.length === 0) throw new TypeError('callTool: the tool name must be a non-empty string');
  if (!isJsonValue(args)) throw new TypeError(`callTool(${name}): the arguments must be plain JSON values`);
  if (options.origin !== undefined && options.origin !== 'model' && options.origin !== 'code') {
    throw new TypeError(`callTool(${name}): origin must be "model" or "code"`);
  }
  if (options.agent !== undefined && options.agent !== 'root' && options.agent !== 'subagent') {
    throw new TypeError(`callTool(${name}): agent must be "root" or "subagent"`);
  }
}

/** The conditional tools announced by `tools/changed` events of the effective log. */
function announcedTools(events: Iterable<SessionEvent>): Set<string> {
  const announced = new Set<string>();
  for (const event of events) {
    if (event.type !== 'tools/changed') continue;
    for (const name of event.added) announced.add(name);
    for (const name of event.removed) announced.delete(name);
  }
  return announced;
}

/**
 * Runs calls in order of arrival: a concurrency-safe call may overlap other safe calls; an exclusive
 * call waits for every earlier call and every later call waits for it (an ordering barrier).
 */
class CallScheduler {
  #barrier: Promise<void> = Promise.resolve();
  readonly #inFlight = new Set<Promise<void>>();

  run<T>(exclusive: boolean, fn: () => Promise<T>): Promise<T> {
    const settle = (p: Promise<unknown>) =>
      p.then(
        () => undefined,
        () => undefined,
      );
    if (exclusive) {
      const result = Promise.all([this.#barrier, ...this.#inFlight]).then(fn);
      this.#barrier = settle(result);
      return result;
    }
    const result = this.#barrier.then(fn);
    const done = settle(result);
    this.#inFlight.add(done);
    void done.then(() => this.#inFlight.delete(done));
    return result;
  }
}

/** What a call made after a tool concluded the turn reads (the AI SDK path's tools say the same). */
export const TURN_CONCLUDED_TEXT = 'The turn has concluded (a human checkpoint); no further tool calls run in it.';

/** The AgentTurn a driver sees for one turn, plus `close()` for the host when the turn ends. */
export function createAgentTurn(o: AgentTurnOptions): AgentTurn & { close(): void } {
  let concluded = false;
  let closed = false;
  const scheduler = new CallScheduler();
  const ended = () => closed || o.signal.aborted;
  const refusal = () => (concluded ? TURN_CONCLUDED_TEXT : 'The turn has ended; the call did not run.');

  const partial = (text: string | null) => o.onPartial?.(text);
  const toolInput = (name: string, args: string | null) => o.onToolInput?.(name, args);

  /** A model's call that does not run: logged with a failed result, so the model sees what became of it. */
  const logRejected = (name: string, args: JsonValue, callId: CallId, content: string) => {
    o.append({ type: 'tool/call', callId, turnId: o.turnId, name, args, origin: 'model', agent: 'root' });
    o.append({ type: 'tool/result', callId, turnId: o.turnId, name, ok: false, content });
    toolInput(name, null);
  };

  /**
   * Appends one `tools/changed` notice when the conditional tools offered now differ from those the
   * log announced (a card skill loaded; a reopened agent lost its activation). Append-only: earlier
   * messages, and so the cached prefix, never change.
   */
  const announceToolChanges = (offered: readonly string[]) => {
    const now = new Set(offered.filter((name) => o.tools.isConditional(name)));
    const announced = announcedTools(o.session().effective);
    const added = [...now].filter((name) => !announced.has(name));
    const removed = [...announced].filter((name) => !now.has(name));
    if (added.length > 0 || removed.length > 0) o.append({ type: 'tools/changed', added, removed });
  };

  const invoke = async (name: string, args: JsonValue, options: ToolCallOptions, callId: CallId): Promise<ToolOutcome> => {
    const origin = options.origin ?? 'model';
    const agent = options.agent ?? 'root';
    o.append({ type: 'tool/call', callId, turnId: o.turnId, name, args, origin, agent });
    const tool = o.tools.get(name);
    let outcome: ToolOutcome;
    let concludeRequested = false;
    if (!tool || !tool.modes.includes(o.session().record.toolMode)) {
      outcome = { ok: false, content: `No tool named ${name} is available in this session.` };
    } else {
      const ctx: ToolContext = {
        sessionId: o.sessionId,
        callId,
        turnId: o.turnId,
        origin,
        agent,
        concludeTurn: () => {
          concludeRequested = true;
        },
      };
      try {
        outcome = await tool.execute(args, ctx);
      } catch (error) {
        outcome = { ok: false, content: `The tool ${name} failed: ${(error as Error)?.message ?? String(error)}` };
        concludeRequested = false;
      }
    }
    // A tool is code the host registered but does not type-check at run time: its outcome is checked once.
    if (
      typeof outcome?.ok !== 'boolean' ||
      typeof outcome.content !== 'string' ||
      (outcome.meta !== undefined && !isJsonValue(outcome.meta))
    ) {
      outcome = { ok: false, content: `The tool ${name} failed: it returned an invalid result.` };
      concludeRequested = false;
    }
    const result =
      outcome.meta === undefined
        ? { ok: outcome.ok, content: outcome.content }
        : { ok: outcome.ok, content: outcome.content, meta: outcome.meta };
    o.append({ type: 'tool/result', callId, turnId: o.turnId, name, ...result });
    // After the result: the view that opens the panel still carries the preview, so nothing blinks.
    toolInput(name, null);
    if (concludeRequested && !concluded) {
      concluded = true;
      o.onConcluded();
    }
    return result;
  };

  return {
    sessionId: o.sessionId,
    turnId: o.turnId,
    signal: o.signal,
    input: o.input,
    get concluded() {
      return concluded;
    },
    // Without limits the call runs at once; the Host's model-call gate replaces this (host/limits).
    modelCall: (call) => call(),
    step(): ModelRequest {
      if (ended()) throw new Error(`turn ${o.turnId} has ended`);
      if (concluded) throw new Error(`turn ${o.turnId} has concluded; the agent must not continue past it`);
      o.admitSteering();
      // Before the step hooks, so a status notice stays the request's last message.
      announceToolChanges(o.tools.advertised(o.session().record.toolMode, { sessionId: o.sessionId, agent: 'root' }).map((t) => t.name));
      o.beforeStep({ sessionId: o.sessionId, turnId: o.turnId });
      const tools = o.tools.advertised(o.session().record.toolMode, { sessionId: o.sessionId, agent: 'root' });
      return { tools, messages: promptMessages(o.session().effective) };
    },
    async callTool(name, args, options = {}) {
      checkDriverInput(name, args, options);
      const callId = o.mintCallId();
      if (ended() || concluded) return { ok: false, content: refusal(), callId };
      const exclusive = !o.tools.get(name)?.concurrencySafe;
      const outcome = await scheduler.run(exclusive, async () => {
        // Re-checked after waiting: an earlier call may have concluded the turn.
        if (ended() || concluded) return { ok: false, content: refusal() } as ToolOutcome;
        return invoke(name, args, options, callId);
      });
      return { ...outcome, callId };
    },
    async rejectCall(name, rawArgs, reason) {
      checkDriverInput(name, rawArgs);
      if (typeof reason !== 'string') throw new TypeError(`rejectCall(${name}): the reason must be a string`);
      const callId = o.mintCallId();
      if (ended() || concluded) return { callId };
      await scheduler.run(false, async () => {
        if (!ended() && !concluded) logRejected(name, rawArgs, callId, reason);
      });
      return { callId };
    },
    showPartial(text) {
      if (!ended()) partial(text);
    },
    showToolInput(name, args) {
      if (typeof name !== 'string' || (args !== null && typeof args !== 'string')) {
        throw new TypeError('showToolInput: the name must be a string and the arguments a string or null');
      }
      if (!ended() && (!concluded || args === null)) toolInput(name, args);
    },
    reply(text: string) {
      if (ended()) throw new Error(`turn ${o.turnId} has ended`);
      if (typeof text !== 'string') throw new TypeError('reply: the text must be a string');
      o.append({ type: 'assistant/message', messageId: o.mintMessageId(), turnId: o.turnId, text });
      partial(null);
      toolInput('', null);
    },
    close() {
      closed = true;
      partial(null);
      toolInput('', null);
    },
  };
}
