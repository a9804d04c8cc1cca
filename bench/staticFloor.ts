// The render bench's fixed floor: a model's content as plain static HTML, written here by hand
// and never derived from what task-surface-view produces. A floor made of the renderer's own
// serialised markup moves with that markup: an element added per table cell made both sides
// slower and the ratio hid it. This one changes only when this file does.
import type { TaskSurfaceBlock, TaskSurfaceField, TaskSurfaceModelV1, TaskSurfaceOption } from '../protocol/index.js';

/** A break opportunity every this many characters of an unbroken run, as any page must give one. */
const RUN = 160;

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const words = (text: string) => escape(text).replace(new RegExp(`\\S{${RUN}}`, 'gu'), '$&<wbr>');

/** Headings, paragraphs and `**bold**`: all the markdown the maximal model uses. */
function markdown(text: string): string {
  return text
    .split(/\n+/)
    .map((line) => {
      const heading = /^(#{1,6})\s+(.*)$/.exec(line);
      const inline = (s: string) => words(s).replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>');
      return heading ? `<h${heading[1]!.length + 2}>${inline(heading[2]!)}</h${heading[1]!.length + 2}>` : `<p>${inline(line)}</p>`;
    })
    .join('');
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return words(String(value));
}

function block(b: TaskSurfaceBlock): string {
  switch (b.kind) {
    case 'markdown':
      return `<div class="md">${markdown(b.text)}</div>`;
    case 'metrics':
      return `<dl class="metrics">${b.items
        .map(
          (m) =>
            `<div><dt>${words(m.label)}</dt><dd class="value">${words(m.value)}</dd>${m.detail ? `<dd>${words(m.detail)}</dd>` : ''}</div>`,
        )
        .join('')}</dl>`;
    case 'table':
      return `<div class="scroll" tabindex="0"><table><thead><tr>${b.columns.map((c) => `<th>${words(c.label)}</th>`).join('')}</tr></thead><tbody>${b.rows
        .map((row) => `<tr>${b.columns.map((c) => `<td>${cellText(row[c.id])}</td>`).join('')}</tr>`)
        .join('')}</tbody></table></div>`;
    case 'diff': {
      const lines = (text: string | null, mark: string) =>
        (text ?? '')
          .split('\n')
          .filter((l) => l !== '')
          .map((l) => `<span class="${mark === '-' ? 'del' : 'add'}">${mark} ${escape(l)}</span>`)
          .join('');
      return `<figure class="diff"><figcaption><code>${words(b.path ?? '')}</code> ${b.language ? words(b.language) : ''}</figcaption><pre>${lines(b.before, '-')}${lines(b.after, '+')}</pre></figure>`;
    }
    case 'notice':
      return `<div class="notice"><strong>${b.tone}</strong> ${words(b.text)}</div>`;
  }
}

const option = (type: string, name: string, o: TaskSurfaceOption, checked: boolean) =>
  `<label class="option"><input type="${type}" name="${name}"${checked ? ' checked' : ''}><span>${words(o.label)}</span>${o.detail ? `<small>${words(o.detail)}</small>` : ''}</label>`;

function field(f: TaskSurfaceField): string {
  const legend = (inner: string) => `<fieldset><legend>${words(f.label)}</legend>${inner}</fieldset>`;
  switch (f.kind) {
    case 'text': {
      const value = escape(f.initial ?? '');
      const box = f.multiline ? `<textarea id="${f.id}">${value}</textarea>` : `<input id="${f.id}" value="${value}">`;
      return `<div class="field"><label for="${f.id}">${words(f.label)}</label>${box}</div>`;
    }
    case 'choice':
      return legend(f.options.map((o) => option('radio', f.id, o, o.id === f.initial)).join(''));
    case 'multi-choice':
      return legend(f.options.map((o) => option('checkbox', f.id, o, (f.initial ?? []).includes(o.id))).join(''));
    case 'toggle':
      return `<div class="field"><label><input type="checkbox"${f.initial ? ' checked' : ''}> ${words(f.label)}</label></div>`;
    case 'order':
      return legend(`<ol>${f.options.map((o) => `<li>${words(o.label)}</li>`).join('')}</ol>`);
  }
}

const STYLE = `<style>
:host { display: block; font: 15px/1.45 system-ui, sans-serif; }
.panel { display: flex; flex-direction: column; gap: 12px; }
h2, h3 { margin: 0; } p { margin: 0 0 6px; }
.blocks { display: grid; gap: 12px; grid-template-columns: minmax(0, 1fr); }
.blocks.grid { grid-template-columns: repeat(3, minmax(0, 1fr)); }
.scroll { overflow: auto; max-height: 28rem; border: 1px solid #ccc; }
table { border-collapse: collapse; width: 100%; font-size: 14px; }
th, td { padding: 4px 9px; text-align: start; border-bottom: 1px solid #ddd; }
th { position: sticky; top: 0; background: #f4f4f4; }
.metrics { display: grid; grid-template-columns: repeat(auto-fit, minmax(8rem, 1fr)); gap: 8px; margin: 0; }
.metrics div { border: 1px solid #ccc; padding: 8px; } .metrics dd { margin: 0; } .value { font-size: 20px; }
.diff { margin: 0; border: 1px solid #ccc; } figcaption { padding: 6px; background: #f4f4f4; }
pre { margin: 0; overflow-x: auto; font: 13px monospace; } pre span { display: block; white-space: pre; }
.add { background: #e6ffec; } .del { background: #ffebe9; }
.notice { padding: 8px 12px; border: 1px solid #ccc; border-inline-start-width: 4px; overflow-wrap: break-word; }
.md { overflow-wrap: break-word; }
fieldset, .field { display: flex; flex-direction: column; gap: 4px; border: 0; padding: 0; margin: 0; }
.option { display: flex; gap: 8px; } small { display: block; color: #666; }
input, textarea { font: inherit; }
button { font: inherit; padding: 6px 14px; }
</style>`;

/** `model` as static HTML with a small stylesheet of its own, for a shadow root's `innerHTML`. */
export function staticFloor(model: TaskSurfaceModelV1): string {
  const sections = model.sections
    .map(
      (s) =>
        `<section>${s.title ? `<h3>${words(s.title)}</h3>` : ''}<div class="blocks${s.layout?.kind === 'grid' ? ' grid' : ''}">${s.blocks.map(block).join('')}</div></section>`,
    )
    .join('');
  const fields = (model.fields ?? []).map(field).join('');
  return `${STYLE}<div class="panel"><h2>${words(model.title)}</h2>${model.description ? `<p>${words(model.description)}</p>` : ''}${sections}<form>${fields}<button type="button">${words(model.submit.label)}</button></form></div>`;
}
