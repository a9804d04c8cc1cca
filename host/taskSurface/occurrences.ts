import {
  parseTaskSurfaceModel,
  TaskSurfacePresentationMetaEnvelopeSchema,
  type CallId,
  type NormalizedTaskSurfaceModel,
  type SessionEvent,
  type TaskSurfaceLimits,
} from '../../protocol/index.js';
import { storeStep } from '../errors.js';
import type { LoadedSession, Sessions } from '../sessions.js';
import { modelBuiltHere } from './tools.js';

/**
 * The model of each session's open surface, read by callId (an index, never a scan) and revalidated.
 * A stored tool/result never changes, so the last valid model per loaded session is kept (one open
 * surface each), and the one this process's tool just built is taken as it is. The cache is held by
 * the loaded session itself: an unloaded or reloaded session's model goes with its fold, so nothing
 * here needs forgetting, and a rewind's cut cannot make it wrong (the Host mints every callId once).
 */
export class OccurrenceModels {
  readonly #models = new WeakMap<LoadedSession, { callId: CallId; model: NormalizedTaskSurfaceModel }>();

  constructor(
    private readonly sessions: Sessions,
    private readonly limits: TaskSurfaceLimits,
  ) {}

  /** The occurrence's model, or null when its result is missing, failed or no longer valid. */
  model(session: LoadedSession, callId: CallId): NormalizedTaskSurfaceModel | null {
    const cached = this.#models.get(session);
    if (cached?.callId === callId) return cached.model;
    const sessionId = session.record.sessionId;
    const { result } = storeStep(sessionId, "reading the surface's tool result", () => this.sessions.store.findCall(sessionId, callId));
    if (result?.type !== 'tool/result' || !result.ok) return null;
    const meta = TaskSurfacePresentationMetaEnvelopeSchema.safeParse(result.meta);
    if (!meta.success) return null;
    const parsed = parseTaskSurfaceModel(meta.data.model, this.limits);
    if (!parsed.ok) return null;
    this.#models.set(session, { callId, model: parsed.model });
    return parsed.model;
  }

  /** The result this host just appended for the open surface carries the model its tool parsed. */
  noticed(session: LoadedSession, event: SessionEvent): void {
    if (event.type !== 'tool/result' || session.surface.active?.callId !== event.callId) return;
    const built = modelBuiltHere(event.meta);
    if (built) this.#models.set(session, { callId: event.callId, model: built });
  }
}
