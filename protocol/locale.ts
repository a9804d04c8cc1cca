/*
 * Locale tags, shared by the elements' chrome and the submission text: one fallback rule for both,
 * so the panel a person reads and the message their answer becomes are in the same language.
 */

/** A BCP 47 language tag (`en`, `zh-Hant-TW`, `ar`); at most 35 characters, as BCP 47 advises. */
export type LocaleTag = string;

/** The last tag of every fallback chain: English is always complete. */
export const DEFAULT_LOCALE = 'en';

/** The canonical form of `tag` (`zh-hant-tw` → `zh-Hant-TW`), or `undefined` when it is not a well-formed tag. */
export function canonicalLocale(tag: unknown): LocaleTag | undefined {
  if (typeof tag !== 'string' || tag.length === 0 || tag.length > 35) return undefined;
  try {
    return Intl.getCanonicalLocales(tag)[0];
  } catch {
    return undefined;
  }
}

/**
 * The tags to try for `tag`, most specific first, by dropping subtags from the end (extensions and
 * private use first, together): `zh-Hant-TW` → `zh-Hant` → `zh` → `en`.
 * A tag that is not well formed reads as `en`.
 */
export function localeChain(tag: unknown): LocaleTag[] {
  const canonical = canonicalLocale(tag);
  const chain: LocaleTag[] = [];
  if (canonical !== undefined) {
    chain.push(canonical);
    // `de-DE-u-co-phonebk` → `de-DE`: extensions and private use go together, at their first singleton.
    const parts = canonical.split('-');
    const singleton = parts.findIndex((part, i) => i > 0 && part.length === 1);
    if (singleton > 0) parts.length = singleton;
    for (; parts.length > 0; parts.pop()) {
      const tag = parts.join('-');
      if (!chain.includes(tag)) chain.push(tag);
    }
  }
  if (!chain.includes(DEFAULT_LOCALE)) chain.push(DEFAULT_LOCALE);
  return chain;
}

/** The first tag of `localeChain(tag)` that `known` holds (always at least `en` when `known` holds it). */
export function resolveLocale(tag: unknown, known: { has(tag: string): boolean }): LocaleTag {
  return localeChain(tag).find((t) => known.has(t)) ?? DEFAULT_LOCALE;
}

const RTL_SCRIPTS = new Set(['Adlm', 'Arab', 'Hebr', 'Mand', 'Mend', 'Nkoo', 'Rohg', 'Samr', 'Syrc', 'Thaa', 'Yezi']);

/** The writing direction of `tag`, from its (likely) script: `ar`, `he`, `fa`, `ur`, `az-Arab` read right to left. */
export function localeDirection(tag: unknown): 'ltr' | 'rtl' {
  const canonical = canonicalLocale(tag);
  if (canonical === undefined) return 'ltr';
  try {
    const script = new Intl.Locale(canonical).maximize().script;
    return script !== undefined && RTL_SCRIPTS.has(script) ? 'rtl' : 'ltr';
  } catch {
    return 'ltr';
  }
}
