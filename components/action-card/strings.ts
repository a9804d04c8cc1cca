import type { ActRefusalReason } from '../../protocol/index.js';
import { strings, type Lang, type Strings } from '../i18n/index.js';

/*
 * The action card's chrome lives in the shared translation tables (`components/i18n/en.ts`, `zh.ts`,
 * key `card`); this module only names it for the card and its bodies.
 */

/** The card's chrome languages: the same as every element's. */
export type CardLang = Lang;

export type CardStrings = Strings['card'];

/** The service's own refusal reasons, named by the table; anything else reads as `unavailable`. */
export type KnownReason = keyof CardStrings['reason'];

/** The card chrome of `lang`; anything but `zh` reads as English. */
export function cardStrings(lang: string | undefined): CardStrings {
  return strings(lang).card;
}

/** Whether `reason` is one the service defines (and the table names). */
export function isKnownReason(reason: ActRefusalReason): reason is KnownReason {
  return Object.hasOwn(cardStrings('en').reason, reason);
}
