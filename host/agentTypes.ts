/*
 * The agent's side of the Host's contract: what a driver is given for one turn (`AgentTurn`) and
 * what it sends the model (`ModelRequest`). Re-exported from host/types.ts.
 */
import type { CallId, JsonValue, SessionId, ToolDefinition, TurnId, UserMessageEvent } from '../protocol/index.js';

/** The model side of a session. The host calls `runTurn` once per admitted turn. */
export interface AgentDriver {
  runTurn(turn: AgentTurn): Promise<void>;
}

export interface PromptMessage {
  role: 'user' | 'assistant' | 'tool' | 'developer';
  /** The message as plain text (a tool call or result flattened, for text-only models). */
  text: string;
  /** seq of the log event it came from */
  seq: number;
  /** On an assistant tool-call message: the call, for a provider's native tool-call item. */
  toolCall?: { callId: CallId; name: string; args: JsonValue };
  /** On a tool message: the call it answers (paired by `callId`) and whether it succeeded. */
  toolResult?: { callId: CallId; name: string; ok: boolean; content: string };
}

/** One model request: what the model would be sent. */
export interface ModelRequest {
  tools: ToolDefinition[];
  messages: PromptMessage[];
}

export interface ToolCallOptions {
  origin?: 'model' | 'code';
  agent?: 'root' | 'subagent';
}

export interface ToolOutcome {
  ok: boolean;
  content: string;
  meta?: JsonValue;
}

export interface AgentTurn {
  readonly sessionId: SessionId;
  readonly turnId: TurnId;
  readonly signal: AbortSignal;
  /** The user messages admitted for this turn, oldest first. */
  readonly input: readonly UserMessageEvent[];
  /** Starts one model step: runs the pre-request hooks (notices) and returns the request. */
  step(): ModelRequest;
  /** Logs tool/call, runs the tool, logs tool/result. Refused (ok: false) once the turn concluded. */
  callTool(name: string, args: JsonValue, options?: ToolCallOptions): Promise<ToolOutcome & { callId: CallId }>;
  /** Appends the agent's answer as an assistant message (and ends any partial text shown). */
  reply(text: string): void;
  /**
   * Shows the reply while it streams: `text` is everything so far. Watchers see it as the view's
   * transient `streaming` field; nothing is logged. `null` clears it (a cut stream); `reply` and the
   * end of the turn clear it too.
   */
  showPartial(text: string | null): void;
  /**
   * Shows a tool call while its arguments stream: `args` is their JSON text so far. For
   * `show_task_surface` (while no surface is open) watchers see the panel's read-only preview as the
   * view's transient `preview` field; nothing is logged. `null` clears it; the call itself (run or
   * refused), `reply` and the end of the turn clear it too.
   */
  showToolInput(name: string, args: string | null): void;
  /**
   * A call the model made whose arguments could not be read (not JSON, not an object): logs the
   * call with its raw arguments and a failed result carrying `reason`, so the model can correct it
   * on its next step. Nothing runs.
   */
  rejectCall(name: string, rawArgs: string, reason: string): Promise<{ callId: CallId }>;
  /** True once a tool concluded the turn (show_task_surface does). */
  readonly concluded: boolean;
  /**
   * Runs one model request under the Host's model-call limits (`quotas.modelCallsPerPrincipal`,
   * `quotas.modelCalls`): it waits for a slot (the session's view shows `waiting: 'model'`), runs
   * `call`, and frees the slot when it settles. Rejects with the turn's abort reason if the turn is
   * cancelled while it waits. The shipped drivers call their model through it; a custom driver should.
   */
  modelCall<T>(call: () => Promise<T>): Promise<T>;
}
