import { en, type Strings } from './en.js';
import { zh } from './zh.js';

export type Lang = 'en' | 'zh';
export type { Strings };

const tables: Record<Lang, Strings> = { en, zh };

/** The table language of a `lang` value: `zh` and any `zh-…` tag (`zh-Hans`, `zh-CN`) read as `zh`, anything else as `en`. */
export function langOf(lang: string | undefined | null): Lang {
  return typeof lang === 'string' && /^zh(?:-|$)/i.test(lang) ? 'zh' : 'en';
}

/** The BCP 47 tag elements write into `lang` attributes: `en`, or `zh-Hans` (Simplified Chinese). */
export function langTag(lang: string | undefined | null): 'en' | 'zh-Hans' {
  return langOf(lang) === 'zh' ? 'zh-Hans' : 'en';
}

/** The chrome strings of `lang` (see `langOf`). */
export function strings(lang: string | undefined): Strings {
  return tables[langOf(lang)];
}
