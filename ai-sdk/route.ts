/*
 * How a chat route applies the checks before `streamText`: a refusal is an HTTP error the page's
 * `useChat` reports; a repeat is an empty UI message stream (nothing appended, no model call).
 */
import { createUIMessageStream, createUIMessageStreamResponse } from 'ai';
import type { ActionCardActAnswer } from './act.js';
import type { TaskSurfaceDismissalResult, TaskSurfaceMessageCheck } from './checks.js';

const STATUS = { 'not-open': 409, stale: 409, 'invalid-submission': 422, 'invalid-message': 400, 'invalid-request': 400 } as const;

/**
 * The response for a check that must not run the model, or null when the route goes on: persist
 * `check.messages`, then `streamText`. A refusal answers `{ error: reason, message }` with 409
 * (not-open, stale), 422 (invalid-submission) or 400 (invalid-message); a repeat answers an empty
 * UI message stream, so a retried request settles without a second reply.
 */
export function taskSurfaceCheckResponse(check: TaskSurfaceMessageCheck): Response | null {
  if (!check.accepted) return Response.json({ error: check.reason, message: check.message }, { status: STATUS[check.reason] });
  if (!check.repeated) return null;
  return createUIMessageStreamResponse({ stream: createUIMessageStream({ execute() {} }) });
}

/** The response to a dismissal request: `{ dismissed: true }`, or the refusal with 409 or 400. */
export function taskSurfaceDismissalResponse(result: TaskSurfaceDismissalResult): Response {
  if (result.dismissed) return Response.json({ dismissed: true, repeated: result.repeated });
  return Response.json({ error: result.reason, message: result.message }, { status: STATUS[result.reason] });
}

/** The response to a card action: `{ result, decisions }` (the Host's `ActResult` and the card's decision parts), or 400 for a malformed request. */
export function actionCardActResponse(answer: ActionCardActAnswer): Response {
  if (!answer.ok) return Response.json({ error: answer.reason, message: answer.message }, { status: 400 });
  return Response.json({ result: answer.result, decisions: answer.decisions });
}
