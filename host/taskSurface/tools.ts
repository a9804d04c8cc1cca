import {
  DEFAULT_LIMITS,
  formatModelIssues,
  parseShowTaskSurfaceArgs,
  showTaskSurfaceResultText,
  showTaskSurfaceTool,
  type JsonValue,
  type NormalizedTaskSurfaceModel,
  type SessionId,
  type TaskSurfaceId,
  type TaskSurfaceLimits,
  type TaskSurfacePresentationMeta,
} from '../../protocol/index.js';
import type { HostTool } from '../types.js';

export interface ShowTaskSurfaceDeps {
  limits: TaskSurfaceLimits;
  /** A surfaceId this session's log has not used. */
  mintSurfaceId(sessionId: SessionId): TaskSurfaceId;
  /** The session's open surface, if any (from the projection). */
  activeSurface(sessionId: SessionId): { surfaceId: TaskSurfaceId } | null;
}

/**
 * The presentation metas this process's tool built (the objects themselves) and their parsed models.
 * Asked about any value: a WeakMap answers false and undefined for null and primitives, never throws.
 */
const builtMetas = new WeakMap<WeakKey, NormalizedTaskSurfaceModel>();

/**
 * A `tool/result` meta this tool built in this process (the same object, not a copy read back from
 * a store): typed, its model parsed from the call's arguments moments before, so it need not be
 * read and parsed again. Anything else (a meta read from the store) gives null.
 */
export function builtMeta(meta: unknown): TaskSurfacePresentationMeta | null {
  return builtMetas.has(meta as WeakKey) ? (meta as TaskSurfacePresentationMeta) : null;
}

/** The normalized model of a meta this tool built (see `builtMeta`); null for anything else. */
export function modelBuiltHere(meta: unknown): NormalizedTaskSurfaceModel | null {
  return builtMetas.get(meta as WeakKey) ?? null;
}

/** What one show_task_surface call comes to: the panel to publish, or the text the model gets back. */
export type ShowDecision = { ok: true; content: string; meta: TaskSurfacePresentationMeta } | { ok: false; content: string };

/** What a show decision reads besides the arguments. */
export interface ShowContext {
  /** `code`: dispatched from a program (code mode), which cannot carry a panel to the conversation. */
  origin: 'model' | 'code';
  agent: 'root' | 'subagent';
  /** The conversation's open surface, if any. */
  open: { surfaceId: TaskSurfaceId } | null;
  limits: TaskSurfaceLimits;
  /** A surfaceId the conversation has not used; called only when the panel is published. */
  mintSurfaceId(): TaskSurfaceId;
}

/**
 * Decides a show_task_surface call, the Host's tool and the AI SDK's alike: refused from code, from
 * a subagent, or while a surface is open, with the spec's texts; malformed models go back with
 * every issue's path; otherwise the normalised model with a fresh surfaceId.
 */
export function decideShow(args: unknown, ctx: ShowContext): ShowDecision {
  if (ctx.origin === 'code') {
    return fail(
      'show_task_surface cannot be called from code: a nested call cannot carry its panel to the ' +
        'conversation. Call it directly as a tool.',
    );
  }
  if (ctx.agent === 'subagent') {
    return fail('show_task_surface is available to the main agent only; a subagent cannot show a panel.');
  }
  if (ctx.open) {
    return fail(
      `A task surface (${ctx.open.surfaceId}) is already open in this conversation. Wait for the user to ` +
        'submit or dismiss it (or to answer with an ordinary message) before showing another.',
    );
  }
  const parsed = parseShowTaskSurfaceArgs(args, ctx.limits);
  if (!parsed.ok) return fail(formatModelIssues(parsed.issues, ''));
  const surfaceId = ctx.mintSurfaceId();
  const meta: TaskSurfacePresentationMeta = { kind: 'task-surface', version: 1, surfaceId, model: parsed.model };
  // Larger (or smaller) limits travel with the model, so a transcript row renders what was accepted.
  const custom = (Object.keys(DEFAULT_LIMITS) as (keyof TaskSurfaceLimits)[]).some((k) => ctx.limits[k] !== DEFAULT_LIMITS[k]);
  if (custom) meta.limits = { ...ctx.limits };
  builtMetas.set(meta, parsed.model);
  return { ok: true, content: showTaskSurfaceResultText(surfaceId, parsed.model.title), meta };
}

/**
 * `show_task_surface`: publishes a declarative panel and ends the turn. Exclusive (no
 * `concurrencySafe`), advertised in native and both tool modes only.
 */
export function createShowTaskSurfaceTool(deps: ShowTaskSurfaceDeps): HostTool {
  return {
    definition: showTaskSurfaceTool,
    modes: ['native', 'both'],
    execute(args, ctx) {
      const decision = decideShow(args, {
        origin: ctx.origin,
        agent: ctx.agent,
        open: deps.activeSurface(ctx.sessionId),
        limits: deps.limits,
        mintSurfaceId: () => deps.mintSurfaceId(ctx.sessionId),
      });
      if (!decision.ok) return decision;
      ctx.concludeTurn();
      return { ok: true, content: decision.content, meta: decision.meta as unknown as JsonValue };
    },
  };
}

const fail = (content: string) => ({ ok: false as const, content });
