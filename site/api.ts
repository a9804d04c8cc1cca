import { html, nothing, type TemplateResult } from 'lit';
import type { ApiRow, ElementApi } from './apiData.js';

/** `code` spans of a JSDoc sentence as <code>, the rest as text (never parsed as HTML). */
export function inlineCode(text: string): (TemplateResult | string)[] {
  return text
    .split(/(`[^`]+`)/)
    .map((part) => (part.startsWith('`') && part.endsWith('`') && part.length > 1 ? html`<code>${part.slice(1, -1)}</code>` : part));
}

let api: Promise<Record<string, ElementApi>> | undefined;

/** The elements' API the build took from custom-elements.json (data/api.json). */
export function loadApi(): Promise<Record<string, ElementApi>> {
  api ??= fetch(new URL('./data/api.json', document.baseURI)).then((r) => {
    if (!r.ok) throw new Error(`data/api.json: HTTP ${r.status}`);
    return r.json() as Promise<Record<string, ElementApi>>;
  });
  return api;
}

const TABLES: {
  key: keyof Pick<ElementApi, 'properties' | 'attributes' | 'events' | 'slots' | 'parts' | 'cssProperties'>;
  title: string;
  also?: string;
}[] = [
  { key: 'properties', title: 'Properties', also: 'Attribute' },
  { key: 'attributes', title: 'Attributes', also: 'Property' },
  { key: 'events', title: 'Events' },
  { key: 'slots', title: 'Slots' },
  { key: 'parts', title: 'CSS parts' },
  { key: 'cssProperties', title: 'CSS custom properties' },
];

function table(rows: ApiRow[], title: string, id: string, also?: string) {
  if (rows.length === 0) return html`<h3 id=${id}>${title}</h3><p class="none">None.</p>`;
  const typed = rows.some((r) => r.type !== undefined);
  return html`<h3 id=${id}>${title}</h3>
    <div class="table-wrap" tabindex="0" role="region" aria-labelledby=${id}>
      <table>
        <thead>
          <tr>
            <th scope="col">Name</th>
            ${typed ? html`<th scope="col">Type (default)</th>` : nothing}
            <th scope="col">Description</th>
          </tr>
        </thead>
        <tbody>
          ${rows.map(
            (r) =>
              html`<tr>
                <th scope="row">
                  <code>${r.name}</code>${r.readonly ? html` <span class="tag">read-only</span>` : nothing}
                  ${also && r.also ? html`<div class="also">${also.toLowerCase()}: <code>${r.also}</code></div>` : nothing}
                </th>
                ${
                  typed
                    ? html`<td>${r.type ? html`<code>${r.type}</code>` : ''}${r.default ? html`<div class="also">= <code>${r.default}</code></div>` : nothing}</td>`
                    : nothing
                }
                <td>${inlineCode(r.description)}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
}

/** An element's API: every table of its manifest entry. */
export function apiSection(element: ElementApi): TemplateResult {
  return html`<section class="api" aria-labelledby="api-title">
    <h2 id="api-title">API</h2>
    <p class="from">From <code>custom-elements.json</code> (class <code>${element.className}</code>, <code>${element.module}</code>).</p>
    ${TABLES.map((t) => table(element[t.key], t.title, `api-${t.key}`, t.also))}
  </section>`;
}
