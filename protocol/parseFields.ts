import { describeType } from './issues.js';
import type { TaskSurfaceOption } from './model.js';
import type { NormalizedField } from './normalized.js';
import { at, IdScope, own, show, type At, type Input, type Reader } from './parseReader.js';

/* Input fields: text, choice, multi-choice, toggle, order; their options and initial values. */

const FIELD_KINDS = ['text', 'choice', 'multi-choice', 'toggle', 'order'] as const;
const keys = (...names: string[]): ReadonlySet<string> => new Set(names);
const TEXT_KEYS = keys('kind', 'id', 'label', 'multiline', 'required', 'initial');
const OPTIONS_KEYS = keys('kind', 'id', 'label', 'options', 'initial');
const TOGGLE_KEYS = keys('kind', 'id', 'label', 'initial');
const OPTION_KEYS = keys('id', 'label', 'detail');
const FIELD_WHAT = Object.fromEntries(FIELD_KINDS.map((kind) => [kind, `${article(kind)} ${kind} field`])) as Record<
  (typeof FIELD_KINDS)[number],
  string
>;

/** One field, normalised, or `undefined` when it has an issue. Its id is claimed in `ids`. */
export function readField(r: Reader, value: unknown, path: At, ids: IdScope): NormalizedField | undefined {
  const kind = r.kindOf(value, path, 'a field', FIELD_KINDS);
  if (kind === undefined) return undefined;
  const field = value as Input;
  const what = FIELD_WHAT[kind];
  r.object(field, path, what, kind === 'text' ? TEXT_KEYS : kind === 'toggle' ? TOGGLE_KEYS : OPTIONS_KEYS);
  const id = r.id(field, 'id', path, what, 'a field id');
  ids.claim(id, path);
  const label = r.label(field, 'label', path, what, 'a field label');
  const initialPath = at(path, 'initial');
  const initial = own(field, 'initial');

  if (kind === 'text') {
    const multiline = r.optionalBoolean(own(field, 'multiline'), at(path, 'multiline'), '"multiline"', false);
    const required = r.optionalBoolean(own(field, 'required'), at(path, 'required'), '"required"', false);
    let text = '';
    if (typeof initial === 'string') text = initial;
    else if (initial !== undefined) r.add(initialPath, 'invalid-initial', `a text initial must be a string, not ${describeType(initial)}`);
    if (!multiline && /[\r\n]/.test(text)) r.add(initialPath, 'invalid-initial', 'a single-line text initial must not contain line breaks');
    if (id === undefined || label === undefined) return undefined;
    return { kind, id, label, multiline, required, initial: text };
  }
  if (kind === 'toggle') {
    if (initial !== undefined && typeof initial !== 'boolean') {
      r.add(initialPath, 'invalid-initial', `a toggle initial must be true or false, not ${show(initial)}`);
    }
    if (id === undefined || label === undefined) return undefined;
    return { kind, id, label, initial: initial === true };
  }

  const read = readOptions(r, r.required(field, 'options', path, what), at(path, 'options'));
  if (read === undefined) return undefined;
  const { options, optionIds } = read;
  if (kind === 'choice') {
    if (initial !== undefined && (typeof initial !== 'string' || !optionIds.has(initial))) {
      r.add(initialPath, 'invalid-initial', `a choice initial must be one of its option ids, not ${show(initial)}`);
    }
    if (id === undefined || label === undefined) return undefined;
    return typeof initial === 'string' ? { kind, id, label, options, initial } : { kind, id, label, options };
  }
  const chosen = readIdList(r, initial, initialPath, optionIds, kind);
  if (id === undefined || label === undefined || chosen === undefined) return undefined;
  if (kind === 'multi-choice') {
    // A set: canonical order is the options' order.
    return { kind, id, label, options, initial: options.filter((o) => chosen.has(o.id)).map((o) => o.id) };
  }
  // An order: the agent's order, then the options it left out, in declared order.
  const rest = options.filter((o) => !chosen.has(o.id)).map((o) => o.id);
  return { kind, id, label, options, initial: [...chosen, ...rest] };
}

/** The options, and their ids to check initial values against. */
function readOptions(r: Reader, value: unknown, path: At): { options: TaskSurfaceOption[]; optionIds: IdScope } | undefined {
  const list = r.array(value, path, 'options', true);
  if (list === undefined) return undefined;
  const scope = new IdScope(r, 'option id');
  const options = r.objects(list, path, 'an option', OPTION_KEYS, (option, optionPath): TaskSurfaceOption | undefined => {
    const id = r.id(option, 'id', optionPath, 'an option', 'an option id');
    const label = r.label(option, 'label', optionPath, 'an option', 'an option label');
    const detail = r.optionalLabel(option, 'detail', optionPath, 'an option detail');
    scope.claim(id, optionPath);
    if (id === undefined || label === undefined) return undefined;
    return detail === undefined ? { id, label } : { id, label, detail };
  });
  // With an option missing, initials are not checked against an incomplete set.
  return options.length === list.length ? { options, optionIds: scope } : undefined;
}

/** A list of distinct option ids (absent is empty), kept in the given order. */
function readIdList(r: Reader, value: unknown, path: At, optionIds: IdScope, kind: string): Set<string> | undefined {
  const chosen = new Set<string>();
  if (value === undefined) return chosen;
  if (!Array.isArray(value)) {
    return r.add(path, 'invalid-initial', `${article(kind)} ${kind} initial must be an array of option ids, not ${describeType(value)}`);
  }
  let ok = true;
  for (let i = 0; i < value.length && !r.full; i++) {
    const item: unknown = value[i];
    if (typeof item !== 'string' || !optionIds.has(item)) {
      r.add(at(path, i), 'invalid-initial', `${article(kind)} ${kind} initial may only hold its option ids, not ${show(item)}`);
      ok = false;
    } else if (chosen.has(item)) {
      r.add(at(path, i), 'invalid-initial', `${article(kind)} ${kind} initial lists option ${show(item)} twice`);
      ok = false;
    } else chosen.add(item);
  }
  return ok ? chosen : undefined;
}

/** 'an order field', 'a choice field'. */
function article(word: string): string {
  return /^[aeiou]/.test(word) ? 'an' : 'a';
}
