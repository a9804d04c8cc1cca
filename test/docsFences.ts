/*
 * Every fenced block of README.md and docs/ (the two verbatim specifications aside), and what
 * becomes of each: a test runs it as written, or it is shown only (a command, a diagram, an output)
 * and says why. test/docsFences.node.test.ts fails on a fence that is in neither list.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url);

/** One fenced block of a page: where it stands and its text as written. */
export interface Fence {
  page: string;
  line: number;
  lang: string;
  code: string;
  /** `page § heading · lang n`: the n-th block of that language under the nearest heading above it. */
  key: string;
}

/** The pages whose blocks are counted: README.md and docs/, the two verbatim specifications aside. */
export function docPages(): string[] {
  const verbatim = new Set(['docs/spec/task-surface-proposal.md', 'docs/spec/action-cards-readme.md']);
  const docs = readdirSync(new URL('docs', root), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.md'))
    .map((f) => join('docs', f))
    .sort();
  return ['README.md', ...docs].filter((page) => !verbatim.has(page));
}

/** The fenced blocks of `page`, in order. */
export function fencesOf(page: string): Fence[] {
  const lines = readFileSync(new URL(page, root), 'utf8').split('\n');
  const fences: Fence[] = [];
  const seen = new Map<string, number>();
  let heading = '';
  for (let at = 0; at < lines.length; at++) {
    const line = lines[at]!;
    if (/^#{1,6} /.test(line)) heading = line.replace(/^#+ /, '');
    const open = /^```(\w*)\s*$/.exec(line);
    if (!open) continue;
    const end = lines.findIndex((l, i) => i > at && /^```\s*$/.test(l));
    if (end < 0) throw new Error(`${page}:${at + 1}: a fence that never closes`);
    const lang = open[1] || 'text';
    const n = (seen.get(`${heading} ${lang}`) ?? 0) + 1;
    seen.set(`${heading} ${lang}`, n);
    fences.push({ page, line: at + 1, lang, code: lines.slice(at + 1, end).join('\n') + '\n', key: `${page} § ${heading} · ${lang} ${n}` });
    at = end;
  }
  return fences;
}

/** The block of `key`, as written. */
export function fence(key: string): Fence {
  const page = key.split(' § ')[0]!;
  const found = fencesOf(page).find((f) => f.key === key);
  if (!found)
    throw new Error(
      `${page} has no block "${key}" (its blocks: ${fencesOf(page)
        .map((f) => f.key)
        .join('; ')})`,
    );
  return found;
}
