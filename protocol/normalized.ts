import type { DiffBlock, MarkdownBlock, MetricsBlock, NoticeBlock, TableBlock, TaskSurfaceLayout, TaskSurfaceOption } from './model.js';

/*
 * The model after `parseTaskSurfaceModel`: every default explicit, keys in one canonical order, so
 * that the same model always serialises to the same bytes. It is a `TaskSurfaceModelV1` (what the
 * presentation meta persists) with stronger guarantees; parsing it again returns it unchanged.
 */

/** A table whose every row has exactly the declared columns, in column order (missing cells `null`). */
export type NormalizedTableBlock = TableBlock;

/** A content block as the parser returns it. */
export type NormalizedBlock = MarkdownBlock | MetricsBlock | NormalizedTableBlock | DiffBlock | NoticeBlock;

/** A section with its layout explicit. */
export interface NormalizedSection {
  id: string;
  title?: string;
  /** `{ kind: 'stack' }` when the agent gave none. */
  layout: TaskSurfaceLayout;
  blocks: NormalizedBlock[];
}

/** A text field with `multiline`, `required` and `initial` explicit. */
export interface NormalizedTextField {
  kind: 'text';
  id: string;
  label: string;
  multiline: boolean;
  required: boolean;
  /** `''` when the agent gave none. */
  initial: string;
}

/** A single choice among options. */
export interface NormalizedChoiceField {
  kind: 'choice';
  id: string;
  label: string;
  options: TaskSurfaceOption[];
  /** Absent means nothing is selected; a submission may leave the choice unanswered. */
  initial?: string;
}

/** Any number of options. */
export interface NormalizedMultiChoiceField {
  kind: 'multi-choice';
  id: string;
  label: string;
  options: TaskSurfaceOption[];
  /** A set: option ids in the options' order; `[]` when the agent gave none. */
  initial: string[];
}

/** A yes/no switch. */
export interface NormalizedToggleField {
  kind: 'toggle';
  id: string;
  label: string;
  /** `false` when the agent gave none. */
  initial: boolean;
}

/** All options, in an order the person chooses. */
export interface NormalizedOrderField {
  kind: 'order';
  id: string;
  label: string;
  options: TaskSurfaceOption[];
  /** A permutation of every option id: the agent's order, then any options it left out, in declared order. */
  initial: string[];
}

/** An input field as the parser returns it. */
export type NormalizedField =
  NormalizedTextField | NormalizedChoiceField | NormalizedMultiChoiceField | NormalizedToggleField | NormalizedOrderField;

/** The normalised model: what `parseTaskSurfaceModel` returns and presentation meta persists. */
export interface NormalizedTaskSurfaceModel {
  version: 1;
  title: string;
  description?: string;
  sections: NormalizedSection[];
  /** `[]` when the agent gave none. */
  fields: NormalizedField[];
  submit: { label: string };
}
