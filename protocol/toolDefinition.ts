import * as z from 'zod/mini';
import type { JsonObject } from './json.js';
import { TaskSurfaceModelV1Schema } from './model.js';
import type { ToolDefinition } from './tool.js';
import { SHOW_TASK_SURFACE } from './taskSurface.js';

/*
 * The one stable `show_task_surface` definition. Nothing in it depends on a session, a model, the
 * configured limits or the time, so it serialises to the same bytes in every call and process
 * (pinned by test/protocol/show_task_surface.tool.json).
 */

const DESCRIPTION = [
  'Show the user a temporary panel of content blocks (markdown, metrics, table, diff, notice) and input fields',
  '(text, choice, multi-choice, toggle, order) when a task is easier to finish with structure than in prose:',
  'comparing options, reordering a plan, reviewing a table, or filling a few related fields. Ask simple',
  'questions in plain chat instead. Calling this tool ends your turn. The user\'s answer arrives as their next',
  "user message: the panel title, each field's label and value, and an optional note. They may also ignore the",
  'panel and reply in ordinary words. One panel can be open per session; ids must be unique, and initial',
  'values must use option ids.',
].join(' ');

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/** `show_task_surface` as advertised to the model: input `{ model: TaskSurfaceModelV1 }`. */
export const showTaskSurfaceTool: ToolDefinition = /* @__PURE__ */ deepFreeze({
  name: SHOW_TASK_SURFACE,
  description: DESCRIPTION,
  // Pure: a browser bundle that never advertises the tool drops z.toJSONSchema with it.
  inputSchema: /* @__PURE__ */ z.toJSONSchema(/* @__PURE__ */ z.strictObject({ model: TaskSurfaceModelV1Schema })) as JsonObject,
});

/**
 * The plain result text of a successful call: what the model receives, and what a client that
 * cannot render the panel shows in its place.
 */
export function showTaskSurfaceResultText(surfaceId: string, title: string): string {
  return `Task surface ${JSON.stringify(title)} (${surfaceId}) is now shown to the user; your turn ends here. ` +
    "Their answer will arrive as the next user message. If their client cannot show the panel, they can reply " +
    'with an ordinary message instead, which closes the surface.';
}
