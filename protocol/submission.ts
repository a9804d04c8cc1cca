import { describeType, type IssuePath } from './issues.js';
import type { JsonValue } from './json.js';
import { effectiveLimits, type TaskSurfaceLimits } from './limits.js';
import type { TaskSurfaceValues } from './model.js';
import type { NormalizedField, NormalizedTaskSurfaceModel } from './normalized.js';
import { isRecord, own, show } from './parseReader.js';
import { jsonUtf8Length } from './utf8.js';

/*
 * Submission rules: values keyed by field id with no unknown keys, each matching its field's
 * declaration, and the whole `{ values, note }` within the submission byte limit. The Host runs
 * this against the persisted model before admitting a message; the Dock runs it before sending.
 */

/** What kind of problem a submission issue is. */
export type SubmissionIssueCode =
  | 'invalid-type'
  | 'unknown-key'
  /** A field other than a choice has no value. */
  | 'missing-value'
  /** A required text is blank. */
  | 'required'
  /** The type is right but the value does not match the field (unknown option, repeat, …). */
  | 'invalid-value'
  /** UTF-8 bytes of the JSON of `{ values, note }` exceed the limit. */
  | 'submission-too-large';

/** One problem with a submission. */
export interface SubmissionIssue {
  /** From the submission's root: `['values', fieldId, …]`, `['note']`, or `[]`. */
  path: IssuePath;
  code: SubmissionIssueCode;
  message: string;
}

/** What the Dock sends: values keyed by field id, and an optional note. */
export interface SubmissionInput {
  values: Record<string, JsonValue>;
  note?: string;
}

/** The validator's answer: canonical values, or why they are refused. */
export type ValidateSubmissionResult = { ok: true; values: TaskSurfaceValues; note?: string } | { ok: false; issues: SubmissionIssue[] };

/**
 * Checks a submission against a normalised model. On success returns the values in canonical form
 * (keys in field order, multi-choice ids in option order) and the note (absent when blank).
 * Never throws.
 */
export function validateSubmission(
  model: NormalizedTaskSurfaceModel,
  input: SubmissionInput,
  limits?: Partial<TaskSurfaceLimits>,
): ValidateSubmissionResult {
  try {
    return validate(model, input, effectiveLimits(limits));
  } catch {
    return { ok: false, issues: [{ path: [], code: 'invalid-type', message: 'the submission could not be read' }] };
  }
}

function validate(model: NormalizedTaskSurfaceModel, input: unknown, limits: TaskSurfaceLimits): ValidateSubmissionResult {
  const issues: SubmissionIssue[] = [];
  const add = (path: IssuePath, code: SubmissionIssueCode, message: string): undefined => {
    if (issues.length < 32) issues.push({ path, code, message });
    return undefined;
  };
  if (!isRecord(input))
    return {
      ok: false,
      issues: [{ path: [], code: 'invalid-type', message: `a submission must be an object { values, note? }, not ${describeType(input)}` }],
    };
  for (const key of Object.keys(input)) {
    if (key !== 'values' && key !== 'note') add([key], 'unknown-key', `a submission has no key ${show(key)}`);
  }
  const rawNote = own(input, 'note');
  let note: string | undefined;
  if (typeof rawNote === 'string') note = /\S/.test(rawNote) ? rawNote : undefined;
  else if (rawNote !== undefined) add(['note'], 'invalid-type', `the note must be a string, not ${describeType(rawNote)}`);
  const raw = own(input, 'values');
  if (!isRecord(raw)) {
    add(['values'], 'invalid-type', `values must be an object keyed by field id, not ${describeType(raw)}`);
    return { ok: false, issues };
  }
  const declared = new Set(model.fields.map((f) => f.id));
  for (const key of Object.keys(raw)) {
    if (!declared.has(key)) add(['values', key], 'unknown-key', `there is no field ${show(key)}`);
  }
  // UTF-8 takes at least a byte per UTF-16 unit: text over the limit by length alone is refused
  // before it is scanned or serialised.
  let units = note?.length ?? 0;
  for (const field of model.fields) {
    const value = own(raw, field.id);
    if (typeof value === 'string') units += value.length;
  }
  if (units > limits.submissionBytes) {
    add([], 'submission-too-large', `the submission has ${units} characters of text; the limit is ${limits.submissionBytes} bytes`);
    return { ok: false, issues };
  }
  const values: TaskSurfaceValues = {};
  for (const field of model.fields) {
    const value = checkValue(field, own(raw, field.id), ['values', field.id], add);
    if (value !== undefined) values[field.id] = value;
  }
  if (issues.length > 0) return { ok: false, issues };
  const bytes = jsonUtf8Length(note === undefined ? { values } : { values, note });
  if (bytes > limits.submissionBytes) {
    add([], 'submission-too-large', `the submission is ${bytes} bytes of JSON; the limit is ${limits.submissionBytes}`);
    return { ok: false, issues };
  }
  return note === undefined ? { ok: true, values } : { ok: true, values, note };
}

type Add = (path: IssuePath, code: SubmissionIssueCode, message: string) => undefined;

function checkValue(field: NormalizedField, value: unknown, path: IssuePath, add: Add): TaskSurfaceValues[string] | undefined {
  if (value === undefined || (value === null && field.kind === 'choice')) {
    // An unanswered choice is allowed (a choice without `initial` starts unselected); absent and
    // null both mean unanswered, and the canonical values leave it out.
    return field.kind === 'choice' ? undefined : add(path, 'missing-value', `"${field.label}" has no value`);
  }
  switch (field.kind) {
    case 'text':
      if (typeof value !== 'string') return add(path, 'invalid-type', `"${field.label}" must be text, not ${describeType(value)}`);
      if (field.required && !/\S/.test(value)) return add(path, 'required', `"${field.label}" is required`);
      if (!field.multiline && /[\r\n]/.test(value))
        return add(path, 'invalid-value', `"${field.label}" is a single line; it must not contain line breaks`);
      return value;
    case 'toggle':
      return typeof value === 'boolean'
        ? value
        : add(path, 'invalid-type', `"${field.label}" must be true or false, not ${describeType(value)}`);
    case 'choice':
      if (typeof value !== 'string') return add(path, 'invalid-type', `"${field.label}" must be an option id, not ${describeType(value)}`);
      return field.options.some((o) => o.id === value)
        ? value
        : add(path, 'invalid-value', `"${field.label}" has no option ${show(value)}`);
    default:
      return checkIdList(
        field.kind,
        field.label,
        field.options.map((o) => o.id),
        value,
        path,
        add,
      );
  }
}

/** Multi-choice: a set of option ids (returned in option order). Order: a permutation of all of them. */
function checkIdList(
  kind: 'multi-choice' | 'order',
  label: string,
  optionIds: string[],
  value: unknown,
  path: IssuePath,
  add: Add,
): string[] | undefined {
  if (!Array.isArray(value)) return add(path, 'invalid-type', `"${label}" must be an array of option ids, not ${describeType(value)}`);
  const known = new Set(optionIds);
  const seen = new Set<string>();
  for (let i = 0; i < value.length; i++) {
    const item: unknown = value[i];
    if (typeof item !== 'string' || !known.has(item)) return add([...path, i], 'invalid-value', `"${label}" has no option ${show(item)}`);
    if (seen.has(item)) return add([...path, i], 'invalid-value', `"${label}" lists option ${show(item)} twice`);
    seen.add(item);
  }
  if (kind === 'multi-choice') return optionIds.filter((id) => seen.has(id));
  if (seen.size !== optionIds.length) {
    return add(
      path,
      'invalid-value',
      `"${label}" must order every option; missing ${optionIds
        .filter((id) => !seen.has(id))
        .map(show)
        .join(', ')}`,
    );
  }
  return [...(value as string[])];
}

/** The values a fresh editor starts from: every field's initial (an unselected choice is absent). */
export function initialValues(model: NormalizedTaskSurfaceModel): TaskSurfaceValues {
  const values: TaskSurfaceValues = {};
  for (const field of model.fields) {
    if (field.kind === 'multi-choice' || field.kind === 'order') values[field.id] = [...field.initial];
    else if (field.initial !== undefined) values[field.id] = field.initial;
  }
  return values;
}
