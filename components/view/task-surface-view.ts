import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { property, state } from 'lit/decorators.js';
import { guard } from 'lit/directives/guard.js';
import type { TaskSurfaceField, TaskSurfaceFieldValue, TaskSurfaceModelV1, TaskSurfaceValues } from '../../protocol/index.js';
import { dirOf, formatTag, langTag, strings, type Lang } from '../i18n/index.js';
import { LocaleController } from '../i18n/localeController.js';
import { emit } from '../shared/events.js';
import { LazyModulesController, lazyModulesArrived, settledUpdate } from '../shared/lazy.js';
import { themeStyles } from '../shared/theme.js';
import { initialValuesOf, missingRequired } from '../shared/values.js';
import { markdownStyles } from '../markdown/markdown.styles.js';
import { renderAnswer } from './answers.js';
import { renderBlock, type BlockContext } from './blocks.js';
import { fieldDomId, renderField, type FieldContext } from './fields.js';
import { heading, headingLevel } from './heading.js';
import { diffShareOf } from './diffLines.js';
import { OrderFieldController } from './orderFieldController.js';
import { displayText } from './text.js';
import { modelTextStyles } from './modelText.styles.js';
import { viewStyles } from './task-surface-view.styles.js';

/**
 * The declarative renderer: title, description, sections (stack or grid), every block kind and
 * every field kind of a normalised TaskSurfaceModelV1, and the submit button. It edits its own
 * `values` and reports each change; `readonly` shows the same model with its values as answers.
 * It sends nothing: the Dock owns submission.
 *
 * @fires task-surface-value-change - A field changed: `{ fieldId, value, values }`.
 * @fires task-surface-submit - The submit button was pressed and every required field is filled: `{ values }`.
 * @slot actions - Extra controls placed after the submit button (the Dock puts Dismiss here).
 * @slot note - Placed after the fields, before the submit row (the Dock puts its note here).
 * @csspart base - The outer wrapper.
 * @csspart context - Title, description and sections (everything before the fields).
 * @csspart header - Title and description.
 * @csspart section - One section.
 * @csspart block - Every block; also `markdown`, `metrics`, `table`, `diff`, `notice` by kind.
 * @csspart fields - The fields' wrapper.
 * @csspart field - One editable field.
 * @csspart answer - One read-only answer.
 * @csspart actions - The submit row.
 * @csspart submit - The submit button.
 * @cssproperty --task-surface-bg - Background.
 * @cssproperty --task-surface-fg - Text colour.
 * @cssproperty --task-surface-muted - Secondary text colour.
 * @cssproperty --task-surface-border - Borders.
 * @cssproperty --task-surface-control-border - Edges of inputs, the switch track and order items (keep 3:1 against the background).
 * @cssproperty --task-surface-accent - Links, focus and selection.
 * @cssproperty --task-surface-accent-bg - Primary button background.
 * @cssproperty --task-surface-radius - Corner radius.
 * @cssproperty --task-surface-font - Font family.
 */
export class TaskSurfaceView extends LitElement {
  static override styles = [themeStyles, markdownStyles, modelTextStyles, viewStyles];

  /** The normalised model to render. */
  @property({ attribute: false }) accessor model: TaskSurfaceModelV1 | null = null;
  /** Field values; when unset, the model's initial values. Edits replace this object. */
  @property({ attribute: false }) accessor values: TaskSurfaceValues | undefined = undefined;
  /** Shows values as answers, with no controls. */
  @property({ type: Boolean, reflect: true }) accessor readonly = false;
  /** Disables every control (a submission is on its way). */
  @property({ type: Boolean, reflect: true }) accessor disabled = false;
  /**
   * The model is still being written (a streaming call's preview): fields show as disabled
   * controls and the submit row keeps its place, invisible and inert, so the same elements become
   * the answerable panel without moving.
   */
  @property({ type: Boolean, reflect: true }) accessor preview = false;

  /** No control answers: a submission is out, or the model is still being written. */
  private get locked(): boolean {
    return this.disabled || this.preview;
  }
  /**
   * Level of the title's heading (1–6, default 2); section titles are one level below and markdown
   * headings below those, so the page can fit the panel into its own outline.
   */
  @property({ type: Number, attribute: 'heading-level' }) accessor headingLevel = 2;
  /** Leaves out the title (the Dock shows it in its own header). */
  @property({ type: Boolean, attribute: 'hide-title' }) accessor hideTitle = false;
  /** Makes the description and sections one focusable, labelled region (the Dock bounds and scrolls it). */
  @property({ type: Boolean, attribute: 'context-region' }) accessor contextRegion = false;
  /**
   * Shows every table row up front (for review, printing or a page with room), instead of the first
   * 50 and a "Show all" button.
   */
  @property({ type: Boolean, attribute: 'all-rows' }) accessor allRows = false;
  /** Language of the chrome: a BCP 47 tag (`en`, `zh`, `es`, `de`, `ja`, `ar` ship; see `registerLocale`). */
  @property({ reflect: true }) override accessor lang: Lang = 'en';
  /** `light` or `dark`; unset follows `prefers-color-scheme`. */
  @property({ reflect: true }) accessor theme: 'light' | 'dark' | undefined = undefined;

  @state() private accessor expanded: ReadonlyMap<string, number> = new Map();
  /** A block key whose newly shown rows or lines take focus after the next update. */
  private revealKey: string | undefined;
  @state() private accessor invalidIds: ReadonlySet<string> = new Set();
  @state() private accessor announcement = '';

  constructor() {
    super();
    new LazyModulesController(this); // markdown and diff blocks render again when their library lands
    new LocaleController(this); // a locale registered after mounting shows at once
  }

  /** Resolves once markdown and diff blocks show rendered, not as their plain-text placeholders. */
  protected override getUpdateComplete(): Promise<boolean> {
    return settledUpdate(() => super.getUpdateComplete());
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // A preview grows into its panel: what the person expanded in it stays expanded.
    const grows = this.preview || (changed.has('preview') && changed.get('preview') === true);
    if (changed.has('model') && changed.get('model') !== undefined && !grows) {
      this.expanded = new Map();
      this.invalidIds = new Set();
      this.orderFields.reset();
    }
  }

  /** The values shown: `values`, or the model's initial values. */
  get currentValues(): TaskSurfaceValues {
    return this.values ?? (this.model ? initialValuesOf(this.model) : {});
  }

  override render() {
    const model = this.model;
    if (!model) return nothing;
    const s = strings(this.lang);
    const lang = formatTag(this.lang);
    const level = headingLevel(this.headingLevel, 2);
    const blocks: BlockContext = {
      s,
      lang,
      allRows: this.allRows,
      expanded: this.expanded,
      headingOffset: Math.min(5, level + 1),
      diffShare: diffShareOf(model),
      expand: (key) => this.expand(key),
    };
    const fields = model.fields ?? [];
    const region = this.contextRegion;
    const hasContext = !(this.hideTitle && !model.description) || model.sections.length > 0;
    // Sections are plain <section>s without a name: a panel of several must not add a landmark each.
    return html`<div class="base" part="base" lang=${langTag(this.lang)} dir=${dirOf(this.lang)}>
      ${
        hasContext
          ? html`<div class="context" part="context" role=${region ? 'region' : nothing} tabindex=${region ? '0' : nothing} aria-label=${region ? s.contextRegion : nothing}>
      ${
        this.hideTitle && !model.description
          ? nothing
          : html`<div class="header" part="header">
        ${this.hideTitle ? nothing : heading(level, displayText(model.title), { className: 'title model-text clamp', title: model.title })}
        ${model.description ? html`<p class="description model-text" dir="auto">${displayText(model.description)}</p>` : nothing}
      </div>`
      }
      ${guard([model, lang, level, this.expanded, this.allRows, lazyModulesArrived()], () =>
        model.sections.map(
          (section, i) => html`
        <section class="section" part="section">
          ${section.title ? heading(level + 1, displayText(section.title), { className: 'section-title model-text clamp', title: section.title }) : nothing}
          <div class="blocks ${section.layout?.kind === 'grid' ? `grid cols-${section.layout.columns}` : 'stack'}">
            ${section.blocks.map((block, j) => renderBlock(block, `${i}.${j}`, blocks))}
          </div>
        </section>`,
        ),
      )}
      </div>`
          : nothing
      }
      ${
        fields.length === 0
          ? nothing
          : this.readonly
            ? html`<dl class="fields answers" part="fields">${fields.map((f) => renderAnswer(f, this.currentValues[f.id], s))}</dl>`
            : html`<div class="fields" part="fields">${fields.map((f, i) => renderField(f, i, this.fieldContext))}</div>`
      }
      ${
        this.readonly
          ? nothing
          : html`<slot name="note"></slot><div class="actions" part="actions" ?inert=${this.preview}>
        <button type="button" class="button primary" part="submit" ?disabled=${this.locked} @click=${this.onSubmit}><span class="model-text clamp" dir="auto" title=${model.submit.label}>${displayText(model.submit.label)}</span></button>
        <slot name="actions"></slot>
      </div>`
      }
      <div class="sr-only" role="status" aria-live="polite">${this.announcement}</div>
    </div>`;
  }

  private expand(key: string): void {
    this.revealKey = key;
    this.expanded = new Map([...this.expanded, [key, (this.expanded.get(key) ?? 1) + 1]]);
  }

  protected override updated(): void {
    for (const grid of this.renderRoot.querySelectorAll<HTMLElement>('.order-grid[data-rows]')) {
      if (grid.style.getPropertyValue('--rows') !== grid.dataset['rows']) grid.style.setProperty('--rows', grid.dataset['rows']!);
    }
    // "Show all" / "Show more": focus the first row or line just shown, never <body>.
    const key = this.revealKey;
    if (key === undefined) return;
    this.revealKey = undefined;
    [...this.renderRoot.querySelectorAll<HTMLElement>('[data-reveal]')].find((e) => e.dataset['reveal'] === key)?.focus();
  }

  private fieldAt(target: EventTarget | null): [TaskSurfaceField, HTMLElement] | undefined {
    const el = (target as HTMLElement | null)?.closest<HTMLElement>('[data-field]');
    const field = el ? this.model?.fields?.[Number(el.dataset['field'])] : undefined;
    return field && el ? [field, el] : undefined;
  }

  private setValue(field: TaskSurfaceField, value: TaskSurfaceFieldValue): void {
    const values = { ...this.currentValues, [field.id]: value };
    this.values = values;
    if (this.invalidIds.has(field.id) && typeof value === 'string' && value.trim() !== '') {
      const next = new Set(this.invalidIds);
      next.delete(field.id);
      this.invalidIds = next;
    }
    emit(this, 'task-surface-value-change', { fieldId: field.id, value, values });
  }

  private focusOption(index: number, optionId: string, selector: string): void {
    const el = [...this.renderRoot.querySelectorAll<HTMLElement>(`${selector}[data-field="${index}"]`)].find(
      (e) => e.dataset['value'] === optionId,
    );
    el?.focus();
  }

  private readonly orderFields = new OrderFieldController(this, {
    fieldAt: (target) => this.fieldAt(target),
    locked: () => this.locked,
    setValue: (field, ids) => this.setValue(field, ids),
    announce: (text) => (this.announcement = text),
    focusOption: (index, optionId) => this.focusOption(index, optionId, '[role="option"]'),
  });

  private readonly fieldContext: FieldContext = this.makeFieldContext();

  private makeFieldContext(): FieldContext {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- getters below need the element
    const self = this;
    return {
      get s() {
        return strings(self.lang);
      },
      get disabled() {
        return self.locked;
      },
      value: (id) => this.currentValues[id],
      invalid: (id) => this.invalidIds.has(id),
      onText: (e) => {
        const hit = this.fieldAt(e.target);
        if (hit) this.setValue(hit[0], (e.target as HTMLInputElement).value);
      },
      onRadioClick: (e) => {
        const hit = this.fieldAt(e.target);
        if (!hit || this.locked || hit[1].getAttribute('role') !== 'radio') return;
        this.setValue(hit[0], hit[1].dataset['value']!);
        hit[1].focus();
      },
      onRadioKey: (e) => {
        const hit = this.fieldAt(e.target);
        if (!hit || hit[0].kind !== 'choice') return;
        const [field, el] = hit;
        const ids = field.options.map((o) => o.id);
        const at = ids.indexOf(el.dataset['value']!);
        const step = e.key === 'ArrowDown' || e.key === 'ArrowRight' ? 1 : e.key === 'ArrowUp' || e.key === 'ArrowLeft' ? -1 : 0;
        if (step === 0 && e.key !== ' ') return;
        e.preventDefault();
        if (this.locked) return;
        const next = ids[(at + step + ids.length) % ids.length]!;
        this.setValue(field, next);
        this.focusOption(this.model!.fields!.indexOf(field), next, '[role="radio"]');
      },
      onCheckbox: (e) => {
        const hit = this.fieldAt(e.target);
        if (!hit || hit[0].kind !== 'multi-choice') return;
        const root = hit[1].closest('[role="group"]')!;
        const checked = new Set([...root.querySelectorAll<HTMLInputElement>('input:checked')].map((i) => i.dataset['value']!));
        this.setValue(
          hit[0],
          hit[0].options.map((o) => o.id).filter((id) => checked.has(id)),
        );
      },
      onSwitch: (e) => {
        const hit = this.fieldAt(e.target);
        if (hit && !this.locked) this.setValue(hit[0], this.currentValues[hit[0].id] !== true);
      },
      ...this.orderFields.context,
    };
  }

  private onSubmit = (): void => {
    const model = this.model;
    if (!model || this.locked) return;
    const missing = missingRequired(model, this.currentValues);
    if (missing.length) {
      this.invalidIds = new Set(missing);
      const index = (model.fields ?? []).findIndex((f) => f.id === missing[0]);
      void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>(`#${fieldDomId(index)}`)?.focus());
      return;
    }
    emit(this, 'task-surface-submit', { values: this.currentValues });
  };
}

if (!customElements.get('task-surface-view')) customElements.define('task-surface-view', TaskSurfaceView);

declare global {
  interface HTMLElementTagNameMap {
    'task-surface-view': TaskSurfaceView;
  }
}
