import { canonicalLocale, localeChain, localeDirection } from '../../protocol/locale.js';
import { registerSubmissionWords as registerWords } from '../../protocol/format.js';
import { lazyModule, type LazyModule } from '../shared/lazy.js';
import { en, type Strings } from './en.js';

/*
 * The registry of chrome languages. A table is checked against English key by key: a key it lacks
 * (or gives with the wrong type) is taken from the next tag of its fallback chain, and reported by
 * one console warning when the table registers.
 */

const tables = new Map<string, Strings>([['en', en]]);
/** Shipped tables that load on first use (their own chunk in the drop-in bundle). */
const lazyTables = new Map<string, LazyModule<Strings>>();
const merged = new Map<string, Strings>();
const listeners = new Set<() => void>();

/** The paths of `en` that `table` lacks or gives with another type (`dock.addNote`, `card.reason.closing`). */
export function missingKeys(table: unknown, reference: unknown = en, prefix = ''): string[] {
  if (reference === null || typeof reference !== 'object') return [];
  const own = table !== null && typeof table === 'object' ? (table as Record<string, unknown>) : {};
  return Object.entries(reference).flatMap(([key, value]) => {
    const path = prefix + key;
    const mine = Object.hasOwn(own, key) ? own[key] : undefined;
    if (typeof mine !== typeof value || mine === null) return [path];
    return value !== null && typeof value === 'object' ? missingKeys(mine, value, `${path}.`) : [];
  });
}

/** `table` with every key it lacks taken from `fallback` (nested objects merged key by key). */
function withFallback<T>(table: unknown, fallback: T): T {
  if (fallback === null || typeof fallback !== 'object')
    return typeof table === typeof fallback && table !== null ? (table as T) : fallback;
  const own = table !== null && typeof table === 'object' ? (table as Record<string, unknown>) : {};
  const out: Record<string, unknown> = { ...own };
  for (const [key, value] of Object.entries(fallback)) out[key] = withFallback(Object.hasOwn(own, key) ? own[key] : undefined, value);
  return out as T;
}

/**
 * Adds (or replaces) the chrome of the language `tag` (a BCP 47 tag: `fr`, `zh-Hant`, `pt-BR`). The
 * table is typed against English, so a missing key is a type error; at run time a key it still
 * lacks falls back along `localeChain(tag)` (`zh-Hant-TW` → `zh-Hant` → `zh` → `en`), with one
 * console warning. Its `submission` words also teach the submission formatter the language (a host
 * in another process calls `registerSubmissionWords` itself). Mounted elements re-render.
 * Returns a disposer that restores what was there before.
 */
export function registerLocale(tag: string, table: Strings): () => void {
  const key = canonicalLocale(tag);
  if (key === undefined)
    throw new RangeError(`registerLocale: "${tag}" is not a well-formed BCP 47 language tag, like "fr" or "zh-Hant-TW"`);
  if (key === 'en' && missingKeys(table).length > 0)
    throw new TypeError('registerLocale: the "en" table is every fallback\'s last step, so it must be complete');
  const missing = missingKeys(table);
  if (missing.length > 0)
    console.warn(
      `task-surface: the "${key}" locale has no ${missing.map((k) => `"${k}"`).join(', ')}; those fall back to ${localeChain(key).slice(1).join(' → ')}.`,
    );
  const before = tables.get(key);
  tables.set(key, table);
  const words = withFallback(table.submission, en.submission);
  const disposeWords = registerWords(key, words);
  changed();
  return () => {
    if (tables.get(key) !== table) return;
    disposeWords();
    if (before === undefined) tables.delete(key);
    else tables.set(key, before);
    changed();
  };
}

function changed(): void {
  merged.clear();
  for (const listener of listeners) listener();
}

/** Calls `listener` whenever a locale registers or is removed; returns the unsubscriber. */
export function onLocalesChanged(listener: () => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/** The registered chrome languages (`en` first), loaded or not. */
export function registeredLocales(): string[] {
  return [...new Set([...tables.keys(), ...lazyTables.keys()])];
}

/**
 * The registered tag whose table `lang` reads: the first of its fallback chain that is registered
 * and loaded. A shipped table that loads on first use starts loading here; until it arrives (and
 * if it cannot) the chain goes on, and mounted elements render again when it lands.
 */
export function langOf(lang: string | undefined | null): string {
  for (const tag of localeChain(lang)) {
    if (tables.has(tag)) return tag;
    lazyTables.get(tag)?.get();
  }
  return 'en';
}

/** Resolves once the tables `lang` may read are loaded (a shipped one loads on first use); then `strings(lang)` is its own. */
export async function loadLocale(lang: string | undefined | null): Promise<void> {
  for (const tag of localeChain(lang)) {
    if (tables.has(tag)) return;
    const lazy = lazyTables.get(tag);
    if (lazy) return void (await lazy.load().catch(() => undefined));
  }
}

/**
 * The `lang` attribute the elements write for `lang`: the language of the table they read (`es-MX`
 * reads `es`; an unknown `fr` reads English, so `en`). The shipped `zh` table is Simplified Chinese: `zh-Hans`.
 */
export function langTag(lang: string | undefined | null): string {
  const tag = langOf(lang);
  return tag === 'zh' && tables.get('zh') === shippedZh ? 'zh-Hans' : tag;
}

/** The tag numbers and dates are written in: `lang` itself (`es-MX`, `en-GB`) when its table is in its language, else the table's tag. */
export function formatTag(lang: string | undefined | null): string {
  const tag = langOf(lang);
  const requested = canonicalLocale(lang);
  return requested !== undefined && requested.split('-')[0] === tag.split('-')[0] ? requested : tag;
}

/** The writing direction of the chrome `lang` reads (`rtl` for Arabic). */
export function dirOf(lang: string | undefined | null): 'ltr' | 'rtl' {
  return localeDirection(langTag(lang));
}

/** The chrome strings `lang` reads, every key filled along its fallback chain. */
export function strings(lang: string | undefined | null): Strings {
  const tag = langOf(lang);
  let table = merged.get(tag);
  if (!table) {
    const chain = localeChain(tag).filter((t) => tables.has(t)); // `tag` is loaded; so may be the rest
    table = chain.reduceRight<Strings>((fallback, t) => withFallback(tables.get(t), fallback), en);
    merged.set(tag, table);
  }
  return table;
}

let shippedZh: Strings | undefined;
/** Registers a shipped table that loads on first use; a product's own `registerLocale` of the tag wins. */
export function registerShippedLazy(tag: string, load: () => Promise<Strings>, options: { simplifiedChinese?: boolean } = {}): void {
  lazyTables.set(
    tag,
    lazyModule(async () => {
      const table = await load();
      if (options.simplifiedChinese) shippedZh = table;
      if (!tables.has(tag)) tables.set(tag, table);
      changed();
      return table;
    }),
  );
}
