import { html, nothing, type TemplateResult } from 'lit';
import type { TaskSurfaceField, TaskSurfaceFieldValue } from '../../protocol/index.js';
import type { Strings } from '../i18n/index.js';

/** A field as a read-only answer: its label and its value in words. Used by `readonly` replays. */
export function renderAnswer(field: TaskSurfaceField, value: TaskSurfaceFieldValue | undefined, s: Strings): TemplateResult {
  const label = (id: string) => ('options' in field ? field.options.find((o) => o.id === id)?.label : undefined) ?? id;
  let body: TemplateResult | string;
  switch (field.kind) {
    case 'text':
      body = typeof value === 'string' && value !== '' ? html`<span class="answer-text">${value}</span>` : s.noAnswer;
      break;
    case 'toggle':
      body = value === true ? s.on : s.off;
      break;
    case 'choice':
      body = typeof value === 'string' ? label(value) : s.noAnswer;
      break;
    case 'multi-choice':
      body = Array.isArray(value) && value.length ? html`<ul class="answer-list">${value.map((v) => html`<li>${label(v)}</li>`)}</ul>` : s.noAnswer;
      break;
    case 'order':
      body = Array.isArray(value) && value.length ? html`<ol class="answer-list">${value.map((v) => html`<li>${label(v)}</li>`)}</ol>` : s.noAnswer;
      break;
  }
  return html`<div class="answer" part="answer"><dt>${field.label}</dt><dd>${body}</dd>${nothing}</div>`;
}
