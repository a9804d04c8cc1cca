/*
 * What the scenarios show and answer: a panel with every kind of answer the submission text writes
 * (a choice, a required text, an optional text left empty, a toggle, a note), a card, and the
 * languages every scenario runs in.
 */
import { createMemoryPageStore, createPageKind } from '../host/actionCards/kinds/createPage.js';
import type { CardKind } from '../host/types.js';
import { registerSubmissionWords, SUBMISSION_WORDS, type SubmissionWords } from '../protocol/format.js';
import type { JsonValue } from '../protocol/json.js';
import type { ModelCall } from './driver.js';

/** The shipped languages. */
export const SHIPPED_LOCALES = ['en', 'zh', 'es', 'de', 'ja', 'ar'] as const;

/** A language no release ships: a product registers it itself (`registerLocale`, or `registerSubmissionWords` on a server). */
export const PRODUCT_LOCALE = 'fr';
export const PRODUCT_WORDS: SubmissionWords = {
  colon: ' : ',
  yes: 'oui',
  no: 'non',
  list: ', ',
  empty: '(vide)',
  none: '(aucune)',
  note: 'Remarque',
  open: ' (',
  close: ')',
};

/** Every language a scenario runs in: the shipped ones and the product's own. */
export const LOCALES: readonly string[] = [...SHIPPED_LOCALES, PRODUCT_LOCALE];

/**
 * Teaches the submission text the product's language in this process (a page's `registerLocale`
 * does it for the page; a server calls this). Returns the disposer.
 */
export function registerProductLocale(): () => void {
  if (SUBMISSION_WORDS[PRODUCT_LOCALE]) throw new Error(`${PRODUCT_LOCALE} is shipped now: pick another product language for the kit`);
  return registerSubmissionWords(PRODUCT_LOCALE, PRODUCT_WORDS);
}

export const PANEL_TITLE = 'Plan the trip';

/** The panel every scenario shows (`title` to tell two apart). */
export const panelModel = (title = PANEL_TITLE): JsonValue => ({
  version: 1,
  title,
  sections: [{ id: 'intro', blocks: [{ kind: 'markdown', text: 'Pick a destination and say why.' }] }],
  fields: [
    {
      kind: 'choice',
      id: 'place',
      label: 'Destination',
      options: [
        { id: 'coast', label: 'The coast' },
        { id: 'hills', label: 'The hills' },
      ],
    },
    { kind: 'text', id: 'why', label: 'Why', required: true },
    { kind: 'text', id: 'extra', label: 'Anything else' },
    { kind: 'toggle', id: 'train', label: 'By train' },
  ],
  submit: { label: 'Send' },
});

/** An answer with a toggle and an empty optional field (the note is the scenario's). */
export const answer = (why = 'quiet'): Record<string, JsonValue> => ({ place: 'hills', why, extra: '', train: true });

export const show = (title?: string): ModelCall => ({ tool: 'show_task_surface', input: { model: panelModel(title) } });

export const CARD_SKILL = 'create-page';
export const loadSkill = (): ModelCall => ({ tool: 'skill', input: { name: CARD_SKILL } });
export const propose = (title = 'Save the plan as a page'): ModelCall => ({
  tool: 'propose_action',
  input: {
    action: 'create_page',
    title,
    brief: 'Keeps the trip plan as a page you can reopen.',
    details: { pageTitle: 'Trip plan', sections: ['Where', 'Why'] },
  },
});

/** The card kinds of one conversation (its own page store). */
export const cardKinds = (): CardKind[] => [createPageKind({ pages: createMemoryPageStore({ limit: 50 }) })];
