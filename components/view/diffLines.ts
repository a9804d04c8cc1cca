import type { DiffBlock } from '../../protocol/index.js';
import { lazyModule } from '../shared/lazy.js';

/** The `diff` library, loaded on the first diff that needs it (its own chunk in the drop-in bundle). */
const diffLibrary = lazyModule(() => import('./diffEngine.js'));

/** Loads the diff library now (it loads by itself on the first diff block that needs it). */
export async function loadDiff(): Promise<void> {
  await diffLibrary.load();
}

/*
 * A diff block as lines to show, with bounded work. The line diff (Myers, in the `diff` package)
 * costs about lines × edits plus edits²; a valid 64 KiB block can hold 16,000 short lines that all
 * differ, which took the library seconds. So: a new file needs no diff at all, equal leading and
 * trailing lines are cut before diffing, and the diff gets an edit budget: about
 * `DIFF_WORK_BUDGET` line steps and at most `DIFF_MAX_EDITS` edits (some 200 changed lines), with
 * a time cap only as a safety net for a very slow machine. The budget is the whole model's: k diff
 * blocks share it (each may take 1/√k of the edits and the line steps of all of them count), so 32
 * medium diffs cost what one large one does. Past the budget the block is shown as plain before and
 * after text with a note saying why.
 */

/** Line × edit-distance steps the line diff may take: a few milliseconds. */
export const DIFF_WORK_BUDGET = 1_000_000;
/** The edit distance allowed however small the block: the diff also costs about edits², and 400² stays near 5 ms. */
export const DIFF_MAX_EDITS = 400;
/** Wall-clock cap on the line diff (ms), in case a machine is far slower than expected. */
export const DIFF_TIMEOUT_MS = 100;
/** Lines of a diff (or of each side of the fallback) shown before "Show more". */
export const DIFF_PAGE_LINES = 200;

export type DiffLineKind = 'add' | 'del' | 'ctx' | 'hunk';
export interface DiffLine {
  kind: DiffLineKind;
  text: string;
}

/**
 * A compared diff; or the fallback: the plain texts, because comparing would cost too much; or,
 * while the diff library is still loading, the plain texts as a placeholder (`loading`).
 */
export type DiffView =
  { kind: 'patch'; lines: DiffLine[]; added: number; removed: number } | { kind: 'plain' | 'loading'; before: string[]; after: string[] };

/** What the diff blocks of one model share the budget with: their count and their lines together. */
export interface DiffShare {
  blocks: number;
  lines: number;
}

const cache = new WeakMap<DiffBlock, DiffView>();
const shares = new WeakMap<object, DiffShare>();

/** The diff blocks of a model (anything with `sections[].blocks[]`), counted once per model object. */
export function diffShareOf(model: { sections: readonly { blocks: readonly { kind: string }[] }[] }): DiffShare {
  let share = shares.get(model);
  if (!share) {
    share = { blocks: 0, lines: 0 };
    for (const section of model.sections) {
      for (const block of section.blocks) {
        if (block.kind !== 'diff') continue;
        const diff = block as DiffBlock;
        share.blocks++;
        share.lines += lineCount(diff.before ?? '') + lineCount(diff.after);
      }
    }
    shares.set(model, share);
  }
  return share;
}

function lineCount(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n + 1;
}

/**
 * The lines of `block`, computed once per block object (a normalised model's blocks never change).
 * `share` is its model's `diffShareOf` (default: the block alone).
 */
export function diffView(block: DiffBlock, share?: DiffShare): DiffView {
  let view = cache.get(block);
  if (!view) {
    view = compute(block, share ?? { blocks: 1, lines: 0 });
    if (view.kind !== 'loading') cache.set(block, view);
  }
  return view;
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function compute(block: DiffBlock, share: DiffShare): DiffView {
  const after = splitLines(block.after);
  if (block.before === null) {
    if (after.length === 0) return { kind: 'patch', lines: [], added: 0, removed: 0 };
    return {
      kind: 'patch',
      lines: [{ kind: 'hunk', text: `@@ -0,0 +1,${after.length} @@` }, ...after.map((l) => ({ kind: 'add' as const, text: `+${l}` }))],
      added: after.length,
      removed: 0,
    };
  }
  const before = splitLines(block.before);
  const library = diffLibrary.get();
  if (!library) return { kind: 'loading', before, after };
  // Equal lines at both ends cost nothing to find; only the middle needs the line diff.
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (tail < before.length - head && tail < after.length - head && before[before.length - 1 - tail] === after[after.length - 1 - tail])
    tail++;
  const keepHead = Math.max(0, head - 3);
  const keepTail = Math.max(0, tail - 3);
  const oldMid = before.slice(keepHead, before.length - keepTail);
  const newMid = after.slice(keepHead, after.length - keepTail);
  const size = Math.max(1, oldMid.length + newMid.length);
  const blocks = Math.max(1, share.blocks);
  const maxEditLength = Math.max(
    16,
    Math.floor(Math.min(DIFF_MAX_EDITS / Math.sqrt(blocks), DIFF_WORK_BUDGET / Math.max(size, share.lines))),
  );
  const join = (lines: string[]) => (lines.length ? `${lines.join('\n')}\n` : '');
  // The budget above bounds the work; the clock only guards a device far slower than expected. A
  // floor of 25 ms keeps a busy (not slow) machine from turning small, cheap diffs into the fallback.
  const timeout = Math.max(25, DIFF_TIMEOUT_MS / blocks);
  const patch = library.structuredPatch('', '', join(oldMid), join(newMid), '', '', { context: 3, maxEditLength, timeout });
  if (!patch) return { kind: 'plain', before, after };
  const lines: DiffLine[] = [];
  let added = 0;
  let removed = 0;
  for (const hunk of patch.hunks) {
    const oldStart = hunk.oldStart + keepHead;
    const newStart = hunk.newStart + keepHead;
    lines.push({ kind: 'hunk', text: `@@ -${oldStart},${hunk.oldLines} +${newStart},${hunk.newLines} @@` });
    for (const line of hunk.lines) {
      const sign = line[0];
      if (sign === '\\') continue; // "\ No newline at end of file"
      if (sign === '+') added++;
      if (sign === '-') removed++;
      lines.push({ kind: sign === '+' ? 'add' : sign === '-' ? 'del' : 'ctx', text: line });
    }
  }
  return { kind: 'patch', lines, added, removed };
}

/** Consecutive lines of one kind drawn as one element (a page boundary starts a new run). */
export interface DiffRun {
  kind: DiffLineKind;
  text: string;
  start: number;
}

/**
 * The first `shown` lines as runs: one element per run instead of one per line keeps a long page
 * (or 32 diffs) to a few dozen elements. Each page starts a run, so a new page can take focus.
 */
export function diffRuns(lines: readonly DiffLine[], shown: number, page = DIFF_PAGE_LINES): DiffRun[] {
  const runs: DiffRun[] = [];
  let current: { kind: DiffLineKind; texts: string[]; start: number } | undefined;
  const end = Math.min(shown, lines.length);
  for (let i = 0; i < end; i++) {
    const line = lines[i]!;
    if (!current || current.kind !== line.kind || i % page === 0) {
      if (current) runs.push({ kind: current.kind, text: current.texts.join('\n'), start: current.start });
      current = { kind: line.kind, texts: [], start: i };
    }
    current.texts.push(line.text);
  }
  if (current) runs.push({ kind: current.kind, text: current.texts.join('\n'), start: current.start });
  return runs;
}
