/*
 * `propose_action` and `skill` as AI SDK tools: the Host's own tools (host/actionCards/tools.ts),
 * their declarations and their executes, run against the fold of the app's messages. One request
 * is one turn: a skill loaded earlier in the request lets `propose_action` offer that kind's card.
 */
import { jsonSchema, tool, type JSONSchema7, type Tool } from 'ai';
import { foldCards } from '../host/actionCards/projection.js';
import { createProposeActionTool, createSkillTool } from '../host/actionCards/tools.js';
import type { CardKind, HostTool } from '../host/types.js';
import type { CallId, JsonValue, SessionId, TurnId } from '../protocol/index.js';
import type { UIMessage } from 'ai';
import { registryOf } from './cards.js';
import { taskSurfaceEvents } from './messages.js';
import { createRequestTurn, type RequestTurn } from './requestTurn.js';

/** What `propose_action` and `skill` output: the text the model reads, and whether the call succeeded. */
export type ActionCardToolOutput = { ok: boolean; text: string };

export interface ActionCardToolsOptions {
  messages: readonly UIMessage[];
  kinds: readonly CardKind[];
  /** `code`: a program calls the tools: `propose_action` refuses with the spec's text. */
  toolMode?: 'native' | 'both' | 'code';
  /** Messages waiting at or above which `propose_action` refuses (default 2, the Host's). */
  queuedMessageLimit?: number;
  /** How many messages the person has waiting in the page's chat now (see `taskSurfaceTools`). Default none. */
  waiting?: () => number | Promise<number>;
}

const CHAT = 'ai-sdk' as SessionId;
/** The Host's default (`createHost({ actionCards: { queuedMessageLimit } })`). */
const DEFAULT_QUEUED_MESSAGE_LIMIT = 2;

/**
 * The two tools for one request (make them again for the next one). `turn`: the request's sequence
 * of calls, shared with `show_task_surface` (`taskSurfaceTools` passes it); a new one by default.
 */
export function actionCardTools(
  options: ActionCardToolsOptions,
  turn: RequestTurn = createRequestTurn(),
): {
  skill: Tool<{ name: string }, ActionCardToolOutput>;
  propose_action: Tool<Record<string, unknown>, ActionCardToolOutput>;
} {
  const registry = registryOf(options.kinds);
  // The Host's state of the conversation so far; this request's skill loads are added as they run.
  const state = foldCards(taskSurfaceEvents(options.messages).events);
  const turnId = `request-${crypto.randomUUID()}` as TurnId;
  // Messages the person wrote while this request runs wait in the page's chat: the app's `waiting`
  // says how many, read as each proposal runs (the Host reads its queue the same moment).
  let waiting = 0;
  const deps = {
    // An app's chat has one agent, its own, live while the request runs.
    api: { isLiveRoot: () => true, queuedMessageCount: () => waiting },
    registry,
    queuedMessageLimit: options.queuedMessageLimit ?? DEFAULT_QUEUED_MESSAGE_LIMIT,
    state: () => state,
    activate() {},
    isActive: () => true,
  };
  const skill = createSkillTool(deps);
  const origin = options.toolMode === 'code' ? ('code' as const) : ('model' as const);
  const loaded = (args: unknown, output: ActionCardToolOutput) => {
    const name = (args as { name?: unknown } | null)?.name;
    if (!output.ok || origin !== 'model' || typeof name !== 'string') return;
    const loads = state.skillLoads.get(turnId) ?? new Set<string>();
    state.skillLoads.set(turnId, loads.add(name));
  };
  return {
    skill: asAiSdkTool<{ name: string }>(skill, { turnId, origin, turn }, loaded),
    propose_action: asAiSdkTool<Record<string, unknown>>(createProposeActionTool(deps), {
      turnId,
      origin,
      turn,
      before: async () => void (waiting = Math.max(0, Math.trunc(Number(await options.waiting?.()) || 0))),
    }),
  };
}

/** A Host tool as an AI SDK tool: its declaration, its execute, its text back to the model (failures as `error-text`). */
function asAiSdkTool<I>(
  host: HostTool,
  { turnId, origin, turn, before }: { turnId: TurnId; origin: 'model' | 'code'; turn: RequestTurn; before?: () => Promise<void> },
  after?: (args: unknown, output: ActionCardToolOutput) => void,
): Tool<I, ActionCardToolOutput> {
  const { description, inputSchema } = host.definition;
  return tool({
    description,
    inputSchema: jsonSchema<I>(inputSchema as JSONSchema7),
    // One at a time, in the model's order: a skill load is recorded before the proposal after it runs.
    execute: (input: I, { toolCallId }): Promise<ActionCardToolOutput> =>
      turn.run(async () => {
        await before?.();
        const ctx = { sessionId: CHAT, callId: toolCallId as CallId, turnId, origin, agent: 'root' as const, concludeTurn() {} };
        const outcome = await host.execute(input as JsonValue, ctx);
        const output = { ok: outcome.ok, text: outcome.content };
        after?.(input, output);
        return output;
      }),
    toModelOutput: textForModel,
  }) as Tool<I, ActionCardToolOutput>;
}

/** What the model reads of one of the package's tool outputs: its `text`, as `error-text` when the call failed. */
export function textForModel({ output }: { output: unknown }): { type: 'text' | 'error-text'; value: string } {
  const o = output as { ok?: unknown; text?: unknown } | null | undefined;
  const value = typeof o?.text === 'string' ? o.text : '';
  return o?.ok === true ? { type: 'text', value } : { type: 'error-text', value };
}
