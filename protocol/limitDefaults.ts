/** The limits of the Task Surface service, every field set (`TaskSurfaceLimitsSchema`'s output). */
export interface TaskSurfaceLimitValues {
  /** UTF-8 bytes of the normalised model's JSON. */
  modelBytes: number;
  /** Blocks in all sections together. */
  blocks: number;
  fields: number;
  /** Rows of one table block. */
  tableRows: number;
  /** UTF-8 bytes of the JSON of `{ values, note }`. */
  submissionBytes: number;
}

/** The spec's defaults. Apart from limits.ts (the schema) so that a browser bundle reads them without zod. */
export const DEFAULT_LIMITS: Readonly<TaskSurfaceLimitValues> = Object.freeze({
  modelBytes: 64 * 1024,
  blocks: 64,
  fields: 32,
  tableRows: 200,
  submissionBytes: 32 * 1024,
});

/**
 * Limits for one parse or validation: each field the caller gave as a positive integer, the
 * default otherwise. Never throws, so a loosely built limits object cannot switch a limit off.
 */
export function effectiveLimits(limits?: Partial<TaskSurfaceLimitValues>): TaskSurfaceLimitValues {
  if (limits === undefined || limits === DEFAULT_LIMITS) return DEFAULT_LIMITS;
  const pick = (key: keyof TaskSurfaceLimitValues): number => {
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
