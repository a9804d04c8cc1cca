import { html, nothing, type TemplateResult } from 'lit';
import type { DiffBlock, MetricsBlock, NoticeBlock, TableBlock, TableCell, TaskSurfaceBlock } from '../../protocol/index.js';
import { formatNumber, type Strings } from '../i18n/index.js';
import { renderMarkdown } from '../markdown/markdown.js';
import { DIFF_PAGE_LINES, diffRuns, diffView, type DiffLine, type DiffRun, type DiffShare } from './diffLines.js';
import { displayText, visibleControls } from './text.js';

/** Rows a table shows before the person asks for the rest. */
export const TABLE_INITIAL_ROWS = 50;

export interface BlockContext {
  s: Strings;
  /** The tag numbers are written in (see `formatTag`). */
  lang: string;
  /** Every table shows all its rows (the view's `all-rows`). */
  allRows: boolean;
  /** Blocks the person expanded, by key: pages of a diff shown, or any entry for a table shown whole. */
  expanded: ReadonlyMap<string, number>;
  /** Shows the next page of a block; the element moves focus to its `[data-reveal]` element. */
  expand(key: string): void;
  /** Added to markdown heading levels (the section titles' level). */
  headingOffset: number;
  /** The model's diff blocks together: they share one diff budget. */
  diffShare: DiffShare;
}

/** One content block. Markdown always renders with `remoteImages: 'alt-only'`. */
export function renderBlock(block: TaskSurfaceBlock, key: string, ctx: BlockContext): TemplateResult {
  switch (block.kind) {
    case 'markdown':
      return html`<div class="block md" part="block markdown">${renderMarkdown(block.text, { remoteImages: 'alt-only', headingOffset: ctx.headingOffset })}</div>`;
    case 'metrics':
      return metrics(block);
    case 'table':
      return table(block, key, ctx);
    case 'diff':
      return diff(block, key, ctx);
    case 'notice':
      return notice(block, ctx);
  }
}

function metrics(block: MetricsBlock): TemplateResult {
  return html`<dl class="block metrics" part="block metrics">${block.items.map(
    (item) => html`
    <div class="metric"><dt class="model-text clamp" dir="auto" title=${item.label}>${displayText(item.label)}</dt><dd class="metric-value model-text clamp" dir="auto" title=${item.value}>${displayText(item.value)}</dd>${
      item.detail
        ? html`<dd class="metric-detail model-text clamp" dir="auto" title=${item.detail}>${displayText(item.detail)}</dd>`
        : nothing
    }</div>`,
  )}</dl>`;
}

/**
 * One cell. Model text takes its direction from its own first strong character (`dir="auto"`)
 * on the cell itself, which is a paragraph of its own already: an element per cell to carry
 * `dir` cost 400 elements in a 200-row table and a slower first render.
 */
function cell(value: TableCell | undefined, numeric: boolean, ctx: BlockContext): TemplateResult {
  if (typeof value === 'string') return html`<td class="model-text" dir="auto">${displayText(value)}</td>`;
  const text =
    value === null || value === undefined
      ? html`<span class="null" aria-hidden="true">—</span><span class="sr-only">${ctx.s.empty}</span>`
      : typeof value === 'number'
        ? formatNumber(value, ctx.lang)
        : value
          ? ctx.s.yes
          : ctx.s.no;
  return html`<td class=${numeric ? 'num' : ''}>${text}</td>`;
}

function table(block: TableBlock, key: string, ctx: BlockContext): TemplateResult {
  const total = block.rows.length;
  const all = ctx.allRows || ctx.expanded.has(key) || total <= TABLE_INITIAL_ROWS;
  const rows = all ? block.rows : block.rows.slice(0, TABLE_INITIAL_ROWS);
  const revealAt = ctx.expanded.has(key) && total > TABLE_INITIAL_ROWS ? TABLE_INITIAL_ROWS : -1;
  const numeric = block.columns.map(
    (c) => block.rows.length > 0 && block.rows.every((r) => typeof r[c.id] === 'number' || r[c.id] === null || r[c.id] === undefined),
  );
  return html`<div class="block table-block" part="block table">
    <div class="table-scroll" role="group" tabindex="0" aria-label=${ctx.s.tableRegion(total)}>
      <table>
        <thead><tr>${block.columns.map((c, i) => html`<th scope="col" class=${numeric[i] ? 'num' : ''} dir="auto" title=${c.label}>${displayText(c.label)}</th>`)}</tr></thead>
        <tbody>${rows.map((row, r) => html`<tr tabindex=${r === revealAt ? '-1' : nothing} data-reveal=${r === revealAt ? key : nothing}>${block.columns.map((c, i) => cell(row[c.id], numeric[i]!, ctx))}</tr>`)}</tbody>
      </table>
    </div>
    ${
      all
        ? nothing
        : html`<div class="table-more"><span role="status">${ctx.s.showingRows(rows.length, total)}</span>
      <button type="button" class="button" @click=${() => ctx.expand(key)}>${ctx.s.showAllRows(total)}</button></div>`
    }
  </div>`;
}

function diff(block: DiffBlock, key: string, ctx: BlockContext): TemplateResult {
  const view = diffView(block, ctx.diffShare);
  const pages = ctx.expanded.get(key) ?? 1;
  const shown = pages * DIFF_PAGE_LINES;
  const label = block.path ? ctx.s.diffOf(block.path) : ctx.s.diffUntitled;
  const total = view.kind === 'patch' ? view.lines.length : Math.max(view.before.length, view.after.length);
  const head = html`<figcaption class="diff-head">
      ${block.path ? html`<code class="diff-path model-text clamp" dir="auto" title=${block.path}>${displayText(visibleControls(block.path))}</code>` : nothing}
      ${block.before === null ? html`<span class="badge">${ctx.s.newFile}</span>` : nothing}
      ${block.language ? html`<span class="badge model-text clamp" dir="auto" title=${block.language}>${displayText(block.language)}</span>` : nothing}
      <span class="diff-counts">${
        view.kind !== 'patch'
          ? ctx.s.diffSizes(view.before.length, view.after.length)
          : view.lines.length
            ? ctx.s.diffCounts(view.added, view.removed)
            : ctx.s.noChanges
      }</span>
    </figcaption>`;
  const more =
    total > shown
      ? html`<div class="table-more"><span>${ctx.s.showingLines(shown, total)}</span>
      <button type="button" class="button" @click=${() => ctx.expand(key)}>${ctx.s.showMoreLines(Math.min(DIFF_PAGE_LINES, total - shown))}</button></div>`
      : nothing;
  // The first line of the page just revealed takes focus (the button may be gone).
  const firstNew = pages > 1 ? (pages - 1) * DIFF_PAGE_LINES : -1;
  if (view.kind !== 'patch') {
    const side = (name: string, lines: string[]) => html`<div class="diff-side">
      <p class="diff-side-name">${name}</p>
      <pre class="diff-body plain" role="group" tabindex="0" aria-label=${`${label}: ${name}`} dir="ltr">${runsOf(diffRuns(lines.map(plainLine), shown), firstNew, key)}</pre></div>`;
    return html`<figure class="block diff" part="block diff">${head}
      ${view.kind === 'plain' ? html`<p class="diff-note" role="note">${ctx.s.diffTooLarge}</p>` : nothing}
      ${side(ctx.s.diffBefore, view.before)}${side(ctx.s.diffAfter, view.after)}${more}
    </figure>`;
  }
  return html`<figure class="block diff" part="block diff">${head}
    ${view.lines.length ? html`<pre class="diff-body" role="group" tabindex="0" aria-label=${label} dir="ltr">${runsOf(diffRuns(view.lines, shown), firstNew, key)}</pre>` : nothing}
    ${more}
  </figure>`;
}

const plainLine = (text: string): DiffLine => ({ kind: 'ctx', text });

/** Runs of diff lines as elements; the run that starts the page just revealed takes focus. */
function runsOf(runs: DiffRun[], firstNew: number, key: string): TemplateResult[] {
  return runs.map(
    (run) => html`<span class=${run.kind} tabindex=${run.start === firstNew ? '-1' : nothing}
    data-reveal=${run.start === firstNew ? key : nothing}>${run.text}</span>`,
  );
}

function notice(block: NoticeBlock, ctx: BlockContext): TemplateResult {
  return html`<div class="block notice ${block.tone}" part="block notice" role="note">
    <strong class="notice-tone">${ctx.s.noticeTone[block.tone]}</strong>
    <span class="notice-text model-text" dir="auto">${displayText(block.text)}</span></div>`;
}
