import * as z from 'zod/mini';
import { DEFAULT_LIMITS } from './limitDefaults.js';

const count = z.int().check(z.positive());

/** Configurable limits of the Task Surface service; every field defaults to the spec's value. */
export const TaskSurfaceLimitsSchema = z.strictObject({
  /** UTF-8 bytes of the normalised model's JSON. */
  modelBytes: z._default(count, DEFAULT_LIMITS.modelBytes),
  /** Blocks in all sections together. */
  blocks: z._default(count, DEFAULT_LIMITS.blocks),
  fields: z._default(count, DEFAULT_LIMITS.fields),
  /** Rows of one table block. */
  tableRows: z._default(count, DEFAULT_LIMITS.tableRows),
  /** UTF-8 bytes of the JSON of `{ values, note }`. */
  submissionBytes: z._default(count, DEFAULT_LIMITS.submissionBytes),
});

/** Limits with every field set. */
export type TaskSurfaceLimits = z.output<typeof TaskSurfaceLimitsSchema>;
/** Limits as configuration gives them (fields optional). */
export type TaskSurfaceLimitsInput = z.input<typeof TaskSurfaceLimitsSchema>;

/** The spec's defaults (written out in limitDefaults.ts, which a browser bundle reads without zod). */
export { DEFAULT_LIMITS, effectiveLimits } from './limitDefaults.js';

/** Fills in defaults and checks a partial limits object; throws a ZodError on a bad value. */
export function resolveLimits(input?: TaskSurfaceLimitsInput): TaskSurfaceLimits {
  return input === undefined ? DEFAULT_LIMITS : TaskSurfaceLimitsSchema.parse(input);
}
