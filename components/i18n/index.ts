import { registerShippedLazy } from './registry.js';

export type { Strings } from './en.js';
export { formatNumber, plural, intlFor, type PluralForms } from './intl.js';
export {
  registerLocale,
  registeredLocales,
  loadLocale,
  onLocalesChanged,
  langOf,
  langTag,
  formatTag,
  dirOf,
  strings,
  missingKeys,
} from './registry.js';

/** A chrome language: any BCP 47 tag; it reads the table of the first registered tag of its fallback chain. */
export type Lang = string;

/** The languages that ship with the package, in the order a language switch lists them. */
export const SHIPPED_LOCALES = ['en', 'zh', 'es', 'de', 'ja', 'ar'] as const;

// English is in the entry; every other language arrives as its own chunk when a page first shows it.
registerShippedLazy('zh', () => import('./zh.js').then((m) => m.zh), { simplifiedChinese: true });
registerShippedLazy('es', () => import('./es.js').then((m) => m.es));
registerShippedLazy('de', () => import('./de.js').then((m) => m.de));
registerShippedLazy('ja', () => import('./ja.js').then((m) => m.ja));
registerShippedLazy('ar', () => import('./ar.js').then((m) => m.ar));
