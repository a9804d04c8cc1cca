/*
 * Issues the model parser reports. Every issue names where it is (`path`, keys and indexes from the
 * model's root), what kind of problem it is (`code`) and a message written for the agent that wrote
 * the model: it says what is wrong and what is expected.
 */

/** Keys and indexes from the root to the value an issue is about. */
export type IssuePath = (string | number)[];

/** What kind of problem a model issue is. */
export type ModelIssueCode =
  /** A value has the wrong JSON type (object, array, string, number, boolean, null). */
  | 'invalid-type'
  /** A required key is absent. */
  | 'missing-key'
  /** An object has a key the schema does not declare (including `__proto__`). */
  | 'unknown-key'
  /** A block, field or layout `kind` that version 1 does not have. */
  | 'unknown-kind'
  /** The type is right but the value is not allowed (blank label, bad id, empty list, …). */
  | 'invalid-value'
  /** `version` is anything but 1; nothing else is interpreted. */
  | 'unsupported-version'
  /** An id repeats where it must be unique. */
  | 'duplicate-id'
  /** A field's `initial` does not match its declaration. */
  | 'invalid-initial'
  | 'too-many-blocks'
  | 'too-many-fields'
  | 'too-many-rows'
  /** UTF-8 bytes of the normalised model's JSON exceed the limit. */
  | 'model-too-large'
  /**
   * Reserved: version 1's walk follows the schema and never recurses into the input, so nesting
   * where a scalar belongs is reported as `invalid-type` and this code is not produced.
   */
  | 'too-deep';

/** One problem with a model: where, what kind, and a message for the agent. */
export interface ModelIssue {
  path: IssuePath;
  code: ModelIssueCode;
  message: string;
}

/** At most this many issues are reported for one model, in document order. */
export const MAX_MODEL_ISSUES = 32;

/**
 * `model.sections[0].blocks[2].rows[7]` style rendering of a path. `root` is what the path starts
 * from: `'model'` for `parseTaskSurfaceModel` issues, `''` for paths that already start at the
 * tool's arguments (`['model', 'title']`); an empty path with an empty root is `arguments`.
 */
export function formatIssuePath(path: readonly (string | number)[], root = 'model'): string {
  let out = root;
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else if (/^[A-Za-z_$][\w$-]{0,63}$/.test(part)) out += out === '' ? part : `.${part}`;
    else out += `[${JSON.stringify(part.length > 64 ? `${part.slice(0, 64)}…` : part)}]`; // an agent's typo may be long
  }
  return out === '' ? 'arguments' : out;
}

/**
 * The text an agent receives when its `show_task_surface` call is rejected: one line per issue,
 * each with the path in the call's arguments (`model.…`).
 */
export function formatModelIssues(issues: readonly { path: readonly (string | number)[]; message: string }[], root = 'model'): string {
  const lines = issues.map((issue) => `- ${formatIssuePath(issue.path, root)}: ${issue.message}`);
  return ['The task surface was not shown because its model is invalid:', ...lines, 'Fix these and call show_task_surface again.'].join(
    '\n',
  );
}

/** A short description of a value's JSON type for messages (never throws, never prints the value). */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'a boolean';
    case 'undefined':
      return 'nothing';
    case 'object':
      return 'an object';
    default:
      return `a ${typeof value}`;
  }
}
