import * as z from 'zod/mini';
import { ID_MAX_LENGTH, ID_PATTERN } from './ids.js';

/*
 * TaskSurfaceModelV1 exactly as the spec writes it. Every object is strict (an unknown key is an
 * error) and every union is tagged on `kind`. The parser in `parse.ts` adds the checks a schema
 * cannot express (unique ids, initials against options, limits) and the normalisation.
 */

/*
 * The schema also carries the parser's stricter rules that JSON Schema can express (id pattern,
 * non-blank labels, non-empty lists), so the tool's input schema tells the agent about them.
 * `parse.ts` is the authority; a property test checks that it never accepts what this rejects.
 */
const describe = <S extends z.ZodMiniType>(schema: S, description: string): S => {
  // Only ever called on a fresh schema instance: the registry keys by instance.
  (schema as z.ZodMiniType).register(z.globalRegistry, { description });
  return schema;
};
/** Content: any string. */
const text = z.string();
/** Something a person reads as a name: not blank. */
const notBlank = () => z.string().check(z.regex(/\S/, 'must not be blank'));
const label = notBlank();
const id = z
  .string()
  .check(
    z.minLength(1, 'must not be empty'),
    z.maxLength(ID_MAX_LENGTH, `must be at most ${ID_MAX_LENGTH} characters`),
    z.regex(ID_PATTERN, "must start with a letter or digit and use only letters, digits, '_', '.', ':' and '-'"),
  );
const nonEmpty = <T extends z.ZodMiniType>(item: T) => z.array(item).check(z.minLength(1, 'must not be empty'));

export const TaskSurfaceOptionSchema = z.strictObject({
  id,
  label,
  detail: z.optional(label),
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

export const MarkdownBlockSchema = z.strictObject({
  kind: z.literal('markdown'),
  text: describe(notBlank(), 'Markdown; no HTML; images show as their alt text'),
});
export const MetricsBlockSchema = z.strictObject({
  kind: z.literal('metrics'),
  items: nonEmpty(z.strictObject({ label, value: text, detail: z.optional(label) })),
});
export const TableBlockSchema = z.strictObject({
  kind: z.literal('table'),
  columns: nonEmpty(z.strictObject({ id, label })),
  rows: describe(z.array(z.record(z.string(), TableCellSchema)), 'Each row maps column ids to cells; a missing cell is null'),
});
export const DiffBlockSchema = z.strictObject({
  kind: z.literal('diff'),
  path: z.optional(label),
  before: describe(z.nullable(text), 'null for a new file'),
  after: text,
  language: z.optional(label),
});
export const NoticeBlockSchema = z.strictObject({
  kind: z.literal('notice'),
  tone: z.enum(['neutral', 'info', 'warning']),
  text: label,
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
  title: z.optional(label),
  layout: z.optional(TaskSurfaceLayoutSchema),
  blocks: nonEmpty(TaskSurfaceBlockSchema),
});

const options = z.array(TaskSurfaceOptionSchema).check(z.minLength(1, 'must list at least one option'));

export const TextFieldSchema = z.strictObject({
  kind: z.literal('text'),
  id,
  label,
  multiline: z.optional(describe(z.boolean(), 'A multi-line box; a single-line text may not contain line breaks')),
  required: z.optional(describe(z.boolean(), 'The user must enter something other than blanks')),
  initial: z.optional(text),
});
export const ChoiceFieldSchema = z.strictObject({
  kind: z.literal('choice'),
  id,
  label,
  options,
  initial: z.optional(describe(z.string(), 'The id of the option selected at first; omit for no selection')),
});
export const MultiChoiceFieldSchema = z.strictObject({
  kind: z.literal('multi-choice'),
  id,
  label,
  options,
  initial: z.optional(describe(z.array(z.string()), 'Ids of the options selected at first')),
});
export const ToggleFieldSchema = z.strictObject({
  kind: z.literal('toggle'),
  id,
  label,
  initial: z.optional(z.boolean()),
});
export const OrderFieldSchema = z.strictObject({
  kind: z.literal('order'),
  id,
  label,
  options,
  initial: z.optional(describe(z.array(z.string()), 'Option ids, first to last; options left out follow in declared order')),
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
  title: label,
  description: z.optional(label),
  sections: z.array(TaskSurfaceSectionSchema),
  fields: z.optional(z.array(TaskSurfaceFieldSchema)),
  submit: z.strictObject({ label }),
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
