import * as z from 'zod/mini';

/*
 * TaskSurfaceModelV1 exactly as the spec writes it. Every object is strict (an unknown key is an
 * error) and every union is tagged on `kind`. The parser in `parse.ts` adds the checks a schema
 * cannot express (unique ids, initials against options, limits) and the normalisation.
 */

const text = z.string();
const id = z.string().check(z.minLength(1, 'must not be empty'), z.maxLength(128, 'must be at most 128 characters'));

export const TaskSurfaceOptionSchema = z.strictObject({
  id,
  label: text,
  detail: z.optional(text),
});

export const TaskSurfaceLayoutSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('stack') }),
  z.strictObject({ kind: z.literal('grid'), columns: z.union([z.literal(2), z.literal(3)]) }),
]);

export const TableCellSchema = z.union([
  z.string(),
  z.number().check(z.refine(Number.isFinite, 'must be a finite number')),
  z.boolean(),
  z.null(),
]);

export const MarkdownBlockSchema = z.strictObject({ kind: z.literal('markdown'), text });
export const MetricsBlockSchema = z.strictObject({
  kind: z.literal('metrics'),
  items: z.array(z.strictObject({ label: text, value: text, detail: z.optional(text) })),
});
export const TableBlockSchema = z.strictObject({
  kind: z.literal('table'),
  columns: z.array(z.strictObject({ id, label: text })),
  rows: z.array(z.record(z.string(), TableCellSchema)),
});
export const DiffBlockSchema = z.strictObject({
  kind: z.literal('diff'),
  path: z.optional(text),
  before: z.nullable(text),
  after: text,
  language: z.optional(text),
});
export const NoticeBlockSchema = z.strictObject({
  kind: z.literal('notice'),
  tone: z.enum(['neutral', 'info', 'warning']),
  text,
});

export const TaskSurfaceBlockSchema = z.discriminatedUnion('kind', [
  MarkdownBlockSchema,
  MetricsBlockSchema,
  TableBlockSchema,
  DiffBlockSchema,
  NoticeBlockSchema,
]);

export const TaskSurfaceSectionSchema = z.strictObject({
  id,
  title: z.optional(text),
  layout: z.optional(TaskSurfaceLayoutSchema),
  blocks: z.array(TaskSurfaceBlockSchema),
});

const options = z.array(TaskSurfaceOptionSchema).check(z.minLength(1, 'must list at least one option'));

export const TextFieldSchema = z.strictObject({
  kind: z.literal('text'),
  id,
  label: text,
  multiline: z.optional(z.boolean()),
  required: z.optional(z.boolean()),
  initial: z.optional(text),
});
export const ChoiceFieldSchema = z.strictObject({
  kind: z.literal('choice'),
  id,
  label: text,
  options,
  initial: z.optional(z.string()),
});
export const MultiChoiceFieldSchema = z.strictObject({
  kind: z.literal('multi-choice'),
  id,
  label: text,
  options,
  initial: z.optional(z.array(z.string())),
});
export const ToggleFieldSchema = z.strictObject({
  kind: z.literal('toggle'),
  id,
  label: text,
  initial: z.optional(z.boolean()),
});
export const OrderFieldSchema = z.strictObject({
  kind: z.literal('order'),
  id,
  label: text,
  options,
  initial: z.optional(z.array(z.string())),
});

export const TaskSurfaceFieldSchema = z.discriminatedUnion('kind', [
  TextFieldSchema,
  ChoiceFieldSchema,
  MultiChoiceFieldSchema,
  ToggleFieldSchema,
  OrderFieldSchema,
]);

export const TaskSurfaceModelV1Schema = z.strictObject({
  version: z.literal(1),
  title: text,
  description: z.optional(text),
  sections: z.array(TaskSurfaceSectionSchema),
  fields: z.optional(z.array(TaskSurfaceFieldSchema)),
  submit: z.strictObject({ label: text }),
});

export type TaskSurfaceOption = z.infer<typeof TaskSurfaceOptionSchema>;
export type TaskSurfaceLayout = z.infer<typeof TaskSurfaceLayoutSchema>;
export type TableCell = z.infer<typeof TableCellSchema>;
export type TaskSurfaceBlock = z.infer<typeof TaskSurfaceBlockSchema>;
export type MarkdownBlock = z.infer<typeof MarkdownBlockSchema>;
export type MetricsBlock = z.infer<typeof MetricsBlockSchema>;
export type TableBlock = z.infer<typeof TableBlockSchema>;
export type DiffBlock = z.infer<typeof DiffBlockSchema>;
export type NoticeBlock = z.infer<typeof NoticeBlockSchema>;
export type TaskSurfaceSection = z.infer<typeof TaskSurfaceSectionSchema>;
export type TaskSurfaceField = z.infer<typeof TaskSurfaceFieldSchema>;
export type TextField = z.infer<typeof TextFieldSchema>;
export type ChoiceField = z.infer<typeof ChoiceFieldSchema>;
export type MultiChoiceField = z.infer<typeof MultiChoiceFieldSchema>;
export type ToggleField = z.infer<typeof ToggleFieldSchema>;
export type OrderField = z.infer<typeof OrderFieldSchema>;
/** The model as the agent may write it (optional parts optional). */
export type TaskSurfaceModelV1 = z.infer<typeof TaskSurfaceModelV1Schema>;

/** Value of one field in a draft or a submission, by field kind. */
export type TaskSurfaceFieldValue = string | string[] | boolean;
export type TaskSurfaceValues = Record<string, TaskSurfaceFieldValue>;
