import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  formatSubmission,
  registerSubmissionWords,
  submissionLocaleOf,
  SUBMISSION_WORDS,
  type NormalizedTaskSurfaceModel,
  type SubmissionWords,
  type TaskSurfaceValues,
} from '../../protocol/index.js';
import { modelOf } from './fixtures/parsing.js';

/*
 * The user message a submission becomes, compared whole in every shipped language: each of the
 * language's words (colon, yes/no, list separator, the empty and none placeholders, the note's
 * label, the brackets around a shared label's id) appears in the one text below.
 */

const model: NormalizedTaskSurfaceModel = modelOf({
  version: 1,
  title: 'Release',
  sections: [],
  submit: { label: 'Go' },
  fields: [
    {
      kind: 'choice',
      id: 'env',
      label: 'Environment',
      options: [
        { id: 'staging', label: 'Staging' },
        { id: 'prod', label: 'Production' },
      ],
    },
    {
      kind: 'multi-choice',
      id: 'targets',
      label: 'Targets',
      options: [
        { id: 'a', label: 'Same' },
        { id: 'b', label: 'Same' },
        { id: 'c', label: 'Other' },
      ],
    },
    { kind: 'multi-choice', id: 'extras', label: 'Extras', options: [{ id: 'x', label: 'X' }] },
    { kind: 'toggle', id: 'migrate', label: 'Run migrations' },
    { kind: 'toggle', id: 'backup', label: 'Backup' },
    {
      kind: 'order',
      id: 'seq',
      label: 'Order',
      options: [
        { id: 'p', label: 'First' },
        { id: 'q', label: 'Second' },
      ],
    },
    { kind: 'text', id: 'reason', label: 'Reason', required: true },
    { kind: 'text', id: 'steps', label: 'Steps', multiline: true },
    { kind: 'text', id: 'ticket', label: 'Ticket' },
  ],
});

// `reason` is a blank required text: the validator refuses it, but the formatter shows what it is given.
const values: TaskSurfaceValues = {
  env: 'prod',
  targets: ['a', 'b', 'c'],
  extras: [],
  migrate: true,
  backup: false,
  seq: ['q', 'p'],
  reason: '   ',
  steps: 'one\ntwo',
};

const lines = (colon: string, yes: string, no: string, targets: string, none: string, empty: string, note: string) => [
  'Release',
  `Environment${colon}Production`,
  `Targets${colon}${targets}`,
  `Extras${colon}${none}`,
  `Run migrations${colon}${yes}`,
  `Backup${colon}${no}`,
  `Order${colon.trimEnd()}`,
  '  1. Second',
  '  2. First',
  `Reason${colon}${empty}`,
  `Steps${colon.trimEnd()}`,
  '  one',
  '  two',
  `${note}${colon}ship it`,
];

/** Each shipped language: a regional tag that falls back to it, and the whole text it writes. */
const SHIPPED: [string, string, string[]][] = [
  ['en', 'en-GB', lines(': ', 'yes', 'no', 'Same (a), Same (b), Other', '(none)', '(empty)', 'Note')],
  ['zh', 'zh-Hant-TW', lines('：', '是', '否', 'Same（a）、Same（b）、Other', '（无）', '（空）', '备注')],
  ['es', 'es-MX', lines(': ', 'sí', 'no', 'Same (a), Same (b), Other', '(ninguna)', '(vacío)', 'Nota')],
  ['de', 'de-CH', lines(': ', 'ja', 'nein', 'Same (a), Same (b), Other', '(keine)', '(leer)', 'Notiz')],
  ['ja', 'ja-JP', lines('：', 'はい', 'いいえ', 'Same（a）、Same（b）、Other', '（なし）', '（空欄）', 'メモ')],
  ['ar', 'ar-EG', lines(': ', 'نعم', 'لا', 'Same (a)، Same (b)، Other', '(لا شيء)', '(فارغ)', 'ملاحظة')],
];

describe('the submission text in each shipped language', () => {
  for (const [locale, regional, expected] of SHIPPED) {
    it(`writes ${locale} (and ${regional}) with its own words`, () => {
      assert.equal(formatSubmission(model, values, 'ship it', { locale }), expected.join('\n'));
      assert.equal(formatSubmission(model, values, 'ship it', { locale: regional }), expected.join('\n'));
      assert.equal(submissionLocaleOf(regional), locale);
    });
  }

  it('ships exactly these languages', () => {
    assert.deepEqual(Object.keys(SUBMISSION_WORDS), ['en', 'zh', 'es', 'de', 'ja', 'ar']);
  });

  it('writes English when no options are given (a JavaScript caller)', () => {
    const format = formatSubmission as (...args: unknown[]) => string;
    assert.equal(format(model, values, 'ship it'), SHIPPED[0]![2].join('\n'));
  });
});

const FR: SubmissionWords = {
  colon: ' : ',
  yes: 'oui',
  no: 'non',
  list: ' ; ',
  empty: '(vide)',
  none: '(aucune)',
  note: 'Remarque',
  open: ' [',
  close: ']',
};

const toggle = modelOf({
  version: 1,
  title: 'T',
  sections: [],
  submit: { label: 'Go' },
  fields: [{ kind: 'toggle', id: 't', label: 'Ready' }],
});

describe('registerSubmissionWords', () => {
  it('teaches the formatter a language, and its disposer forgets it', () => {
    const dispose = registerSubmissionWords('fr', FR);
    try {
      assert.equal(submissionLocaleOf('fr-CA'), 'fr');
      assert.equal(formatSubmission(toggle, { t: true }, 'vite', { locale: 'fr-CA' }), 'T\nReady : oui\nRemarque : vite');
    } finally {
      dispose();
    }
    assert.equal(submissionLocaleOf('fr-CA'), 'en');
    assert.equal(formatSubmission(toggle, { t: true }, 'vite', { locale: 'fr-CA' }), 'T\nReady: yes\nNote: vite');
  });

  it('replaces a shipped language until disposed, then restores it', () => {
    const dispose = registerSubmissionWords('DE', { ...SUBMISSION_WORDS.de!, yes: 'jawohl' });
    try {
      assert.equal(formatSubmission(toggle, { t: true }, undefined, { locale: 'de' }), 'T\nReady: jawohl');
    } finally {
      dispose();
    }
    assert.equal(formatSubmission(toggle, { t: true }, undefined, { locale: 'de' }), 'T\nReady: ja');
  });

  it('a stale disposer leaves a later registration in place', () => {
    const first = registerSubmissionWords('fr', FR);
    const second = registerSubmissionWords('fr', { ...FR, yes: 'bien sûr' });
    try {
      first();
      assert.equal(formatSubmission(toggle, { t: true }, undefined, { locale: 'fr' }), 'T\nReady : bien sûr');
    } finally {
      second();
    }
    // The second's disposer puts back what it replaced: the first's words.
    assert.equal(formatSubmission(toggle, { t: true }, undefined, { locale: 'fr' }), 'T\nReady : oui');
    first();
    assert.equal(formatSubmission(toggle, { t: true }, undefined, { locale: 'fr' }), 'T\nReady: yes');
  });

  it('refuses a tag that is not a well-formed language tag, naming it', () => {
    assert.throws(() => registerSubmissionWords('not a tag', FR), {
      name: 'RangeError',
      message: 'registerSubmissionWords: "not a tag" is not a well-formed BCP 47 language tag',
    });
    assert.equal(submissionLocaleOf('not a tag'), 'en');
  });
});

describe('values the validator would refuse, as the formatter shows them', () => {
  const text = (vals: Record<string, unknown>) => formatSubmission(model, vals as TaskSurfaceValues, undefined, { locale: 'en' });
  const rest = { targets: ['c'], extras: ['x'], migrate: true, backup: true, seq: ['p', 'q'], reason: 'r', steps: 's' };
  const tail = [
    'Targets: Other',
    'Extras: X',
    'Run migrations: yes',
    'Backup: yes',
    'Order:',
    '  1. First',
    '  2. Second',
    'Reason: r',
    'Steps: s',
  ];

  it('leaves out a choice cleared to null, as it does an absent one', () => {
    assert.equal(text({ env: null, ...rest }), ['Release', ...tail].join('\n'));
  });

  it('shows a blank string given for a toggle, and a non-text given for an optional text, raw', () => {
    assert.equal(
      text({ env: 'staging', ...rest, backup: '', ticket: [''] }),
      ['Release', 'Environment: Staging', ...tail.slice(0, 3), 'Backup: ""', ...tail.slice(4), 'Ticket: [""]'].join('\n'),
    );
  });

  it('shows a value JSON cannot write (a bigint, a cycle) as a string', () => {
    const cycle: unknown[] = [];
    cycle.push(cycle);
    assert.equal(
      text({ env: 12n, ...rest, migrate: cycle }),
      ['Release', 'Environment: 12', ...tail.slice(0, 2), 'Run migrations: ', ...tail.slice(3)].join('\n'),
    );
  });

  it('trims the space around a title and its labels', () => {
    const spaced = modelOf({
      version: 1,
      title: '  Release\t',
      sections: [],
      submit: { label: 'Go' },
      fields: [{ kind: 'choice', id: 'c', label: ' Pick ', options: [{ id: 'a', label: '\n A ' }] }],
    });
    assert.equal(formatSubmission(spaced, { c: 'a' }, undefined, { locale: 'en' }), 'Release\nPick: A');
  });
});
