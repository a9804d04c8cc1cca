import * as z from 'zod/mini';
import { CallIdSchema, SessionIdSchema, type CallId } from './ids.js';
import { JsonObjectSchema, JsonValueSchema, type JsonObject } from './json.js';

export const PROPOSE_ACTION = 'propose_action';
export const SKILL_TOOL = 'skill';

/** Phases a card can show. `proposed` is unstarted; `replaced` is derived from the log, never recorded. */
export type CardPhase = 'proposed' | 'dismissed' | 'replaced' | (string & {});

/** A `propose_action` call paired with its successful result. */
export interface CardProposal {
  callId: CallId;
  action: string;
  title: string;
  brief: string;
  details: JsonObject;
  /** seq of the successful tool/result */
  seq: number;
}

/** The latest recorded decision of one card. */
export interface CardDecision {
  callId: CallId;
  action: string;
  phase: string;
  data: JsonObject;
  seq: number;
}

/** Client view of the action-cards projection unit. */
export interface ActionCardsView {
  proposals: CardProposal[];
  /** Latest decision per card; replaced cards carry a derived `replaced` decision. */
  decisions: Record<string, CardDecision>;
}

export const ActRequestSchema = z.strictObject({
  sessionId: SessionIdSchema,
  callId: CallIdSchema,
  verb: z.string().check(z.minLength(1), z.maxLength(64)),
  payload: z.optional(JsonValueSchema),
});
export type ActRequest = z.infer<typeof ActRequestSchema>;

/** Refusal reasons the service defines; kinds add their own strings. */
export type ActRefusalReason = 'closing' | 'not-live-root' | 'unknown' | 'unavailable' | 'access-denied' | 'read-only' | (string & {});

export type ActResult =
  | { status: 'accepted'; phase: string }
  | { status: 'settled'; phase: string }
  | { status: 'refused'; reason: ActRefusalReason }
  | { status: 'unconfirmed' };

export { JsonObjectSchema };
