import assert from 'node:assert/strict';
import { afterEach, before, describe, it, mock } from 'node:test';
import { en, type Strings } from '../../components/i18n/en.js';
import {
  SHIPPED_LOCALES,
  dirOf,
  formatTag,
  langOf,
  langTag,
  loadLocale,
  missingKeys,
  plural,
  registerLocale,
  registeredLocales,
  strings,
} from '../../components/i18n/index.js';
import { formatSubmission, localeChain, localeDirection, parseTaskSurfaceModel, submissionLocaleOf } from '../../protocol/index.js';

/** Every string a table can produce (functions called with sample arguments). */
function texts(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value === 'function') return [1, 2, 5, 21].flatMap((k) => texts((value as (...a: unknown[]) => unknown)(k, k + 1, k + 2)));
  if (value && typeof value === 'object') return Object.values(value).flatMap(texts);
  return [];
}

/** Words a language writes exactly as English does. */
const COGNATES: Record<string, string[]> = { de: ['Information', 'Details', 'Status', 'Status:'] };

const disposers: (() => void)[] = [];
before(async () => {
  // Spanish, German, Japanese and Arabic load on first use (their own chunk): load them all first.
  for (const tag of SHIPPED_LOCALES) await loadLocale(tag);
});
afterEach(() => {
  for (const dispose of disposers.splice(0)) dispose();
  mock.restoreAll();
});

describe('shipped locales', () => {
  it('are en, zh, es, de, ja and ar, each registered', () => {
    assert.deepEqual([...SHIPPED_LOCALES], ['en', 'zh', 'es', 'de', 'ja', 'ar']);
    for (const tag of SHIPPED_LOCALES) assert.ok(registeredLocales().includes(tag), tag);
  });

  it('have every key of the English table, each with its type, and translate it', () => {
    for (const tag of SHIPPED_LOCALES) {
      const table = strings(tag);
      assert.deepEqual(missingKeys(table), [], tag);
      if (tag === 'en') continue;
      // A table that pasted English would read "Loading the task…": every shipped table has its own words.
      const same = texts(table).filter((t) => texts(en).includes(t) && /[a-z]{4}/.test(t) && !(COGNATES[tag] ?? []).includes(t));
      assert.deepEqual(same, [], `${tag} repeats English: ${same.join(' | ')}`);
    }
  });

  it('leave no placeholder unformatted and write counts with their own digits', () => {
    for (const tag of SHIPPED_LOCALES) for (const t of texts(strings(tag))) assert.doesNotMatch(t, /#|\$\{|undefined|NaN/, `${tag}: ${t}`);
    assert.equal(strings('de').showAllRows(1234), 'Alle 1.234 Zeilen anzeigen');
    const ar = new Intl.NumberFormat('ar');
    assert.equal(strings('ar').showingLines(3, 40), `الأسطر المعروضة: ${ar.format(3)} من ${ar.format(40)}`);
    assert.equal(strings('ja').tableRegion(1200), '表、1,200 行');
  });

  it('choose plural forms through Intl.PluralRules', () => {
    assert.equal(strings('en').tableRegion(1), 'Table, 1 row');
    assert.equal(strings('en').tableRegion(2), 'Table, 2 rows');
    assert.equal(strings('es').showMoreLines(1), 'Mostrar 1 línea más');
    assert.equal(strings('ar').tableRegion(2), 'جدول، صفّان');
    assert.equal(strings('ar').tableRegion(3), `جدول، ${new Intl.NumberFormat('ar').format(3)} صفوف`);
    assert.equal(strings('ar').tableRegion(11), `جدول، ${new Intl.NumberFormat('ar').format(11)} صفًّا`);
    assert.equal(plural('ru', 5, { one: '# файл', few: '# файла', many: '# файлов', other: '# файла' }), '5 файлов');
  });

  it('give Arabic right to left and the others left to right', () => {
    assert.equal(dirOf('ar'), 'rtl');
    assert.equal(dirOf('ar-EG'), 'rtl');
    for (const tag of ['en', 'zh', 'es', 'de', 'ja', 'fa']) assert.equal(dirOf(tag), 'ltr', tag); // fa is not registered: English chrome
    assert.equal(localeDirection('he'), 'rtl');
    assert.equal(localeDirection('az-Arab'), 'rtl');
    assert.equal(localeDirection('not a tag'), 'ltr');
  });
});

describe('locale fallback', () => {
  it('walks a BCP 47 chain from the most specific tag to English', () => {
    assert.deepEqual(localeChain('zh-Hant-TW'), ['zh-Hant-TW', 'zh-Hant', 'zh', 'en']);
    assert.deepEqual(localeChain('zh-hant-tw'), ['zh-Hant-TW', 'zh-Hant', 'zh', 'en']);
    assert.deepEqual(localeChain('de-DE-u-co-phonebk'), ['de-DE-u-co-phonebk', 'de-DE', 'de', 'en']);
    assert.deepEqual(localeChain('en-GB'), ['en-GB', 'en']);
    assert.deepEqual(localeChain('???'), ['en']);
    assert.deepEqual(localeChain(undefined), ['en']);
  });

  it('reads the first registered tag of the chain', () => {
    assert.equal(langOf('zh-Hant-TW'), 'zh');
    assert.equal(langOf('es-MX'), 'es');
    assert.equal(langOf('fr'), 'en');
    assert.equal(langTag('zh-CN'), 'zh-Hans');
    assert.equal(langTag('es-MX'), 'es');
    assert.equal(formatTag('es-MX'), 'es-MX');
    assert.equal(formatTag('fr-FR'), 'en');
    const hant = { ...strings('zh'), dismiss: '關閉任務' };
    disposers.push(registerLocale('zh-Hant', hant));
    assert.equal(langOf('zh-Hant-TW'), 'zh-Hant');
    assert.equal(strings('zh-Hant-TW').dismiss, '關閉任務');
    assert.equal(strings('zh-Hans').dismiss, strings('zh').dismiss);
  });
});

describe('registerLocale', () => {
  it('makes a missing key a type error, and at run time falls back key by key with one warning', () => {
    const warn = mock.method(console, 'warn', () => {});
    const { dock, ...rest } = strings('es');
    const partial = { ...rest, dock: { ...dock, addNote: undefined } };
    // @ts-expect-error -- a table without `dismiss` does not type-check
    const withoutDismiss: Strings = { ...rest, dock, dismiss: undefined };
    void withoutDismiss;
    // @ts-expect-error -- nor one whose nested `dock.addNote` is missing
    disposers.push(registerLocale('es-419', partial));
    assert.equal(warn.mock.callCount(), 1);
    assert.match(String(warn.mock.calls[0]!.arguments[0]), /"es-419".*"dock\.addNote".*es → en/);
    assert.equal(strings('es-419').dock.addNote, strings('es').dock.addNote);
    assert.equal(strings('es-419').dock.noteLabel, strings('es').dock.noteLabel);
    strings('es-419');
    void strings('es-419').dock.addNote;
    assert.equal(warn.mock.callCount(), 1);
  });

  it('refuses a tag that is not BCP 47, and its disposer restores what was there', () => {
    assert.throws(() => registerLocale('not a tag', en), /well-formed BCP 47/);
    const dispose = registerLocale('fr', { ...en, dismiss: 'Ignorer' });
    assert.equal(strings('fr-CA').dismiss, 'Ignorer');
    dispose();
    assert.equal(strings('fr-CA').dismiss, 'Dismiss');
  });

  it('teaches the submission formatter its words', () => {
    const parsed = parseTaskSurfaceModel({
      version: 1,
      title: 'Plan',
      sections: [],
      submit: { label: 'Go' },
      fields: [{ kind: 'toggle', id: 'ok', label: 'Prêt' }],
    });
    assert.ok(parsed.ok);
    const model = parsed.model;
    assert.equal(submissionLocaleOf('fr-BE'), 'en');
    disposers.push(registerLocale('fr', { ...en, submission: { ...en.submission, yes: 'oui', colon: ' : ' } }));
    assert.equal(submissionLocaleOf('fr-BE'), 'fr');
    assert.equal(formatSubmission(model, { ok: true }, undefined, { locale: 'fr-BE' }), 'Plan\nPrêt : oui');
  });
});
