import { html, nothing, type TemplateResult } from 'lit';
import type { TaskSurfaceField, TaskSurfaceFieldValue } from '../../protocol/index.js';
import type { Strings } from '../i18n/index.js';
import { displayText } from './text.js';

/**
 * A field as a read-only answer: its label and its value in words. Used by `readonly` replays,
 * which have no controls, so no keyboard instructions either. An empty multi-choice is an answer
 * ("None selected"); "No answer" is for a text left empty or a choice left unselected.
 */
export function renderAnswer(field: TaskSurfaceField, value: TaskSurfaceFieldValue | undefined, s: Strings): TemplateResult {
  const label = (id: string) => displayText(('options' in field ? field.options.find((o) => o.id === id)?.label : undefined) ?? id);
  const item = (id: string) => html`<li class="model-text" dir="auto">${label(id)}</li>`;
  let body: TemplateResult | string | (string | TemplateResult)[];
  // Model text is isolated on the <dd> itself: no element exists only to carry `dir`.
  let modelText: string | undefined;
  switch (field.kind) {
    case 'text':
      if (typeof value === 'string' && /\S/.test(value)) [body, modelText] = [displayText(value), 'answer-text model-text'];
      else body = s.noAnswer;
      break;
    case 'toggle':
      body = value === true ? s.on : s.off;
      break;
    case 'choice':
      if (typeof value === 'string') [body, modelText] = [label(value), 'model-text'];
      else body = s.noAnswer;
      break;
    case 'multi-choice':
      body = Array.isArray(value) && value.length ? html`<ul class="answer-list">${value.map(item)}</ul>` : s.noneSelected;
      break;
    case 'order':
      body = Array.isArray(value) && value.length ? html`<ol class="answer-list">${value.map(item)}</ol>` : s.noAnswer;
      break;
  }
  return html`<div class="answer" part="answer"><dt class="model-text clamp" dir="auto" title=${field.label}>${displayText(field.label)}</dt><dd class=${modelText ?? nothing} dir=${modelText ? 'auto' : nothing}>${body}</dd></div>`;
}
