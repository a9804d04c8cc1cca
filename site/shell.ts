/*
 * The look every live example takes: the chrome language (each shipped locale) and the theme. Kept
 * in localStorage (`docs.lang`, `docs.theme`) so it follows the reader from page to page; the
 * controls sit in the header of every page. Until the reader picks a theme, the system's light or
 * dark setting (`prefers-color-scheme`) chooses it.
 */
import { html, render } from 'lit';
import { SHIPPED_LOCALES } from '../components/i18n/index.js';

export type Theme = 'light' | 'dark';
export interface Look {
  lang: string;
  theme: Theme;
}

/** Each shipped locale by its own name, as a language switch lists them. */
export const LANGUAGE_NAMES: Record<(typeof SHIPPED_LOCALES)[number], string> = {
  en: 'English',
  zh: '中文',
  es: 'Español',
  de: 'Deutsch',
  ja: '日本語',
  ar: 'العربية',
};

const stored = (key: string) => {
  try {
    return localStorage.getItem(key);
  } catch {
    return null; // storage blocked: the defaults
  }
};

/** A theme the reader chose, else the system's. */
function themeOf(chosen: string | null): Theme {
  if (chosen === 'light' || chosen === 'dark') return chosen;
  return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

const look: Look = {
  lang: (SHIPPED_LOCALES as readonly string[]).includes(stored('docs.lang') ?? '') ? stored('docs.lang')! : 'en',
  theme: themeOf(stored('docs.theme')),
};
const listeners = new Set<(look: Look) => void>();

/** The current look. */
export const currentLook = (): Look => ({ ...look });

/** Calls `listener` on every change of the look; returns its remover. */
export function onLook(listener: (look: Look) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Changes the look (and remembers what changed: a theme never picked still follows the system's). */
export function setLook(change: Partial<Look>): void {
  Object.assign(look, change);
  try {
    if (change.lang !== undefined) localStorage.setItem('docs.lang', change.lang);
    if (change.theme !== undefined) localStorage.setItem('docs.theme', change.theme);
  } catch {
    /* not remembered */
  }
  apply();
  for (const listener of listeners) listener(currentLook());
}

function apply() {
  document.documentElement.dataset.theme = look.theme;
  const controls = document.getElementById('controls');
  if (!controls) return;
  render(
    html`<label class="lang"
        >Examples in
        <select @change=${(e: Event) => setLook({ lang: (e.target as HTMLSelectElement).value })}>
          ${SHIPPED_LOCALES.map((tag) => html`<option value=${tag} lang=${tag} ?selected=${tag === look.lang}>${LANGUAGE_NAMES[tag]}</option>`)}
        </select></label
      >
      <div class="switch" role="group" aria-label="Theme">
        <button type="button" aria-pressed=${look.theme === 'light'} @click=${() => setLook({ theme: 'light' })}>Light</button>
        <button type="button" aria-pressed=${look.theme === 'dark'} @click=${() => setLook({ theme: 'dark' })}>Dark</button>
      </div>`,
    controls,
  );
}

/** Puts the language and theme controls into the page's header. */
export function mountControls(): void {
  apply();
}
