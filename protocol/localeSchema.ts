import * as z from 'zod/mini';
import { canonicalLocale } from './locale.js';

/** A locale on the wire: a well-formed BCP 47 tag (`en`, `zh-Hant-TW`); matched through `localeChain`. */
export const LocaleTagSchema = z.string().check(
  z.maxLength(35, 'locale must be a BCP 47 tag of at most 35 characters'),
  z.refine((tag) => canonicalLocale(tag) !== undefined, 'locale must be a well-formed BCP 47 language tag, like "en" or "zh-Hant-TW"'),
);
