import type { TaskSurfaceOption, TaskSurfaceValues } from './model.js';
import type { NormalizedField, NormalizedTaskSurfaceModel } from './normalized.js';

/*
 * The readable text of a submission: it becomes the visible user message and the model's input.
 * Title, then one entry per answered field (label and value), then the note. An optional field
 * left empty (a blank text that is not required, a choice with no selection) is left out of the
 * text; the structured values on the message keep it. Display blocks are never repeated; every
 * other submitted value is kept; the same input always gives the same text.
 */

/** Languages the submission text is written in. */
export type SubmissionLocale = 'en' | 'zh';

const WORDS = {
  en: { colon: ': ', yes: 'yes', no: 'no', list: ', ', empty: '(empty)', none: '(none)', note: 'Note', open: ' (', close: ')' },
  zh: { colon: '：', yes: '是', no: '否', list: '、', empty: '（空）', none: '（无）', note: '备注', open: '（', close: '）' },
} as const;

type Words = (typeof WORDS)[SubmissionLocale];

/** The formatter's language for a locale tag: `zh` and any `zh-…` tag write Chinese, anything else English. */
export function submissionLocaleOf(locale: unknown): SubmissionLocale {
  return typeof locale === 'string' && /^zh(?:-|$)/i.test(locale) ? 'zh' : 'en';
}

/**
 * Formats validated values (see `validateSubmission`) as the user message text, in `locale`
 * (`zh-Hans` and other `zh-…` tags count as `zh`; an unknown one as `en`). Values that do not
 * match their field are still shown (raw); only empty optional fields are left out.
 */
export function formatSubmission(
  model: NormalizedTaskSurfaceModel,
  values: TaskSurfaceValues,
  note: string | undefined,
  options: { locale: SubmissionLocale },
): string {
  const words = WORDS[submissionLocaleOf(options?.locale)];
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

function entry(label: string, value: Formatted, words: Words): string[] {
  if ('inline' in value) return [`${label}${words.colon}${value.inline}`];
  return [`${label}${words.colon.trimEnd()}`, ...value.block.map((line) => `  ${line}`)];
}

function textValue(text: string): Formatted {
  const lines = text.split(/\r\n|\r|\n/);
  return lines.length === 1 ? { inline: text } : { block: lines };
}

function formatValue(field: NormalizedField, value: unknown, words: Words): Formatted {
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
function optionName(options: readonly TaskSurfaceOption[], id: unknown, words: Words): string {
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
