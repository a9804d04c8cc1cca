import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { consume } from '@lit/context';
import { property, state } from 'lit/decorators.js';
import type { SessionId, TaskSurfaceValues } from '../../protocol/index.js';
import { SHOW_TASK_SURFACE } from '../../protocol/tool.js';
import type { HostTransport } from '../../transport/types.js';
import { dirOf, langTag, strings, type Lang } from '../i18n/index.js';
import { LocaleController } from '../i18n/localeController.js';
import { transportContext } from '../shared/context.js';
import { LazyModulesController, lazyModule, settledUpdate } from '../shared/lazy.js';
import { themeStyles } from '../shared/theme.js';
import { modelTextStyles } from '../view/modelText.styles.js';
import '../view/task-surface-view.js';
import { headingLevel } from '../view/heading.js';
import { displayText } from '../view/text.js';
import { StatusController } from './statusController.js';
import type { SurfaceStatus } from './surfaceStatus.js';
import { toolviewStyles } from './task-surface-toolview.styles.js';
import type { ParsedToolResult } from './toolviewParse.js';

/** The model's schemas: a chunk of the drop-in bundle, fetched when the first row with a meta renders. */
const parser = lazyModule(() => import('./toolviewParse.js'));

/** The nested renderer's parts, re-exported with a `view-` prefix (as the Dock does). */
const VIEW_PARTS = 'base:view-base, header:view-header, section:view-section, block:view-block, fields:view-fields, answer:view-answer';

/**
 * The read-only transcript row of a `show_task_surface` result: the title, whether the surface
 * is open, submitted, dismissed or bypassed, and an expandable read-only replay. It never edits.
 * While the surface is open the row is only a pointer to the Dock ("Answer in the panel below"):
 * a second copy of the question would show the original values, not the draft.
 * The model is parsed with the limits the Host wrote into the meta (else the defaults), so the
 * row renders whatever the Host accepted.
 * Status: open while the session projection's active surface is this one; otherwise the Host's record
 * of how it closed (`taskSurface.getOutcome`), unless the page sets `status`. With an unknown
 * version, malformed metadata, another tool name, or no transport, it shows the plain result text.
 *
 * @csspart base - The row.
 * @csspart summary - Title and status line.
 * @csspart status - The status badge.
 * @csspart toggle - The show/hide replay button.
 * @csspart replay - The read-only replay wrapper.
 * @csspart fallback - The plain result text.
 * @csspart pointer - While open: the line that points to the Dock.
 * @csspart view - The nested read-only `task-surface-view`; its parts are exported as `view-base`,
 *   `view-header`, `view-section`, `view-block`, `view-fields`, `view-answer`.
 * @cssproperty --task-surface-bg - Row background (and every token of `task-surface-view`).
 */
export class TaskSurfaceToolview extends LitElement {
  static override styles = [themeStyles, modelTextStyles, toolviewStyles];

  /** The tool's name; anything but `show_task_surface` falls back to `content`. */
  @property() accessor name = SHOW_TASK_SURFACE;
  /** The tool result's plain text (shown as the fallback). */
  @property() accessor content = '';
  /** The tool result's `meta` (TaskSurfacePresentationMeta). */
  @property({ attribute: false }) accessor meta: unknown = undefined;
  @property({ attribute: 'session-id' }) accessor sessionId: SessionId | undefined = undefined;
  /** The Host connection; when unset, one provided through `transportContext`. */
  @property({ attribute: false }) accessor transport: HostTransport | undefined = undefined;
  /** Set by a page that already knows the outcome: nothing is watched or asked. */
  @property() accessor status: SurfaceStatus | undefined = undefined;
  /** Level of the replay's first headings (its section titles), 1–6; default 2, fitting a transcript under the page's h1. */
  @property({ type: Number, attribute: 'heading-level' }) accessor headingLevel = 2;
  @property({ reflect: true }) override accessor lang: Lang = 'en';
  @property({ reflect: true }) accessor theme: 'light' | 'dark' | undefined = undefined;

  @consume({ context: transportContext, subscribe: true })
  private accessor contextTransport: HostTransport | undefined = undefined;

  @state() private accessor expanded = false;

  /** The surface the meta carries; null: show the fallback; undefined: the parser is on its way. */
  private parsed: ParsedToolResult | null | undefined = null;
  private readonly lazy = new LazyModulesController(this);
  private readonly locales = new LocaleController(this);
  private readonly statusWatch = new StatusController(this, () => ({
    transport: this.transport ?? this.contextTransport,
    sessionId: this.sessionId,
    surfaceId: this.parsed?.surfaceId,
    enabled: !this.status,
  }));

  protected override willUpdate(changed: PropertyValues<this>): void {
    const reconnected = changed.has('transport') || changed.has('contextTransport' as keyof TaskSurfaceToolview);
    if (changed.has('meta') || changed.has('name') || reconnected || this.parsed === undefined) this.parsed = this.parse();
    this.statusWatch.sync();
  }

  /** `updateComplete` resolves once the row shows the parsed surface (or the fallback), not the placeholder. */
  protected override getUpdateComplete(): Promise<boolean> {
    return settledUpdate(() => super.getUpdateComplete());
  }

  private parse(): ParsedToolResult | null | undefined {
    if (this.name !== SHOW_TASK_SURFACE || typeof this.meta !== 'object' || this.meta === null) return null;
    if (!(this.transport ?? this.contextTransport)) return null; // the plain text: no parser is fetched for it
    const module = parser.get();
    if (module) return module.parseToolResultMeta(this.meta);
    // The parser failed to load: the plain result text, as for a meta the row cannot read.
    return parser.failed() ? null : undefined;
  }

  override render() {
    const parsed = this.parsed;
    const s = strings(this.lang);
    const connected = Boolean(this.transport ?? this.contextTransport);
    if (parsed === undefined && connected) return this.placeholder(s.taskSurface);
    if (!parsed || !connected) {
      return html`<p class="fallback model-text" part="base fallback" dir="auto">${displayText(this.content)}</p>`;
    }
    const outcome = this.status ? undefined : this.statusWatch.outcome;
    const status = this.status ?? outcome?.status;
    const values: TaskSurfaceValues | undefined = outcome?.values;
    const summary = html`<div class="summary" part="summary">
        <span class="kind">${s.taskSurface}</span>
        <span class="title model-text clamp" dir="auto" title=${parsed.model.title}>${displayText(parsed.model.title)}</span>
        ${status ? html`<span class="status ${status}" part="status"><span class="sr-only">${s.statusLabel}: </span>${s.status[status]}</span>` : nothing}
      </div>`;
    if (status === 'open') {
      return html`<div class="base" part="base" lang=${langTag(this.lang)} dir=${dirOf(this.lang)}>${summary}
        <p class="pointer" part="pointer">${s.answerInDock}</p></div>`;
    }
    return html`<div class="base" part="base" lang=${langTag(this.lang)} dir=${dirOf(this.lang)}>
      ${summary}
      <button type="button" class="button toggle" part="toggle" aria-expanded=${this.expanded ? 'true' : 'false'} aria-controls="replay"
        @click=${() => {
          this.expanded = !this.expanded;
        }}>${this.expanded ? s.hideReplay : s.showReplay}</button>
      <div id="replay" class="replay" part="replay" ?hidden=${!this.expanded}>
        ${this.expanded ? html`<task-surface-view part="view" exportparts=${VIEW_PARTS} readonly hide-title heading-level=${Math.max(1, headingLevel(this.headingLevel, 2) - 1)} .model=${parsed.model} .values=${values} lang=${this.lang} theme=${this.theme ?? nothing}></task-surface-view>` : nothing}
      </div>
    </div>`;
  }

  /**
   * While the parser loads: the row's frame with the title the meta names, as plain text (it is
   * not checked yet: no status, no replay), so the transcript does not jump when the row fills in.
   */
  private placeholder(kind: string) {
    const model = (this.meta as { model?: unknown }).model;
    const title = typeof model === 'object' && model !== null ? (model as { title?: unknown }).title : undefined;
    return html`<div class="base" part="base" aria-busy="true" lang=${langTag(this.lang)} dir=${dirOf(this.lang)}>
      <div class="summary" part="summary">
        <span class="kind">${kind}</span>
        ${typeof title === 'string' ? html`<span class="title model-text clamp" dir="auto">${displayText(title.slice(0, 500))}</span>` : nothing}
      </div>
    </div>`;
  }
}

if (!customElements.get('task-surface-toolview')) customElements.define('task-surface-toolview', TaskSurfaceToolview);

declare global {
  interface HTMLElementTagNameMap {
    'task-surface-toolview': TaskSurfaceToolview;
  }
}
