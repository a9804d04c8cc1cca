import type {
  DiffBlock, MarkdownBlock, MetricsBlock, NoticeBlock, TableBlock, TaskSurfaceLayout, TaskSurfaceOption,
} from './model.js';

/*
 * The model after `parseTaskSurfaceModel`: every default explicit, keys in one canonical order, so
 * that the same model always serialises to the same bytes. It is a `TaskSurfaceModelV1` (what the
 * presentation meta persists) with stronger guarantees; parsing it again returns it unchanged.
 */

/** A table whose every row has exactly the declared columns, in column order (missing cells `null`). */
export type NormalizedTableBlock = TableBlock;

export type NormalizedBlock = MarkdownBlock | MetricsBlock | NormalizedTableBlock | DiffBlock | NoticeBlock;

export interface NormalizedSection {
  id: string;
  title?: string;
  /** `{ kind: 'stack' }` when the agent gave none. */
  layout: TaskSurfaceLayout;
  blocks: NormalizedBlock[];
}

export interface NormalizedTextField {
  kind: 'text';
  id: string;
  label: string;
  multiline: boolean;
  required: boolean;
  /** `''` when the agent gave none. */
  initial: string;
}

export interface NormalizedChoiceField {
  kind: 'choice';
  id: string;
  label: string;
  options: TaskSurfaceOption[];
  /** Absent means nothing is selected; a submission may leave the choice unanswered. */
  initial?: string;
}

export interface NormalizedMultiChoiceField {
  kind: 'multi-choice';
  id: string;
  label: string;
  options: TaskSurfaceOption[];
  /** A set: option ids in the options' order; `[]` when the agent gave none. */
  initial: string[];
}

export interface NormalizedToggleField {
  kind: 'toggle';
  id: string;
  label: string;
  /** `false` when the agent gave none. */
  initial: boolean;
}

export interface NormalizedOrderField {
  kind: 'order';
  id: string;
  label: string;
  options: TaskSurfaceOption[];
  /** A permutation of every option id: the agent's order, then any options it left out, in declared order. */
  initial: string[];
}

export type NormalizedField =
  | NormalizedTextField
  | NormalizedChoiceField
  | NormalizedMultiChoiceField
  | NormalizedToggleField
  | NormalizedOrderField;

export interface NormalizedTaskSurfaceModel {
  version: 1;
  title: string;
  description?: string;
  sections: NormalizedSection[];
  /** `[]` when the agent gave none. */
  fields: NormalizedField[];
  submit: { label: string };
}
