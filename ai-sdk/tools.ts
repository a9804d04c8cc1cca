/*
 * `show_task_surface` as an AI SDK tool, decided by the Host's own `decideShow`, and the stop rule
 * that makes a successful show conclude the turn.
 */
import { jsonSchema, tool, type JSONSchema7, type StopCondition, type Tool, type ToolSet, type UIMessage } from 'ai';
import { decideShow } from '../host/taskSurface/tools.js';
import {
  mintTaskSurfaceId,
  resolveLimits,
  SHOW_TASK_SURFACE,
  showTaskSurfaceTool,
  type TaskSurfaceId,
  type TaskSurfaceLimitsInput,
  type TaskSurfacePresentationMeta,
} from '../protocol/index.js';
import type { CardKind } from '../host/types.js';
import { actionCardTools, textForModel, type ActionCardToolOutput } from './cardTools.js';
import { foldTaskSurface } from './fold.js';
import { isShown } from './messages.js';
import { createRequestTurn, inRequestTurn } from './requestTurn.js';

/** A successful show: the presentation meta (what the toolview renders) and the text the model reads. */
export type ShowTaskSurfaceSuccess = TaskSurfacePresentationMeta & { ok: true; text: string };
/** A refused or malformed call: the text the model reads to correct itself (with every issue's path). */
export type ShowTaskSurfaceFailure = { ok: false; text: string };
/** The tool's output, as persisted in the `tool-show_task_surface` part. */
export type ShowTaskSurfaceOutput = ShowTaskSurfaceSuccess | ShowTaskSurfaceFailure;

export interface TaskSurfaceToolsOptions {
  /**
   * The conversation so far (the app's persisted messages and the incoming one): a surface open in
   * them refuses a new one, and surfaceIds they used are not minted again.
   */
  messages?: readonly UIMessage[];
  /** Model limits (default: the Host's defaults); larger ones travel in the output to the page. */
  limits?: TaskSurfaceLimitsInput;
  /**
   * `code`: the tools run inside a code-only profile (a program calls them, not the model), where a
   * panel cannot reach the conversation: every call is refused with the spec's text. Default `native`.
   */
  toolMode?: 'native' | 'both' | 'code';
  /**
   * The app's card kinds (the Host's `CardKind`s: `createPageKind()`, your own). Given, the set
   * also offers `skill` and `propose_action`, decided as the Host decides them.
   */
  kinds?: readonly CardKind[];
  /**
   * The app's own tools, returned in the set and run in the request's turn as the package's are: one
   * at a time in the model's order, and none after a successful show (it fails with the Host's
   * text), as a Host runs a turn's calls.
   */
  tools?: ToolSet;
  /**
   * How many messages the person has waiting in the page's chat (written while the reply streams:
   * `Chat`'s `experimental_queue`; the page's adapter reports the count, `onWaiting`). Read as each
   * `propose_action` runs: at `queuedMessageLimit` or more it is refused with the spec's text, as
   * on the Host. Without it, no message counts as waiting.
   */
  waiting?: () => number | Promise<number>;
  /** Waiting messages at or above which `propose_action` refuses (default 2, the Host's). */
  queuedMessageLimit?: number;
}

/** The tool set `taskSurfaceTools` returns. */
export interface TaskSurfaceTools extends ToolSet {
  show_task_surface: Tool<{ model: unknown }, ShowTaskSurfaceOutput>;
}

/** The set with kinds given: `skill` and `propose_action` too. */
export interface TaskSurfaceCardTools extends TaskSurfaceTools {
  skill: Tool<{ name: string }, ActionCardToolOutput>;
  propose_action: Tool<Record<string, unknown>, ActionCardToolOutput>;
}

/**
 * The Task Surface tools for `streamText({ tools })`: `show_task_surface` with the one stable
 * declaration. Its execute parses the model (issues go back to the model as a failed output it can
 * correct), refuses a second open surface and code-only mode, and outputs the normalised model with
 * a fresh `surfaceId`. With `kinds`, also `skill` and `propose_action` (see `actionCardTools`).
 * Make one set per request: it remembers a show (a skill load, a card) earlier in the same request.
 */
export function taskSurfaceTools(options: TaskSurfaceToolsOptions & { kinds: readonly CardKind[] }): TaskSurfaceCardTools;
export function taskSurfaceTools(options?: TaskSurfaceToolsOptions): TaskSurfaceTools;
export function taskSurfaceTools(options: TaskSurfaceToolsOptions = {}): TaskSurfaceTools {
  const limits = resolveLimits(options.limits);
  const state = foldTaskSurface(options.messages ?? []);
  let open: { surfaceId: TaskSurfaceId } | null = state.fold.active;
  const used = new Set<string>(state.fold.surfaceIds);
  const turn = createRequestTurn();
  const show = tool({
    description: showTaskSurfaceTool.description,
    inputSchema: jsonSchema<{ model: unknown }>(showTaskSurfaceTool.inputSchema as JSONSchema7),
    execute: (input: unknown): Promise<ShowTaskSurfaceOutput> => turn.run(() => decide(input)),
    toModelOutput: textForModel,
  });
  function decide(input: unknown): ShowTaskSurfaceOutput {
    const decision = decideShow(input, {
      origin: options.toolMode === 'code' ? 'code' : 'model',
      agent: 'root',
      open,
      limits,
      mintSurfaceId() {
        let id = mintTaskSurfaceId();
        while (used.has(id)) id = mintTaskSurfaceId();
        used.add(id);
        return id;
      },
    });
    if (!decision.ok) return { ok: false, text: decision.content };
    // The show concludes the turn: no later call of this request runs (a second show neither).
    open = { surfaceId: decision.meta.surfaceId };
    turn.conclude();
    return { ok: true, text: decision.content, ...decision.meta };
  }
  const tools = { ...inRequestTurn(options.tools ?? {}, turn), [SHOW_TASK_SURFACE]: show } as TaskSurfaceTools;
  if (!options.kinds) return tools;
  const cards = actionCardTools(
    {
      messages: options.messages ?? [],
      kinds: options.kinds,
      toolMode: options.toolMode ?? 'native',
      ...(options.waiting ? { waiting: options.waiting } : {}),
      ...(options.queuedMessageLimit === undefined ? {} : { queuedMessageLimit: options.queuedMessageLimit }),
    },
    turn,
  );
  return { ...tools, ...cards };
}

/**
 * The stop rule for `streamText({ stopWhen })`: the step loop ends after a step in which
 * `show_task_surface` succeeded, so the call concludes the turn (a failed call lets the model
 * correct itself in the next step). Combine it with the app's own: `stopWhen: [isStepCount(5), taskSurfaceStopWhen]`.
 */
export const taskSurfaceStopWhen: StopCondition<ToolSet> = ({ steps }) =>
  steps.at(-1)?.toolResults.some((result) => result.toolName === SHOW_TASK_SURFACE && isShown(result.output)) ?? false;
