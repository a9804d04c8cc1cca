import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalLocale, localeChain, localeDirection, submissionLocaleOf } from '../../protocol/index.js';
import { parseClientRequest } from '../../protocol/wire.js';

/*
 * How a locale tag becomes the language a person reads: its canonical form, the fallback chain
 * (so `de-CH` with a calendar extension still writes German), the writing direction, and what a
 * client is told when it sends a tag the wire refuses.
 */

/** A well-formed tag of `length` characters (private-use subtags after `de`). */
const tagOf = (length: number): string => {
  const tag = `de-x-${'abcdefgh-'.repeat(4)}`.slice(0, length);
  assert.equal(tag.length, length);
  return tag;
};

describe('canonicalLocale', () => {
  it('writes a tag in its canonical case, and refuses what is not a tag string', () => {
    assert.equal(canonicalLocale('ZH-hant-tw'), 'zh-Hant-TW');
    for (const tag of [['de'], new Intl.Locale('de'), 42, null, undefined, '', 'not a tag', 'x-private']) {
      assert.equal(canonicalLocale(tag), undefined, String(tag));
    }
  });

  it('takes a tag of up to 35 characters, as BCP 47 advises, and no longer', () => {
    assert.equal(canonicalLocale(tagOf(35)), tagOf(35));
    assert.equal(canonicalLocale(tagOf(36)), undefined);
    assert.equal(submissionLocaleOf(tagOf(35)), 'de');
    assert.equal(submissionLocaleOf(tagOf(36)), 'en');
  });
});

describe('localeChain', () => {
  it('drops subtags from the end, most specific first, and ends in English once', () => {
    const chains: [unknown, string[]][] = [
      ['zh-Hant-TW', ['zh-Hant-TW', 'zh-Hant', 'zh', 'en']],
      ['de-CH', ['de-CH', 'de', 'en']],
      ['de', ['de', 'en']],
      ['en-GB', ['en-GB', 'en']],
      ['en', ['en']],
      ['not a tag', ['en']],
      [undefined, ['en']],
    ];
    for (const [tag, chain] of chains) assert.deepStrictEqual(localeChain(tag), chain, String(tag));
  });

  it('drops extensions and private use together, at their first singleton', () => {
    assert.deepStrictEqual(localeChain('de-DE-u-co-phonebk'), ['de-DE-u-co-phonebk', 'de-DE', 'de', 'en']);
    assert.deepStrictEqual(localeChain('ar-EG-u-nu-latn-x-demo'), ['ar-EG-u-nu-latn-x-demo', 'ar-EG', 'ar', 'en']);
    assert.deepStrictEqual(localeChain('ja-x-kana'), ['ja-x-kana', 'ja', 'en']);
    assert.equal(submissionLocaleOf('es-419-u-ca-gregory'), 'es');
  });
});

describe('localeDirection', () => {
  it('reads the shipped languages: Arabic right to left, the others left to right', () => {
    const directions = ['en', 'zh', 'es', 'de', 'ja', 'ar'].map((tag) => localeDirection(tag));
    assert.deepStrictEqual(directions, ['ltr', 'ltr', 'ltr', 'ltr', 'ltr', 'rtl']);
  });

  it('reads every right-to-left script, named or likely', () => {
    const rtl = [
      'ff-Adlm',
      'ar-EG',
      'he',
      'fa',
      'ur',
      'az-Arab',
      'myz-Mand',
      'men-Mend',
      'nqo',
      'rhg-Rohg',
      'smp-Samr',
      'syr',
      'dv',
      'ku-Yezi',
    ];
    for (const tag of rtl) assert.equal(localeDirection(tag), 'rtl', tag);
  });

  it('reads a left-to-right script, and anything that is not a tag, left to right', () => {
    for (const tag of ['az', 'az-Latn', 'ff', 'ku', 'zh-Hant-TW', 'und', 'not a tag', '', undefined, 42]) {
      assert.equal(localeDirection(tag), 'ltr', String(tag));
    }
  });
});

describe('a locale the wire refuses, as the client is told', () => {
  const open = (locale: string) => parseClientRequest(JSON.stringify({ type: 'session.open', id: 'r1', params: { locale } }));
  const refusal = (message: string) => ({
    ok: false,
    error: { type: 'error', id: 'r1', code: 'bad-request', message: `invalid session.open request: ${message}` },
  });
  const WELL_FORMED = 'params.locale: locale must be a well-formed BCP 47 language tag, like "en" or "zh-Hant-TW"';

  it('is not a tag', () => {
    assert.deepStrictEqual(open('not a tag'), refusal(WELL_FORMED));
  });

  it('is longer than 35 characters', () => {
    assert.deepStrictEqual(open(tagOf(36)), refusal(`params.locale: locale must be a BCP 47 tag of at most 35 characters; ${WELL_FORMED}`));
    assert.deepStrictEqual(open(tagOf(35)), {
      ok: true,
      request: { type: 'session.open', id: 'r1', params: { locale: tagOf(35) } },
    });
  });
});
