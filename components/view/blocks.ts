import { html, nothing, type TemplateResult } from 'lit';
import { structuredPatch } from 'diff';
import type { DiffBlock, MetricsBlock, NoticeBlock, TableBlock, TableCell, TaskSurfaceBlock } from '../../protocol/index.js';
import type { Strings } from '../i18n/index.js';
import { renderMarkdown } from '../markdown/markdown.js';

/** Rows a table shows before the person asks for the rest. */
export const TABLE_INITIAL_ROWS = 50;

export interface BlockContext {
  s: Strings;
  lang: string;
  /** Keys of tables the person expanded. */
  expanded: ReadonlySet<string>;
  expand(key: string): void;
}

/** One content block. Markdown always renders with `remoteImages: 'alt-only'`. */
export function renderBlock(block: TaskSurfaceBlock, key: string, ctx: BlockContext): TemplateResult {
  switch (block.kind) {
    case 'markdown': return html`<div class="block md" part="block markdown">${renderMarkdown(block.text, { remoteImages: 'alt-only', headingOffset: 3 })}</div>`;
    case 'metrics': return metrics(block);
    case 'table': return table(block, key, ctx);
    case 'diff': return diff(block, ctx);
    case 'notice': return notice(block, ctx);
  }
}

function metrics(block: MetricsBlock): TemplateResult {
  return html`<dl class="block metrics" part="block metrics">${block.items.map((item) => html`
    <div class="metric"><dt>${item.label}</dt><dd class="metric-value">${item.value}</dd>${item.detail
      ? html`<dd class="metric-detail">${item.detail}</dd>` : nothing}</div>`)}</dl>`;
}

const numberFormats = new Map<string, Intl.NumberFormat>();
function formatNumber(value: number, lang: string): string {
  let format = numberFormats.get(lang);
  if (!format) numberFormats.set(lang, (format = new Intl.NumberFormat(lang === 'zh' ? 'zh-CN' : 'en-US', { maximumFractionDigits: 20 })));
  return format.format(value);
}

function cell(value: TableCell | undefined, ctx: BlockContext): TemplateResult | string {
  if (value === null || value === undefined) return html`<span class="null" aria-hidden="true">—</span><span class="sr-only">${ctx.s.empty}</span>`;
  if (typeof value === 'number') return formatNumber(value, ctx.lang);
  if (typeof value === 'boolean') return value ? ctx.s.yes : ctx.s.no;
  return value;
}

function table(block: TableBlock, key: string, ctx: BlockContext): TemplateResult {
  const total = block.rows.length;
  const all = ctx.expanded.has(key) || total <= TABLE_INITIAL_ROWS;
  const rows = all ? block.rows : block.rows.slice(0, TABLE_INITIAL_ROWS);
  const numeric = block.columns.map((c) => block.rows.length > 0 && block.rows.every((r) => typeof r[c.id] === 'number' || r[c.id] === null || r[c.id] === undefined));
  return html`<div class="block table-block" part="block table">
    <div class="table-scroll" role="region" tabindex="0" aria-label=${ctx.s.tableRegion(total)}>
      <table>
        <thead><tr>${block.columns.map((c, i) => html`<th scope="col" class=${numeric[i] ? 'num' : ''}>${c.label}</th>`)}</tr></thead>
        <tbody>${rows.map((row) => html`<tr>${block.columns.map((c, i) => html`<td class=${numeric[i] ? 'num' : ''}>${cell(row[c.id], ctx)}</td>`)}</tr>`)}</tbody>
      </table>
    </div>
    ${all ? nothing : html`<div class="table-more"><span role="status">${ctx.s.showingRows(rows.length, total)}</span>
      <button type="button" class="button" @click=${() => ctx.expand(key)}>${ctx.s.showAllRows(total)}</button></div>`}
  </div>`;
}

function diff(block: DiffBlock, ctx: BlockContext): TemplateResult {
  const name = block.path ?? '';
  const patch = structuredPatch(name, name, block.before ?? '', block.after, '', '', { context: 3 });
  let added = 0;
  let removed = 0;
  const lines: TemplateResult[] = [];
  for (const hunk of patch.hunks) {
    lines.push(html`<span class="hunk">@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@</span>`);
    for (const line of hunk.lines) {
      const sign = line[0];
      if (sign === '\\') continue; // "\ No newline at end of file"
      if (sign === '+') added++;
      if (sign === '-') removed++;
      lines.push(html`<span class=${sign === '+' ? 'add' : sign === '-' ? 'del' : 'ctx'}>${line}</span>`);
    }
  }
  const label = block.path ? ctx.s.diffOf(block.path) : ctx.s.diffUntitled;
  return html`<figure class="block diff" part="block diff">
    <figcaption class="diff-head">
      ${block.path ? html`<code class="diff-path">${block.path}</code>` : nothing}
      ${block.before === null ? html`<span class="badge">${ctx.s.newFile}</span>` : nothing}
      ${block.language ? html`<span class="badge">${block.language}</span>` : nothing}
      <span class="diff-counts">${lines.length ? ctx.s.diffCounts(added, removed) : ctx.s.noChanges}</span>
    </figcaption>
    ${lines.length ? html`<pre class="diff-body" role="region" tabindex="0" aria-label=${label}>${lines}</pre>` : nothing}
  </figure>`;
}

function notice(block: NoticeBlock, ctx: BlockContext): TemplateResult {
  return html`<div class="block notice ${block.tone}" part="block notice" role="note">
    <strong class="notice-tone">${ctx.s.noticeTone[block.tone]}</strong>
    <span class="notice-text">${block.text}</span></div>`;
}
