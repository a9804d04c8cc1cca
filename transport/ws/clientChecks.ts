import type { SessionView } from '../../protocol/index.js';
import {
  ClientRequestSchemas,
  ResultSchemas,
  ServerViewSchema,
  describeIssues,
  OWN_WORDS,
  type ClientRequestType,
} from '../../protocol/wire.js';

/*
 * The WebSocket client's schema checks: every request before it is sent, every answer and pushed
 * view before anyone sees it. They need zod and the protocol's schemas, so the drop-in bundle keeps
 * them in a chunk of their own, fetched by a page's first WebSocket frame (a page on the local
 * transport never fetches it).
 */

/** Why a request may not be sent, or null when it may. */
export function requestProblem(type: ClientRequestType, request: unknown): string | null {
  const checked = ClientRequestSchemas[type].safeParse(request, OWN_WORDS);
  return checked.success ? null : `invalid ${type} request: ${describeIssues(checked.error.issues)}`;
}

/** An answer to a request of `type`, checked. */
export function checkResult(type: ClientRequestType, result: unknown): { ok: true; value: unknown } | { ok: false; problem: string } {
  const checked = ResultSchemas[type].safeParse(result, OWN_WORDS);
  return checked.success
    ? { ok: true, value: checked.data }
    : { ok: false, problem: `invalid ${type} answer: ${describeIssues(checked.error.issues)}` };
}

/** A pushed `session.view` frame's view, checked. */
export function checkView(frame: unknown): { ok: true; view: SessionView } | { ok: false; problem: string } {
  const checked = ServerViewSchema.safeParse(frame, OWN_WORDS);
  return checked.success ? { ok: true, view: checked.data.view } : { ok: false, problem: describeIssues(checked.error.issues) };
}
