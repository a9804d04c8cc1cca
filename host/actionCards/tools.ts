import * as z from 'zod/mini';
import { OWN_WORDS, PROPOSE_ACTION, SKILL_TOOL, type JsonValue, type SessionId, type ToolDefinition } from '../../protocol/index.js';
import type { HostPluginApi, HostTool, ToolContext, ToolOutcome } from '../types.js';
import type { CardsState } from './projection.js';
import type { KindRegistry } from './registry.js';
import { refusal } from './texts.js';

/** The `propose_action` declaration. Its JSON is pinned by a test: no larger than the spec's 574 characters. */
export const PROPOSE_ACTION_DEFINITION: ToolDefinition = {
  name: PROPOSE_ACTION,
  description:
    "Offer one optional action card below your answer; nothing runs until the user acts. Load the action's skill first; it names the action and its details. One card per turn.",
  inputSchema: {
    type: 'object',
    properties: {
      action: { type: 'string' },
      title: { type: 'string', description: 'Short card title' },
      brief: { type: 'string', description: 'One sentence: what the action does' },
      details: { type: 'object', description: 'Fields the skill names' },
    },
    required: ['action', 'title', 'brief', 'details'],
    additionalProperties: false,
  },
};

export const SKILL_DEFINITION: ToolDefinition = {
  name: SKILL_TOOL,
  description: 'Load a skill by name and read its instructions.',
  inputSchema: {
    type: 'object',
    properties: { name: { type: 'string' } },
    required: ['name'],
    additionalProperties: false,
  },
};

const SkillArgsSchema = z.strictObject({ name: z.string() });
const ProposeArgsSchema = z.strictObject({
  action: z.string(),
  title: z.string(),
  brief: z.string(),
  details: z.record(z.string(), z.unknown()),
});

export interface ToolDeps {
  /** Only what the tools ask of the host (the AI SDK integration answers these for an app's chat). */
  api: Pick<HostPluginApi, 'isLiveRoot' | 'queuedMessageCount'>;
  registry: KindRegistry;
  queuedMessageLimit: number;
  state(sessionId: SessionId): CardsState;
  /** Marks the session's live root agent eligible for propose_action. */
  activate(sessionId: SessionId): void;
  isActive(sessionId: SessionId): boolean;
}

/**
 * The `skill` declaration with the loadable skills listed (name and one-line purpose), so a model
 * can discover card kinds. It changes only when a kind registers or unregisters.
 */
export function skillDefinition(skills: readonly { name: string; purpose: string }[]): ToolDefinition {
  if (skills.length === 0) return SKILL_DEFINITION;
  const listed = skills.map((s) => `- ${s.name}: ${s.purpose}`).join('\n');
  return {
    ...SKILL_DEFINITION,
    description: `${SKILL_DEFINITION.description} Skills you can load:\n${listed}`,
    inputSchema: { ...SKILL_DEFINITION.inputSchema, properties: { name: { type: 'string', enum: skills.map((s) => s.name) } } },
  };
}

/** The minimal `skill` tool: returns a registered kind's skill text; a direct root load activates cards. */
export function createSkillTool(deps: ToolDeps): HostTool {
  let cached: { key: string; definition: ToolDefinition } | undefined;
  return {
    get definition() {
      const skills = deps.registry.skillList();
      const key = JSON.stringify(skills);
      if (cached?.key !== key) cached = { key, definition: skillDefinition(skills) };
      return cached.definition;
    },
    concurrencySafe: true,
    modes: ['native', 'both', 'code'],
    execute(args: JsonValue, ctx: ToolContext): ToolOutcome {
      const parsed = SkillArgsSchema.safeParse(args);
      if (!parsed.success) return { ok: false, content: 'Call skill with {"name": "<skill name>"}.' };
      const kind = deps.registry.bySkill(parsed.data.name);
      if (kind === undefined) {
        const names = deps.registry.skills();
        return {
          ok: false,
          content: `Unknown skill "${parsed.data.name}". Available skills: ${names.length > 0 ? names.join(', ') : 'none'}.`,
        };
      }
      // Only the live root agent's own direct load counts: never a subagent's, never one from code.
      if (ctx.origin === 'model' && ctx.agent === 'root' && deps.api.isLiveRoot(ctx.sessionId)) deps.activate(ctx.sessionId);
      return { ok: true, content: kind.skill.text };
    },
  };
}

/** The `propose_action` tool, advertised to an activated live root agent only. */
export function createProposeActionTool(deps: ToolDeps): HostTool {
  // The turn of each session's last accepted card. The log has it too (the fold's cardTurns); this
  // mark also covers a host that runs the next call before the accepted result is folded.
  const acceptedTurn = new Map<SessionId, string>();
  return {
    definition: PROPOSE_ACTION_DEFINITION,
    modes: ['native', 'both'],
    // isActive first: it also drops the activation of an agent that is no longer live.
    when: ({ sessionId, agent }) => deps.isActive(sessionId) && agent === 'root',
    execute(args: JsonValue, ctx: ToolContext): ToolOutcome {
      const refused = (content: string): ToolOutcome => ({ ok: false, content });
      if (ctx.origin === 'code') return refused(refusal.fromCode);
      if (ctx.agent !== 'root' || !deps.api.isLiveRoot(ctx.sessionId)) return refused(refusal.mainConversationOnly);
      if (deps.api.queuedMessageCount(ctx.sessionId) >= deps.queuedMessageLimit) return refused(refusal.queued);
      const state = deps.state(ctx.sessionId);
      if (acceptedTurn.get(ctx.sessionId) === ctx.turnId || state.cardTurns.has(ctx.turnId)) return refused(refusal.onePerTurn);
      const parsed = ProposeArgsSchema.safeParse(args, OWN_WORDS);
      if (!parsed.success) return refused(refusal.badArguments(parsed.error.issues));
      const { action, title, brief, details } = parsed.data;
      const kind = deps.registry.get(action);
      if (kind === undefined) return refused(refusal.unknownAction(action, deps.registry.actions()));
      if (!(state.skillLoads.get(ctx.turnId)?.has(kind.skill.name) ?? false)) return refused(refusal.loadSkill(kind.skill.name));
      if (title.trim() === '' || brief.trim() === '') return refused(refusal.blank(title.trim() === '', brief.trim() === ''));
      const checked = kind.details.safeParse(details, OWN_WORDS);
      if (!checked.success) return refused(refusal.badDetails(checked.error.issues));
      acceptedTurn.set(ctx.sessionId, ctx.turnId);
      return { ok: true, content: `${refusal.acceptedPrefix}${kind.invitation}` };
    },
  };
}
