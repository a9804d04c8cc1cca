import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { DiffBlock } from '../../protocol/index.js';
import { DIFF_MAX_EDITS, DIFF_WORK_BUDGET, diffRuns, diffShareOf, diffView, loadDiff } from '../../components/view/diffLines.js';
import { clipMarks, MAX_COMBINING_MARKS, visibleControls } from '../../components/view/text.js';

const lines = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag} ${i}`).join('\n') + '\n';
const block = (before: string | null, after: string): DiffBlock => ({ kind: 'diff', before, after });

describe('diffView: bounded line diff', () => {
  before(loadDiff); // the library loads on first use (see diffLoading.node.test.ts); these tests are about the diff
  it('compares within the edit budget and falls back to before/after past it', () => {
    // 150 + 150 lines, all different: 300 edits, within DIFF_MAX_EDITS (the line budget allows more).
    assert.equal(Math.floor(DIFF_WORK_BUDGET / 300) >= DIFF_MAX_EDITS && DIFF_MAX_EDITS >= 300, true);
    const within = diffView(block(lines(150, 'old'), lines(150, 'new')));
    assert.equal(within.kind, 'patch');
    assert.deepEqual(within.kind === 'patch' && [within.added, within.removed], [150, 150]);
    // 250 + 250: 500 edits, past DIFF_MAX_EDITS however small the block.
    assert.equal(diffView(block(lines(250, 'old'), lines(250, 'new'))).kind, 'plain');
    // 4,000 + 4,000 lines all different: 8,000 edits against a budget of 125.
    const past = diffView(block(lines(4000, 'old'), lines(4000, 'new')));
    assert.equal(past.kind, 'plain');
    assert.deepEqual(past.kind === 'plain' && [past.before.length, past.after.length, past.before[0], past.after[3999]], [
      4000,
      4000,
      'old 0',
      'new 3999',
    ]);
  });

  it('cuts equal ends first, so a small change in a long file is compared, with true line numbers', () => {
    const before = lines(8000, 'same');
    const view = diffView(block(before, before.replace('same 4000\n', 'other 4000\n')));
    assert.equal(view.kind, 'patch');
    assert.deepEqual(view.kind === 'patch' && view.lines.map((l) => l.text), [
      '@@ -3998,7 +3998,7 @@',
      ' same 3997',
      ' same 3998',
      ' same 3999',
      '-same 4000',
      '+other 4000',
      ' same 4001',
      ' same 4002',
      ' same 4003',
    ]);
  });

  it('needs no diff for a new file, and says when nothing changed', () => {
    const created = diffView(block(null, lines(20_000, 'x')));
    assert.equal(created.kind === 'patch' && created.lines.length, 20_001);
    assert.equal(created.kind === 'patch' && created.lines[0]!.text, '@@ -0,0 +1,20000 @@');
    const same = diffView(block('a\nb\n', 'a\nb\n'));
    assert.deepEqual(same, { kind: 'patch', lines: [], added: 0, removed: 0 });
  });

  it("shares the budget among a model's diff blocks: many medium diffs fall back, small ones are compared", () => {
    const model = (k: number, make: (i: number) => DiffBlock) => ({ sections: [{ blocks: Array.from({ length: k }, (_, i) => make(i)) }] });
    // 32 blocks of 170 lines that all differ: alone each would be compared (340 edits); together they exceed the budget.
    const medium = model(32, (i) => block(`a${i}\n`.repeat(170), `b${i}\n`.repeat(170)));
    const share = diffShareOf(medium);
    assert.deepEqual(share, { blocks: 32, lines: 32 * 2 * 171 });
    assert.ok(medium.sections[0]!.blocks.every((b) => diffView(b, share).kind === 'plain'));
    assert.equal(diffView(block(`a\n`.repeat(170), `b\n`.repeat(170))).kind, 'patch', 'the same block alone is compared');
    // 32 blocks with 10 changed lines each (20 edits): compared.
    const small = model(32, (i) => block(lines(100, `f${i}`), lines(100, `f${i}`).replace(/ 1(\d)\n/g, ' x$1\n')));
    const smallShare = diffShareOf(small);
    assert.ok(small.sections[0]!.blocks.every((b) => diffView(b, smallShare).kind === 'patch'));
  });

  it('computes a block once', () => {
    const b = block(lines(100, 'a'), lines(100, 'b'));
    assert.equal(diffView(b), diffView(b));
  });
});

describe('diffRuns', () => {
  it('draws consecutive lines of a kind as one run, starting a run at each page', () => {
    const lines = [
      { kind: 'hunk' as const, text: '@@' },
      { kind: 'ctx' as const, text: ' a' },
      { kind: 'del' as const, text: '-b' },
      { kind: 'add' as const, text: '+c' },
      { kind: 'add' as const, text: '+d' },
      { kind: 'add' as const, text: '+e' },
      { kind: 'ctx' as const, text: ' f' },
    ];
    assert.deepEqual(diffRuns(lines, 100, 4), [
      { kind: 'hunk', text: '@@', start: 0 },
      { kind: 'ctx', text: ' a', start: 1 },
      { kind: 'del', text: '-b', start: 2 },
      { kind: 'add', text: '+c', start: 3 },
      { kind: 'add', text: '+d\n+e', start: 4 },
      { kind: 'ctx', text: ' f', start: 6 },
    ]);
    assert.deepEqual(
      diffRuns(lines, 3, 4).map((r) => r.text),
      ['@@', ' a', '-b'],
      'only the lines shown',
    );
  });
});

describe('model text helpers', () => {
  it('keeps at most MAX_COMBINING_MARKS marks on a letter and leaves ordinary text alone', () => {
    assert.equal(clipMarks(`Z${'\u0301'.repeat(900)}!`), `Z${'\u0301'.repeat(MAX_COMBINING_MARKS)}!`);
    for (const text of ['Tiếng Việt', 'हिन्दी', 'བོད་ཡིག', 'e\u0301\u0302']) assert.equal(clipMarks(text), text);
  });

  it('shows every bidi control as a visible code', () => {
    const controls = [
      '\u061C',
      '\u200E',
      '\u200F',
      '\u202A',
      '\u202B',
      '\u202C',
      '\u202D',
      '\u202E',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
    ];
    const shown = visibleControls(`a${controls.join('')}b`);
    assert.equal(shown, `a${controls.map((c) => `⟨U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟩`).join('')}b`);
    assert.equal(visibleControls('invoice\u202Efdp.exe'), 'invoice⟨U+202E⟩fdp.exe');
  });
});
