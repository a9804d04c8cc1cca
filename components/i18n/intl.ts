/*
 * Numbers and plurals through `Intl`, for translation tables: a table formats the counts it shows
 * with its own language's rules instead of pasting digits into English-shaped sentences.
 */

/** Plural forms of one message, by `Intl.PluralRules` category; `#` stands for the formatted number. */
export type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

const numberFormats = new Map<string, Intl.NumberFormat>();
const pluralRules = new Map<string, Intl.PluralRules>();

/** `value` written with the digits and grouping of `tag` (`1,234` in en, `1.234` in de, `١٬٢٣٤` in ar). */
export function formatNumber(value: number, tag: string): string {
  let format = numberFormats.get(tag);
  if (!format) numberFormats.set(tag, (format = new Intl.NumberFormat(tag, { maximumFractionDigits: 20 })));
  return format.format(value);
}

/** The form of `forms` that `count` takes in `tag` (`one`, `few`, `many`… then `other`), with `#` replaced by the number. */
export function plural(tag: string, count: number, forms: PluralForms): string {
  let rules = pluralRules.get(tag);
  if (!rules) pluralRules.set(tag, (rules = new Intl.PluralRules(tag)));
  // An exact zero reads better as its own form where a table gives one (`zero` is Arabic's own category too).
  const form = (count === 0 ? forms.zero : undefined) ?? forms[rules.select(count)] ?? forms.other;
  return form.replaceAll('#', formatNumber(count, tag));
}

/** Number and plural helpers bound to one tag: what a table module uses. */
export function intlFor(tag: string): { n: (value: number) => string; p: (count: number, forms: PluralForms) => string } {
  return { n: (value) => formatNumber(value, tag), p: (count, forms) => plural(tag, count, forms) };
}
