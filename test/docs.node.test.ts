// The project's docs stand on their own: every relative link in the README and docs/ points at a
// file inside this repository that exists (a clone has nothing beside it).
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
