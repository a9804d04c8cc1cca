import type { NormalizedTaskSurfaceModel, TaskSurfaceId } from '../../protocol/index.js';
import { effectiveLimits, type TaskSurfaceLimitValues } from '../../protocol/limitDefaults.js';
import { parseTaskSurfaceModel } from '../../protocol/parse.js';
import { TaskSurfacePresentationMetaEnvelopeSchema } from '../../protocol/taskSurface.js';

/*
 * Reading a `show_task_surface` result's meta needs the model's schemas (zod): the drop-in bundle
 * keeps this module in a chunk, fetched when the first transcript row with a meta renders.
 */

export interface ParsedToolResult {
  surfaceId: TaskSurfaceId;
  model: NormalizedTaskSurfaceModel;
}

/** The surface in a result's `meta`, parsed with the limits it names; null when it is not one. */
export function parseToolResultMeta(meta: unknown): ParsedToolResult | null {
  const envelope = TaskSurfacePresentationMetaEnvelopeSchema.safeParse(meta);
  if (!envelope.success) return null;
  const model = parseTaskSurfaceModel(envelope.data.model, limitsOf(envelope.data['limits']));
  return model.ok ? { surfaceId: envelope.data.surfaceId, model: model.model } : null;
}

/** Limits from the meta (positive integers only; anything else is the default). */
function limitsOf(value: unknown): Partial<TaskSurfaceLimitValues> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? effectiveLimits(value as Partial<TaskSurfaceLimitValues>)
    : undefined;
}
