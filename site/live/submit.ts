import {
  initialValues,
  mintTaskSurfaceDismissalId,
  mintTaskSurfaceSubmissionId,
  parseTaskSurfaceModel,
  type SessionId,
  type TaskSurfaceModelV1,
} from '../../protocol/index.js';
import type { DocsHost } from './docsHost.js';

/** The open surface of a session (the example just showed it). */
export function activeSurface(docs: DocsHost, sessionId: SessionId) {
  const active = docs.host.getView(sessionId).taskSurface.active;
  if (!active) throw new Error('no panel is open in this session');
  return active;
}

/** Submits the panel's initial values as the reader (what pressing its submit button sends). */
export async function submitInitial(docs: DocsHost, sessionId: SessionId, model: TaskSurfaceModelV1): Promise<void> {
  const parsed = parseTaskSurfaceModel(model);
  if (!parsed.ok) throw new Error('the example model is invalid');
  const { surfaceId } = activeSurface(docs, sessionId);
  const result = await docs.reader.taskSurface.submit({
    sessionId,
    surfaceId,
    submissionId: mintTaskSurfaceSubmissionId(),
    values: initialValues(parsed.model),
  });
  if (!result.accepted) throw new Error(`the example's submission was refused: ${JSON.stringify(result)}`);
}

/** Dismisses the open panel as the reader. */
export async function dismiss(docs: DocsHost, sessionId: SessionId): Promise<void> {
  const { surfaceId } = activeSurface(docs, sessionId);
  await docs.reader.taskSurface.dismiss({ sessionId, surfaceId, dismissalId: mintTaskSurfaceDismissalId() });
  await docs.host.whenIdle(sessionId);
}
