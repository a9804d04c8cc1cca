import * as z from 'zod/mini';

const count = z.int().check(z.positive());

/** Configurable limits of the Task Surface service; every field defaults to the spec's value. */
export const TaskSurfaceLimitsSchema = z.strictObject({
  /** UTF-8 bytes of the normalised model's JSON. */
  modelBytes: z._default(count, 64 * 1024),
  /** Blocks in all sections together. */
  blocks: z._default(count, 64),
  fields: z._default(count, 32),
  /** Rows of one table block. */
  tableRows: z._default(count, 200),
  /** UTF-8 bytes of the JSON of `{ values, note }`. */
  submissionBytes: z._default(count, 32 * 1024),
});

/** Limits with every field set. */
export type TaskSurfaceLimits = z.output<typeof TaskSurfaceLimitsSchema>;
/** Limits as configuration gives them (fields optional). */
export type TaskSurfaceLimitsInput = z.input<typeof TaskSurfaceLimitsSchema>;

/** The spec's defaults. */
export const DEFAULT_LIMITS: Readonly<TaskSurfaceLimits> = Object.freeze(TaskSurfaceLimitsSchema.parse({}));

/** Fills in defaults and checks a partial limits object; throws a ZodError on a bad value. */
export function resolveLimits(input?: TaskSurfaceLimitsInput): TaskSurfaceLimits {
  return input === undefined ? DEFAULT_LIMITS : TaskSurfaceLimitsSchema.parse(input);
}

/**
 * Limits for one parse or validation: each field the caller gave as a positive integer, the
 * default otherwise. Never throws, so a loosely built limits object cannot switch a limit off.
 */
export function effectiveLimits(limits?: Partial<TaskSurfaceLimits>): TaskSurfaceLimits {
  if (limits === undefined || limits === DEFAULT_LIMITS) return DEFAULT_LIMITS;
  const pick = (key: keyof TaskSurfaceLimits): number => {
    const value = limits[key];
    return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : DEFAULT_LIMITS[key];
  };
  return {
    modelBytes: pick('modelBytes'),
    blocks: pick('blocks'),
    fields: pick('fields'),
    tableRows: pick('tableRows'),
    submissionBytes: pick('submissionBytes'),
  };
}
