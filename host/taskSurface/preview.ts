import { parse } from 'partial-json';
import type { NormalizedTaskSurfaceModel, TaskSurfaceLimits } from '../../protocol/index.js';
import { previewTaskSurfaceModel } from '../../protocol/preview.js';
import { SHOW_TASK_SURFACE } from '../../protocol/tool.js';

/**
 * The preview of a call whose arguments stream (`turn.showToolInput`): for `show_task_surface`
 * while no surface is open, the settled part of the JSON text so far (healed by partial-json),
 * parsed as protocol/preview.ts says. `null`: nothing to show; `undefined`: keep what is shown (the
 * text cannot be read yet, or its settled part does not parse).
 */
export function readPreview(
  name: string,
  args: string,
  limits: TaskSurfaceLimits,
  open: boolean,
): NormalizedTaskSurfaceModel | null | undefined {
  if (name !== SHOW_TASK_SURFACE || open) return null;
  let healed: unknown;
  try {
    healed = parse(args);
  } catch {
    return undefined;
  }
  return previewTaskSurfaceModel(healed, limits) ?? undefined;
}
