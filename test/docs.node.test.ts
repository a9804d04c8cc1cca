// The project's docs stand on their own: every relative link in the README and docs/ points at a
// file inside this repository that exists (a clone has nothing beside it), and every test
// docs/defaults.md names as pinning a default is there.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// The two specifications in docs/spec/ are kept verbatim: their links point into the product they
// were written for, as docs/spec/mapping.md says.
const verbatim = new Set(['docs/spec/task-surface-proposal.md', 'docs/spec/action-cards-readme.md']);
const pages = [
  'README.md',
  ...readdirSync(join(root, 'docs'), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.md'))
    .map((f) => join('docs', f)),
].filter((page) => !verbatim.has(page));

it('every relative link in the README and docs/ resolves to a file in the repository', () => {
  const broken: string[] = [];
  for (const page of pages) {
    const text = readFileSync(join(root, page), 'utf8').replace(/```[\s\S]*?```/g, '');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target!) || target!.startsWith('#')) continue; // absolute URLs and anchors
      const file = resolve(join(root, dirname(page)), decodeURI(target!.split('#')[0]!));
      const inside = !relative(root, file).startsWith('..');
      if (!inside || !existsSync(file)) broken.push(`${page}: ${target}${inside ? '' : ' (outside the repository)'}`);
    }
  }
  assert.ok(pages.length > 5, 'the docs were found');
  assert.deepEqual(broken, []);
});

/** The test files under test/, as paths from the repository's root. */
const testFiles = readdirSync(join(root, 'test'), { recursive: true })
  .map(String)
  .filter((f) => /\.test\.ts$/.test(f))
  .map((f) => join('test', f));

/** A `ref` of docs/defaults.md: a path (`{a,b}` for several), or the end of one (`wsDefaults`, `agents/defaults`). */
function filesNamed(ref: string): string[] {
  const brace = /\{([^}]+)\}/.exec(ref);
  if (brace) return brace[1]!.split(',').flatMap((one) => filesNamed(ref.replace(brace[0], one)));
  if (ref.startsWith('test/')) return existsSync(join(root, ref)) ? [ref] : [];
  const found = testFiles.filter((f) => f.endsWith(`/${ref}`) || f.endsWith(`/${ref}.node.test.ts`) || f.endsWith(`/${ref}.test.ts`));
  return found.length === 1 ? found : [];
}

it('every test docs/defaults.md names for a default exists and has the test the row quotes', () => {
  const text = readFileSync(join(root, 'docs/defaults.md'), 'utf8');
  const wrong: string[] = [];
  let rows = 0;
  let pinnedBy = false;
  for (const line of text.split('\n')) {
    if (!line.startsWith('|')) {
      pinnedBy = false;
      continue;
    }
    const cells = line
      .slice(1, -1)
      .split(' | ')
      .map((cell) => cell.trim());
    if (cells.at(-1) === 'pinned by') pinnedBy = true;
    if (!pinnedBy || cells.at(-1) === 'pinned by' || line.startsWith('|---')) continue;
    rows++;
    // "`file`: title … title; title; `other`: title (remark)": a part without a file is in the one
    // before; each stretch of a title between ellipses is in the test file word for word.
    let files: string[] = [];
    for (const part of cells.at(-1)!.split(/; (?![^(]*\))/)) {
      const [, ref, rest] = /^(?:`([^`]+)`)?:? ?(.*)$/.exec(part)!;
      if (ref !== undefined) files = filesNamed(ref);
      if (files.length === 0) wrong.push(`${cells[0]}: no one test file is named \`${ref}\``);
      const stretches = rest!
        .replace(/ \([^()]*\)$/, '')
        .split('…')
        .map((stretch) => stretch.trim())
        .filter((stretch) => stretch !== '');
      if (stretches.length === 0) wrong.push(`${cells[0]}: \`${ref}\` names no test`);
      for (const file of files) {
        const source = readFileSync(join(root, file), 'utf8');
        for (const stretch of stretches) if (!source.includes(stretch)) wrong.push(`${cells[0]}: ${file} has no test "${stretch}"`);
      }
    }
  }
  assert.ok(rows > 30, `the defaults were found (${rows} rows)`);
  assert.deepEqual(wrong, []);
});
