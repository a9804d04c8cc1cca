import type { TemplateResult } from 'lit';
import { lazyModule, type LazyModule } from '../shared/lazy.js';
import type { JsonObject, JsonValue } from '../../protocol/index.js';
import { localeChain } from '../../protocol/locale.js';
import type { CardLang } from './strings.js';

/** Text by language tag (`en` required; `zh`, `es`, `pt-BR`… optional), read through `localeChain`. */
export type Localized = { en: string } & Partial<Record<string, string>>;

/** The text of `text` for `lang`: the first tag of its fallback chain it has (`es-MX` → `es` → `en`). */
export function localized(text: Localized, lang: string): string {
  for (const tag of localeChain(lang)) {
    const own = text[tag];
    if (own !== undefined) return own;
  }
  return text.en;
}

/** What a body sees when it renders. */
export interface CardBodyContext {
  /** The chrome language the card reads (a registered tag; see `localized`). */
  lang: CardLang;
  /** The tag dates and numbers are written in (the page's own, region included). */
  formatLang: string;
  /** The card's phase: `proposed`, `dismissed`, `replaced` or a recorded phase. */
  phase: string;
  /** Data of the latest recorded decision (`{}` when none). */
  data: JsonObject;
  /** Controls are disabled (an action is running, or the card is settled). */
  disabled: boolean;
  /** Sets the payload a verb sends (for example a chosen time). */
  setPayload(verb: string, payload: JsonValue | undefined): void;
}

/**
 * The browser half of a card kind: its own schema for `details` (checked before rendering), the
 * verbs it offers with their labels and the phases that offer them, the phases that still offer
 * Not now, labels for its phases and its own refusal reasons, and the body itself.
 */
export interface CardBody<D = unknown> {
  action: string;
  details: { safeParse(input: unknown): { success: true; data: D } | { success: false } };
  verbs: readonly { verb: string; label: Localized; phases: readonly string[]; primary?: boolean }[];
  dismissibleIn?: readonly string[];
  phases?: Record<string, Localized>;
  reasons?: Record<string, Localized>;
  render(details: D, ctx: CardBodyContext): TemplateResult;
}

const bodies = new Map<string, CardBody<never>>();
const loaders = new Map<string, LazyModule<CardBody<never>>>();
const listeners = new Set<() => void>();

/** Registers a kind's browser body; returns its disposer. Mounted cards re-render. */
export function registerCardBody<D>(body: CardBody<D>): () => void {
  bodies.set(body.action, body as unknown as CardBody<never>);
  for (const listener of listeners) listener();
  return () => {
    if (bodies.get(body.action) === (body as unknown)) bodies.delete(body.action);
    for (const listener of listeners) listener();
  };
}

/**
 * Registers a body that loads when a card of `action` first renders (a dynamic `import()`: its
 * own chunk in the drop-in bundle). Until it arrives the card shows its title and brief and a
 * loading line (if it fails to load: that it cannot be shown); `registerCardBody` wins. Returns its disposer.
 */
export function registerCardBodyLoader<D>(action: string, load: () => Promise<CardBody<D>>): () => void {
  const loader = lazyModule(async () => {
    const body = (await load()) as unknown as CardBody<never>;
    if (body.action !== action) throw new Error(`card body for "${action}" loaded a body for "${body.action}"`);
    return body;
  });
  loaders.set(action, loader);
  for (const listener of listeners) listener();
  return () => {
    if (loaders.get(action) === loader) loaders.delete(action);
    for (const listener of listeners) listener();
  };
}

export function cardBodyFor(action: string): CardBody<unknown> | undefined {
  return (bodies.get(action) ?? loaders.get(action)?.get()) as CardBody<unknown> | undefined;
}

/** Whether the body of `action` is registered to load and is on its way (not arrived, not failed). */
export function cardBodyLoading(action: string): boolean {
  const loader = loaders.get(action);
  return !bodies.has(action) && loader !== undefined && loader.get() === undefined && !loader.failed();
}

/** Calls `listener` whenever a body registers or unregisters. */
export function onCardBodiesChanged(listener: () => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}
