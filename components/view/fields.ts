import { html, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import type {
  ChoiceField,
  MultiChoiceField,
  OrderField,
  TaskSurfaceField,
  TaskSurfaceFieldValue,
  TextField,
  ToggleField,
} from '../../protocol/index.js';
import type { Strings } from '../i18n/index.js';
import { clipMarks, displayText } from './text.js';

/** What a field renderer needs from the element that hosts it. */
export interface FieldContext {
  s: Strings;
  disabled: boolean;
  value(fieldId: string): TaskSurfaceFieldValue | undefined;
  invalid(fieldId: string): boolean;
  /** The order field's selected option id. */
  orderSelection(field: OrderField): string;
  onText(e: Event): void;
  onRadioClick(e: Event): void;
  onRadioKey(e: KeyboardEvent): void;
  onCheckbox(e: Event): void;
  onSwitch(e: Event): void;
  onOrderClick(e: Event): void;
  onOrderKey(e: KeyboardEvent): void;
  onOrderButton(e: Event): void;
  onOrderPointerDown(e: PointerEvent): void;
  /** The option id being dragged in `field`, if any. */
  dragging(field: OrderField): string | undefined;
}

/** DOM id prefix of the field at `index` (field ids are free text, so they never become DOM ids). */
export const fieldDomId = (index: number) => `f${index}`;

/** One editable field, following its WAI-ARIA APG pattern. */
export function renderField(field: TaskSurfaceField, index: number, ctx: FieldContext): TemplateResult {
  switch (field.kind) {
    case 'text':
      return text(field, index, ctx);
    case 'choice':
      return choice(field, index, ctx);
    case 'multi-choice':
      return multiChoice(field, index, ctx);
    case 'toggle':
      return toggle(field, index, ctx);
    case 'order':
      return order(field, index, ctx);
  }
}

function text(field: TextField, index: number, ctx: FieldContext): TemplateResult {
  const id = fieldDomId(index);
  const value = String(ctx.value(field.id) ?? '');
  const invalid = ctx.invalid(field.id);
  const common = { id, invalid, described: invalid ? `${id}-error` : undefined };
  return html`<div class="field" part="field">
    <label class="label" for=${id}><span class="model-text clamp" dir="auto" title=${field.label}>${displayText(field.label)}</span>${field.required ? html` <span class="req">${ctx.s.required}</span>` : nothing}</label>
    ${
      field.multiline
        ? html`<textarea id=${common.id} class="input" rows="3" data-field=${index} .value=${live(value)} ?required=${field.required === true}
          ?disabled=${ctx.disabled} aria-invalid=${invalid ? 'true' : 'false'} aria-describedby=${common.described ?? nothing} @input=${ctx.onText}></textarea>`
        : html`<input id=${common.id} class="input" type="text" data-field=${index} .value=${live(value)} ?required=${field.required === true}
          ?disabled=${ctx.disabled} aria-invalid=${invalid ? 'true' : 'false'} aria-describedby=${common.described ?? nothing} @input=${ctx.onText} />`
    }
    ${invalid ? html`<p class="error" id=${`${id}-error`}>${ctx.s.requiredMissing}</p>` : nothing}
  </div>`;
}

function optionText(label: string, detail: string | undefined): TemplateResult {
  return html`<span class="option-text"><span class="model-text clamp" dir="auto" title=${label}>${displayText(label)}</span>${
    detail ? html`<span class="detail model-text clamp" dir="auto" title=${detail}>${displayText(detail)}</span>` : nothing
  }</span>`;
}

function choice(field: ChoiceField, index: number, ctx: FieldContext): TemplateResult {
  const id = fieldDomId(index);
  const value = ctx.value(field.id);
  const focusable = field.options.some((o) => o.id === value) ? value : field.options[0]?.id;
  return html`<div class="field" part="field">
    <div class="label model-text clamp" id=${`${id}-label`} dir="auto" title=${field.label}>${displayText(field.label)}</div>
    <div role="radiogroup" class="options" aria-labelledby=${`${id}-label`} aria-disabled=${ctx.disabled ? 'true' : nothing}
      @keydown=${ctx.onRadioKey} @click=${ctx.onRadioClick}>
      ${field.options.map(
        (o) => html`<div role="radio" class="option radio" data-field=${index} data-value=${o.id}
        aria-checked=${o.id === value ? 'true' : 'false'} tabindex=${o.id === focusable ? 0 : -1}>
        <span class="mark" aria-hidden="true"></span>${optionText(o.label, o.detail)}</div>`,
      )}
    </div>
  </div>`;
}

function multiChoice(field: MultiChoiceField, index: number, ctx: FieldContext): TemplateResult {
  const id = fieldDomId(index);
  const value = ctx.value(field.id);
  const checked = new Set(Array.isArray(value) ? value : []);
  return html`<div class="field" part="field">
    <div class="label model-text clamp" id=${`${id}-label`} dir="auto" title=${field.label}>${displayText(field.label)}</div>
    <div role="group" class="options" aria-labelledby=${`${id}-label`}>
      ${field.options.map(
        (o) => html`<label class="option"><input type="checkbox" data-field=${index} data-value=${o.id}
        .checked=${live(checked.has(o.id))} ?disabled=${ctx.disabled} @change=${ctx.onCheckbox} />${optionText(o.label, o.detail)}</label>`,
      )}
    </div>
  </div>`;
}

function toggle(field: ToggleField, index: number, ctx: FieldContext): TemplateResult {
  const id = fieldDomId(index);
  const on = ctx.value(field.id) === true;
  return html`<div class="field toggle-field" part="field">
    <label class="label model-text clamp" for=${id} dir="auto" title=${field.label}>${displayText(field.label)}</label>
    <button id=${id} type="button" role="switch" class="switch" data-field=${index} aria-checked=${on ? 'true' : 'false'}
      ?disabled=${ctx.disabled} @click=${ctx.onSwitch}><span class="track" aria-hidden="true"><span class="thumb"></span></span>
      <span class="switch-state" aria-hidden="true">${on ? ctx.s.on : ctx.s.off}</span></button>
  </div>`;
}

function order(field: OrderField, index: number, ctx: FieldContext): TemplateResult {
  const id = fieldDomId(index);
  const value = ctx.value(field.id);
  const ids = Array.isArray(value) ? value : field.options.map((o) => o.id);
  const labels = new Map(field.options.map((o) => [o.id, o]));
  const selected = ctx.orderSelection(field);
  const name = (optionId: string) => clipMarks(labels.get(optionId)?.label ?? optionId);
  // The move buttons sit in a column beside the listbox (a listbox may hold only options); both
  // columns share the grid's rows (subgrid), so each pair lines up with its item. The row count
  // reaches CSS as --rows, set through the CSSOM by the element (a style attribute breaks a strict CSP). Only the
  // selected item's pair is in the tab order (two stops, not two per item); a click works on any.
  return html`<div class="field" part="field">
    <div class="label model-text clamp" id=${`${id}-label`} dir="auto" title=${field.label}>${displayText(field.label)}</div>
    <p class="hint" id=${`${id}-hint`}>${ctx.s.orderHint}</p>
    <div class="order-grid" data-rows=${ids.length}>
      <ol role="listbox" class="order" aria-labelledby=${`${id}-label`} aria-describedby=${`${id}-hint`}
        aria-disabled=${ctx.disabled ? 'true' : nothing} @keydown=${ctx.onOrderKey} @click=${ctx.onOrderClick} @pointerdown=${ctx.onOrderPointerDown}>
        ${ids.map((optionId, k) => {
          const option = labels.get(optionId);
          return html`<li role="option" class="option order-item ${ctx.dragging(field) === optionId ? 'dragging' : ''}" data-field=${index} data-value=${optionId}
            aria-selected=${optionId === selected ? 'true' : 'false'} tabindex=${optionId === selected ? 0 : -1}>
            <span class="handle" aria-hidden="true" data-handle="1"></span>
            <span class="position" aria-hidden="true">${k + 1}</span>${optionText(option?.label ?? optionId, option?.detail)}</li>`;
        })}
      </ol>
      <div class="order-moves">${ids.map(
        (optionId, k) => html`<div class="move-pair">
        <button type="button" class="button icon" data-field=${index} data-value=${optionId} data-move="-1" tabindex=${optionId === selected ? 0 : -1} aria-label=${ctx.s.moveItemUp(name(optionId))}
          ?disabled=${ctx.disabled || k === 0} @click=${ctx.onOrderButton}><span aria-hidden="true">↑</span></button>
        <button type="button" class="button icon" data-field=${index} data-value=${optionId} data-move="1" tabindex=${optionId === selected ? 0 : -1} aria-label=${ctx.s.moveItemDown(name(optionId))}
          ?disabled=${ctx.disabled || k === ids.length - 1} @click=${ctx.onOrderButton}><span aria-hidden="true">↓</span></button>
      </div>`,
      )}</div>
    </div>
  </div>`;
}
