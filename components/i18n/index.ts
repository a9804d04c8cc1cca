import { en, type Strings } from './en.js';
import { zh } from './zh.js';

export type Lang = 'en' | 'zh';
export type { Strings };

const tables: Record<Lang, Strings> = { en, zh };

/** The chrome strings of `lang`; anything but `zh` reads as English. */
export function strings(lang: string | undefined): Strings {
  return lang === 'zh' ? tables.zh : tables.en;
}
