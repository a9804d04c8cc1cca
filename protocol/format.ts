import { canonicalLocale, resolveLocale, type LocaleTag } from './locale.js';
import type { TaskSurfaceOption, TaskSurfaceValues } from './model.js';
import type { NormalizedField, NormalizedTaskSurfaceModel } from './normalized.js';

/*
 * The readable text of a submission: it becomes the visible user message and the model's input.
 * Title, then one entry per answered field (label and value), then the note. An optional field
 * left empty (a blank text that is not required, a choice with no selection) is left out of the
 * text; the structured values on the message keep it. Display blocks are never repeated; every
 * other submitted value is kept; the same input always gives the same text.
 */

/** The person's language for the submission text: a BCP 47 tag, matched through `localeChain`. */
export type SubmissionLocale = LocaleTag;

/** The words a submission text is written with, in one language. */
export interface SubmissionWords {
  /** Between a label and its value (`': '`, `'：'`). */
  colon: string;
  yes: string;
  no: string;
  /** Between the options of a multi-choice answer. */
  list: string;
  /** A blank required text. */
  empty: string;
  /** A multi-choice answer with nothing chosen. */
  none: string;
  /** The label of the person's note. */
  note: string;
  /** Around an option id when two options share a label. */
  open: string;
  close: string;
}

const SHIPPED: Record<string, SubmissionWords> = {
  en: { colon: ': ', yes: 'yes', no: 'no', list: ', ', empty: '(empty)', none: '(none)', note: 'Note', open: ' (', close: ')' },
  zh: { colon: '：', yes: '是', no: '否', list: '、', empty: '（空）', none: '（无）', note: '备注', open: '（', close: '）' },
  es: { colon: ': ', yes: 'sí', no: 'no', list: ', ', empty: '(vacío)', none: '(ninguna)', note: 'Nota', open: ' (', close: ')' },
  de: { colon: ': ', yes: 'ja', no: 'nein', list: ', ', empty: '(leer)', none: '(keine)', note: 'Notiz', open: ' (', close: ')' },
  ja: { colon: '：', yes: 'はい', no: 'いいえ', list: '、', empty: '（空欄）', none: '（なし）', note: 'メモ', open: '（', close: '）' },
  ar: { colon: ': ', yes: 'نعم', no: 'لا', list: '، ', empty: '(فارغ)', none: '(لا شيء)', note: 'ملاحظة', open: ' (', close: ')' },
};

const registered = new Map<string, SubmissionWords>(Object.entries(SHIPPED));

/** The words of the shipped languages (en, zh, es, de, ja, ar), by tag. */
export const SUBMISSION_WORDS: Readonly<Record<string, SubmissionWords>> = SHIPPED;

/**
 * Teaches the formatter a language (`registerLocale` in `task-surface/components` calls it with the
 * table's `submission` words; a host in another process calls it itself). Returns its disposer.
 */
export function registerSubmissionWords(tag: LocaleTag, words: SubmissionWords): () => void {
  const key = canonicalLocale(tag);
  if (key === undefined) throw new RangeError(`registerSubmissionWords: "${tag}" is not a well-formed BCP 47 language tag`);
  const before = registered.get(key);
  registered.set(key, words);
  return () => {
    if (registered.get(key) !== words) return;
    if (before === undefined) registered.delete(key);
    else registered.set(key, before);
  };
}

/** Every language the formatter writes now: the shipped ones and those registered (`registerLocale`, `registerSubmissionWords`). */
export function submissionLocales(): string[] {
  return [...registered.keys()];
}

/**
 * The formatter's language for a locale tag: the first of `localeChain(locale)` it has words for
 * (`zh-Hans-CN` → `zh`, `es-MX` → `es`, anything unknown → `en`).
 */
export function submissionLocaleOf(locale: unknown): SubmissionLocale {
  return resolveLocale(locale, registered);
}

/**
 * Formats validated values (see `validateSubmission`) as the user message text, in `locale`
 * (matched through `localeChain`: `zh-Hans` writes Chinese, `es-MX` Spanish, an unknown tag English). Values that do not
 * match their field are still shown (raw); only empty optional fields are left out.
 */
export function formatSubmission(
  model: NormalizedTaskSurfaceModel,
  values: TaskSurfaceValues,
  note: string | undefined,
  options: { locale: SubmissionLocale },
): string {
  const words = registered.get(submissionLocaleOf(options?.locale)) ?? SHIPPED.en!;
  const lines = [oneLine(model.title)];
  for (const field of model.fields) {
    const value = Object.prototype.hasOwnProperty.call(values, field.id) ? values[field.id] : undefined;
    if (isEmptyOptional(field, value)) continue;
    lines.push(...entry(oneLine(field.label), formatValue(field, value, words), words));
  }
  if (note !== undefined && /\S/.test(note)) lines.push(...entry(words.note, textValue(note), words));
  return lines.join('\n');
}

/** A field the person could leave empty and did: a blank text that is not required, an unselected choice. */
function isEmptyOptional(field: NormalizedField, value: unknown): boolean {
  if (field.kind === 'choice') return value === undefined || value === null;
  if (field.kind === 'text') return !field.required && (value === undefined || (typeof value === 'string' && !/\S/.test(value)));
  return false;
}

/** Names (title, labels) on one line, so a line break in a label cannot pass for a value. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** A value is one inline string after the label, or lines under it (indented two spaces). */
type Formatted = { inline: string } | { block: string[] };

function entry(label: string, value: Formatted, words: SubmissionWords): string[] {
  if ('inline' in value) return [`${label}${words.colon}${value.inline}`];
  return [`${label}${words.colon.trimEnd()}`, ...value.block.map((line) => `  ${line}`)];
}

function textValue(text: string): Formatted {
  const lines = text.split(/\r\n|\r|\n/);
  return lines.length === 1 ? { inline: text } : { block: lines };
}

function formatValue(field: NormalizedField, value: unknown, words: SubmissionWords): Formatted {
  switch (field.kind) {
    case 'toggle':
      return { inline: value === true ? words.yes : value === false ? words.no : raw(value) };
    case 'text': {
      if (typeof value !== 'string') return { inline: raw(value) };
      return /\S/.test(value) ? textValue(value) : { inline: words.empty };
    }
    case 'choice':
      return { inline: typeof value === 'string' ? optionName(field.options, value, words) : raw(value) };
    case 'multi-choice':
      if (!Array.isArray(value)) return { inline: raw(value) };
      if (value.length === 0) return { inline: words.none };
      return { inline: value.map((id) => optionName(field.options, id, words)).join(words.list) };
    case 'order':
      if (!Array.isArray(value)) return { inline: raw(value) };
      return { block: value.map((id, i) => `${i + 1}. ${optionName(field.options, id, words)}`) };
  }
}

/** An option by its label; when two options of the field share that label, the id disambiguates. */
function optionName(options: readonly TaskSurfaceOption[], id: unknown, words: SubmissionWords): string {
  const option = options.find((o) => o.id === id);
  if (option === undefined) return raw(id);
  const label = oneLine(option.label);
  const shared = options.some((o) => o !== option && oneLine(o.label) === label);
  return shared ? `${label}${words.open}${option.id}${words.close}` : label;
}

function raw(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
