import type { TaskSurfaceOption, TaskSurfaceValues } from './model.js';
import type { NormalizedField, NormalizedTaskSurfaceModel } from './normalized.js';

/*
 * The readable text of a submission: it becomes the visible user message and the model's input.
 * Title, then one entry per field (label and value), then the note. Display blocks are never
 * repeated; every submitted value is kept; the same input always gives the same text.
 */

/** Languages the submission text is written in. */
export type SubmissionLocale = 'en' | 'zh';

const WORDS = {
  en: { colon: ': ', yes: 'yes', no: 'no', list: ', ', empty: '(empty)', none: '(none)', unselected: '(no selection)', note: 'Note' },
  zh: { colon: '：', yes: '是', no: '否', list: '、', empty: '（空）', none: '（无）', unselected: '（未选择）', note: '备注' },
} as const;

type Words = (typeof WORDS)[SubmissionLocale];

/**
 * Formats validated values (see `validateSubmission`) as the user message text. Values that do not
 * match their field are still shown (raw), so nothing submitted is ever dropped.
 */
export function formatSubmission(
  model: NormalizedTaskSurfaceModel,
  values: TaskSurfaceValues,
  note: string | undefined,
  options: { locale: SubmissionLocale },
): string {
  const words = WORDS[options.locale] ?? WORDS.en;
  const lines = [oneLine(model.title)];
  for (const field of model.fields) {
    const value = Object.prototype.hasOwnProperty.call(values, field.id) ? values[field.id] : undefined;
    lines.push(...entry(oneLine(field.label), formatValue(field, value, words), words));
  }
  if (note !== undefined && /\S/.test(note)) lines.push(...entry(words.note, textValue(note), words));
  return lines.join('\n');
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
      if (value === undefined) return { inline: words.unselected };
      return { inline: typeof value === 'string' ? optionName(field.options, value) : raw(value) };
    case 'multi-choice':
      if (!Array.isArray(value)) return { inline: raw(value) };
      if (value.length === 0) return { inline: words.none };
      return { inline: value.map((id) => optionName(field.options, id)).join(words.list) };
    case 'order':
      if (!Array.isArray(value)) return { inline: raw(value) };
      return { block: value.map((id, i) => `${i + 1}. ${optionName(field.options, id)}`) };
  }
}

/** An option by its label; when two options of the field share that label, the id disambiguates. */
function optionName(options: readonly TaskSurfaceOption[], id: unknown): string {
  const option = options.find((o) => o.id === id);
  if (option === undefined) return raw(id);
  const label = oneLine(option.label);
  const shared = options.some((o) => o !== option && oneLine(o.label) === label);
  return shared ? `${label} (${option.id})` : label;
}

function raw(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
