import { ID_MAX_LENGTH, ID_PATTERN } from './ids.js';
import { describeType, formatIssuePath, MAX_MODEL_ISSUES, type IssuePath, type ModelIssue, type ModelIssueCode } from './issues.js';
import type { TaskSurfaceLimits } from './limits.js';

/*
 * The building blocks of the model walk. Values are read only through own keys (never inherited
 * ones), objects are never recursed into beyond what the schema declares, and nothing is written
 * to the input, so no input can pollute a prototype, loop, or blow the stack.
 */

/** A JSON object from outside, not yet checked. */
export type Input = Record<string, unknown>;

/**
 * Where a value is, as a linked list from the value up to the root: cheaper to extend on every
 * step of the walk than an array; turned into an `IssuePath` only when an issue is reported.
 */
export interface PathNode {
  readonly up: At;
  readonly key: string | number;
}
/** A path; `null` is the root. */
export type At = PathNode | null;

/** The path one step below `up`. */
export const at = (up: At, key: string | number): PathNode => ({ up, key });

/** The path as keys and indexes from the root. */
export function toArray(path: At): IssuePath {
  const out: IssuePath = [];
  for (let node = path; node !== null; node = node.up) out.push(node.key);
  return out.reverse();
}

const hasOwn = Object.prototype.hasOwnProperty;

/** `value[key]` if `key` is an own property, else `undefined`. */
export function own(value: Input, key: string): unknown {
  return hasOwn.call(value, key) ? value[key] : undefined;
}

/** A non-null, non-array object. */
export function isRecord(value: unknown): value is Input {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Quotes a short scalar for a message; anything else is named by its type. */
export function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return describeType(value);
}

const NOT_BLANK = /\S/;
/** Whether `text` has a non-space character; a printable ASCII first character settles it without a regex. */
function notBlank(text: string): boolean {
  const first = text.charCodeAt(0);
  return (first > 0x20 && first < 0x7f) || NOT_BLANK.test(text);
}

/** Collects issues (bounded) and carries the limits and the running block count. */
export class Reader {
  readonly issues: ModelIssue[] = [];
  blocks = 0;
  /** UTF-8 bytes of every table cell read so far, as JSON (for the model's byte limit). */
  cellBytes = 0;
  constructor(readonly limits: TaskSurfaceLimits) {}

  /** Set when a part was left out of the result; an issue must explain it. */
  private skipped = false;

  /** Whether an issue was found, or a part was left out (which always comes with an issue). */
  get failed(): boolean {
    return this.issues.length > 0 || this.skipped;
  }

  /** Whether the issue list is full: walking further cannot change the outcome. */
  get full(): boolean {
    return this.issues.length >= MAX_MODEL_ISSUES;
  }

  skip(): void {
    this.skipped = true;
  }

  add(path: At, code: ModelIssueCode, message: string): undefined {
    if (this.issues.length < MAX_MODEL_ISSUES) this.issues.push({ path: toArray(path), code, message });
    return undefined;
  }

  /** An object with a `kind` among `kinds`; returns the kind (unknown keys are the caller's check). */
  kindOf<K extends string>(value: unknown, path: At, what: string, kinds: readonly K[]): K | undefined {
    if (!isRecord(value)) return this.add(path, 'invalid-type', `${what} must be an object, not ${describeType(value)}`);
    if (!hasOwn.call(value, 'kind')) return this.add(at(path, 'kind'), 'missing-key', `${what} needs "kind" (one of ${kinds.join(', ')})`);
    const kind = value.kind;
    if (typeof kind !== 'string' || !(kinds as readonly string[]).includes(kind)) {
      return this.add(at(path, 'kind'), 'unknown-kind', `${what} kind must be one of ${kinds.join(', ')}, not ${show(kind)}`);
    }
    return kind as K;
  }

  /** An object whose keys are all in `allowed`; `what` names it in messages. */
  object(value: unknown, path: At, what: string, allowed: ReadonlySet<string>): Input | undefined {
    if (!isRecord(value)) return this.add(path, 'invalid-type', `${what} must be an object, not ${describeType(value)}`);
    for (const key of Object.keys(value)) {
      if (!allowed.has(key)) {
        this.add(at(path, key), 'unknown-key', `${what} has no key ${show(key)}; allowed: ${[...allowed].join(', ')}`);
      }
    }
    return value;
  }

  /** An own key that must be present. */
  required(value: Input, key: string, path: At, what: string): unknown {
    const found = own(value, key);
    if (found === undefined) this.add(at(path, key), 'missing-key', `${what} needs "${key}"`);
    return found;
  }

  /**
   * What `required` returned: `undefined` there was already reported as a missing key. A list
   * without a count limit of its own (`counted`) that is longer than half the byte limit cannot
   * fit (every item takes a byte and a comma at least), so it is refused before it is walked.
   */
  array(value: unknown, path: At, what: string, nonEmpty: boolean, counted = false): unknown[] | undefined {
    if (value === undefined) return undefined;
    if (!Array.isArray(value)) return this.add(path, 'invalid-type', `${what} must be an array, not ${describeType(value)}`);
    if (nonEmpty && value.length === 0) return this.add(path, 'invalid-value', `${what} must not be empty`);
    if (!counted && value.length * 2 > this.limits.modelBytes) {
      return this.add(
        path,
        'model-too-large',
        `${what} has ${value.length} items; no model with them fits the limit of ${this.limits.modelBytes} bytes`,
      );
    }
    return value;
  }

  /*
   * The string readers take the object, the key and the object's path, and build the value's
   * path only for an issue: a large model has thousands of strings and almost never an issue.
   * `owner` names the object for a missing key; `what` names the value.
   */

  /**
   * Each item of `list` as an object of `keys`, read by `read`. An item that is not such an
   * object, or that `read` refuses, is left out (its issue says why).
   */
  objects<T>(list: unknown[], path: At, what: string, keys: ReadonlySet<string>, read: (item: Input, path: At) => T | undefined): T[] {
    const out: T[] = [];
    for (let i = 0; i < list.length && !this.full; i++) {
      const itemPath = at(path, i);
      const item = this.object(list[i], itemPath, what, keys);
      const value = item === undefined ? undefined : read(item, itemPath);
      if (value === undefined) this.skip();
      else out.push(value);
    }
    return out;
  }

  /** A required string of any content (cell text, diff text, metric values). */
  string(obj: Input, key: string, path: At, owner: string, what: string): string | undefined {
    const value = own(obj, key);
    if (typeof value === 'string') return value;
    return this.notString(value, key, path, owner, what);
  }

  /** A required string a person must be able to read: not empty or whitespace only. */
  label(obj: Input, key: string, path: At, owner: string, what: string): string | undefined {
    const value = own(obj, key);
    if (typeof value !== 'string') return this.notString(value, key, path, owner, what);
    if (!notBlank(value)) return this.add(at(path, key), 'invalid-value', `${what} must not be blank`);
    return value;
  }

  /** An optional label: absent stays absent; present must not be blank (omit it instead). */
  optionalLabel(obj: Input, key: string, path: At, what: string): string | undefined {
    const value = own(obj, key);
    if (value === undefined) return undefined;
    if (typeof value !== 'string') return this.notString(value, key, path, '', what);
    if (!notBlank(value)) return this.add(at(path, key), 'invalid-value', `${what} must not be blank; omit it instead`);
    return value;
  }

  /** A required id: 1–128 characters, starting with a letter or digit, then letters, digits, `_ . : -`. */
  id(obj: Input, key: string, path: At, owner: string, what: string): string | undefined {
    const value = own(obj, key);
    if (typeof value !== 'string') return this.notString(value, key, path, owner, what);
    if (value.length === 0 || value.length > ID_MAX_LENGTH || !ID_PATTERN.test(value)) {
      return this.add(
        at(path, key),
        'invalid-value',
        `${what} ${show(value)} must be 1–${ID_MAX_LENGTH} characters, start with a letter or digit and use only letters, digits, '_', '.', ':' and '-'`,
      );
    }
    return value;
  }

  private notString(value: unknown, key: string, path: At, owner: string, what: string): undefined {
    if (value === undefined) return this.add(at(path, key), 'missing-key', `${owner} needs "${key}"`);
    return this.add(at(path, key), 'invalid-type', `${what} must be a string, not ${describeType(value)}`);
  }

  optionalBoolean(value: unknown, path: At, what: string, fallback: boolean): boolean {
    if (value === undefined) return fallback;
    if (typeof value !== 'boolean') {
      this.add(path, 'invalid-type', `${what} must be a boolean, not ${describeType(value)}`);
      return fallback;
    }
    return value;
  }
}

/** Records ids in one namespace and reports a repeat at the later occurrence. */
export class IdScope {
  private readonly seen = new Map<string, At>();
  constructor(
    private readonly reader: Reader,
    private readonly what: string,
  ) {}

  /** Claims the `id` of the object at `owner`; a repeat is reported at the later `owner.id`. */
  claim(id: string | undefined, owner: At): void {
    if (id === undefined) return;
    const first = this.seen.get(id);
    if (first === undefined) this.seen.set(id, owner);
    else
      this.reader.add(
        at(owner, 'id'),
        'duplicate-id',
        `${this.what} ${show(id)} is already used at ${formatIssuePath(toArray(at(first, 'id')), '')}`,
      );
  }

  has(id: string): boolean {
    return this.seen.has(id);
  }
}
