import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { consume } from '@lit/context';
import { property, query } from 'lit/decorators.js';
import type { DockMachineEmitted } from '../../machines/dockMachine.js';
import type { SessionId, TaskSurfaceValues } from '../../protocol/index.js';
import type { HostTransport } from '../../transport/types.js';
import { strings, type Lang } from '../i18n/index.js';
import { transportContext } from '../shared/context.js';
import { emit, type FocusReturnReason } from '../shared/events.js';
import { themeStyles } from '../shared/theme.js';
import '../view/task-surface-view.js';
import { DockController, type InspectOption } from './dockController.js';
import { dockStyles } from './task-surface-dock.styles.js';

/**
 * The only Task Surface editor. Mount one above the composer: it watches the session's projection,
 * reads the active surface with `getActive` (independently of which transcript rows are loaded),
 * keeps drafts per session in `localStorage`, submits and dismisses with client-minted ids, and
 * stays disabled while a submission is queued or claiming. `hidden` keeps it mounted with its draft.
 *
 * @fires task-surface-submit-request - Cancelable; before a submission is sent: `{ surfaceId, values }`.
 * @fires task-surface-submitted - The Host accepted the submission: `{ surfaceId, submissionId, messageId }`.
 * @fires task-surface-rejected - A submit or dismiss was refused or could not reach the Host: `{ surfaceId, action, reason }`.
 * @fires task-surface-dismiss-request - Cancelable; before a dismissal is sent: `{ surfaceId }`.
 * @fires task-surface-dismissed - The dismissal was recorded: `{ surfaceId }`.
 * @fires task-surface-closed - The active surface closed and the Dock hid itself: `{ surfaceId }`.
 * @fires task-surface-focus-return - Cancelable; before focus moves after submit, dismiss or close: `{ reason, target }`.
 * @fires task-surface-collapse-change - Collapsed or expanded (local only): `{ collapsed }`.
 * @csspart base - The Dock's panel.
 * @csspart header - Title row with the collapse button.
 * @csspart title - The surface title.
 * @csspart collapse - The collapse/expand button.
 * @csspart body - The renderer's wrapper (hidden while collapsed).
 * @csspart view - The nested `task-surface-view`; its parts are exported as `view-base`, `view-header`,
 *   `view-section`, `view-block`, `view-fields`, `view-field`, `view-actions`, `view-submit`.
 * @csspart dismiss - The dismiss button.
 * @csspart status - The status line (pending phase, rejection reason).
 * @cssproperty --task-surface-bg - Panel background (and every token of `task-surface-view`).
 * @cssproperty --task-surface-dock-max-height - Height above which the body scrolls (default 70vh).
 * @cssproperty --task-surface-dock-shadow - Panel shadow.
 */
export class TaskSurfaceDock extends LitElement {
  static override styles = [themeStyles, dockStyles];

  /** The session whose active surface this Dock edits. */
  @property({ attribute: 'session-id' }) accessor sessionId: SessionId | undefined = undefined;
  /** The Host connection; when unset, one provided through `transportContext` by an ancestor. */
  @property({ attribute: false }) accessor transport: HostTransport | undefined = undefined;
  /** Language of the chrome: `en` or `zh`. */
  @property({ reflect: true }) override accessor lang: Lang = 'en';
  /** `light` or `dark`; unset follows `prefers-color-scheme`. */
  @property({ reflect: true }) accessor theme: 'light' | 'dark' | undefined = undefined;
  /** Where focus goes after submit or dismiss; default: where it was before it entered the Dock. */
  @property({ attribute: false }) accessor focusReturnTarget: HTMLElement | null = null;
  /** A composer takeover: hidden like `hidden`, still mounted, keeps its draft. */
  @property({ type: Boolean, reflect: true }) accessor takeover = false;
  /** An XState inspection observer, passed to the Dock's actor. */
  @property({ attribute: false }) accessor inspect: InspectOption | undefined = undefined;
  /** Draft storage (default `localStorage`; `null` keeps drafts in memory). Set before connecting. */
  @property({ attribute: false }) accessor draftStorage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null | undefined = undefined;

  @consume({ context: transportContext, subscribe: true })
  private accessor contextTransport: HostTransport | undefined = undefined;

  @query('.title') private accessor titleEl!: HTMLElement | null;

  private lastOutsideFocus: HTMLElement | null = null;
  /** Where focus was when the current surface opened (the composer, usually). */
  private focusAtOpen: HTMLElement | null = null;
  private openedFor: string | undefined;

  private readonly dock = new DockController(
    this,
    () => ({ transport: this.transport ?? this.contextTransport, sessionId: this.sessionId, inspect: this.inspect, ...(this.draftStorage !== undefined ? { storage: this.draftStorage } : {}) }),
    (event) => this.onEmitted(event),
  );

  constructor() {
    super();
    this.addEventListener('focusin', (e) => {
      const from = e.relatedTarget as HTMLElement | null;
      if (from && !this.contains(from) && !this.shadowRoot?.contains(from)) this.lastOutsideFocus = from;
    });
  }

  /** The Dock's state: `hidden`, `loading`, `editing`, `submitting`, `pending`, `rejected` or `dismissing`. */
  get state(): string {
    return String(this.dock.snapshot?.value ?? 'hidden');
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('transport') || changed.has('sessionId') || changed.has('inspect') || changed.has('contextTransport' as keyof TaskSurfaceDock)) this.dock.sync();
    const surfaceId = this.dock.snapshot?.context.active?.surfaceId;
    if (surfaceId !== this.openedFor) {
      this.openedFor = surfaceId;
      this.lastOutsideFocus = null;
      const focused = deepActiveElement();
      this.focusAtOpen = focused && !this.contains(focused) && focused !== this ? focused : null;
    }
  }

  protected override updated(): void {
    this.setAttribute('state', this.state);
  }

  override render() {
    const snapshot = this.dock.snapshot;
    const s = strings(this.lang);
    const model = snapshot?.context.model;
    if (!snapshot || snapshot.matches('hidden') || !model) {
      return snapshot?.matches('loading') ? html`<p class="status" part="status" role="status">${s.loading}</p>` : nothing;
    }
    const { collapsed, rejection, phase } = snapshot.context;
    const locked = !(snapshot.matches('editing') || snapshot.matches('rejected'));
    const status = snapshot.matches('submitting') ? s.submitting
      : snapshot.matches('dismissing') ? s.dismissing
      : snapshot.matches('pending') || (snapshot.matches('loading') && phase) ? s.pending[phase ?? 'queued']
      : snapshot.matches('rejected') && rejection ? (rejection.action === 'dismiss'
        ? s.dismissRejected[rejection.reason as keyof typeof s.dismissRejected] ?? s.rejected[rejection.reason]
        : s.rejected[rejection.reason]) : '';
    return html`<section class="base" part="base" aria-labelledby="title" aria-busy=${locked ? 'true' : 'false'}>
      <div class="header" part="header">
        <h2 class="title" id="title" part="title" tabindex="-1">${model.title}</h2>
        <button type="button" class="button ghost" part="collapse" aria-expanded=${collapsed ? 'false' : 'true'} aria-controls="body"
          @click=${this.onCollapse}>${collapsed ? s.expand : s.collapse}</button>
      </div>
      <div class="body" id="body" part="body" ?hidden=${collapsed}>
        <task-surface-view part="view" exportparts="base:view-base, header:view-header, section:view-section, block:view-block, fields:view-fields, field:view-field, actions:view-actions, submit:view-submit"
          .model=${model} .values=${this.dock.values} ?disabled=${locked} hide-title lang=${this.lang} theme=${this.theme ?? nothing}
          @task-surface-value-change=${this.onValueChange} @task-surface-submit=${this.onSubmit}>
          <button slot="actions" type="button" class="button" part="dismiss" ?disabled=${locked} @click=${this.onDismiss}>${s.dismiss}</button>
        </task-surface-view>
      </div>
      <p class=${rejection && snapshot.matches('rejected') ? 'status error' : 'status'} part="status" role="status">${status}</p>
    </section>`;
  }

  private onValueChange = (e: CustomEvent<{ values: TaskSurfaceValues }>): void => {
    e.stopPropagation();
    this.dock.setValues(e.detail.values);
  };

  private onSubmit = (e: CustomEvent<{ values: TaskSurfaceValues }>): void => {
    e.stopPropagation();
    const snapshot = this.dock.snapshot;
    const active = snapshot?.context.active;
    if (!active || !(snapshot.matches('editing') || snapshot.matches('rejected') || snapshot.matches('submitting'))) return;
    if (snapshot.matches('submitting')) return; // a double click: the attempt in flight answers it
    if (!emit(this, 'task-surface-submit-request', { surfaceId: active.surfaceId, values: e.detail.values }, { cancelable: true })) return;
    this.dock.send({ type: 'user.submit', values: e.detail.values });
  };

  private onDismiss = (): void => {
    const active = this.dock.snapshot?.context.active;
    if (!active || !emit(this, 'task-surface-dismiss-request', { surfaceId: active.surfaceId }, { cancelable: true })) return;
    this.dock.send({ type: 'user.dismiss' });
  };

  private onCollapse = (): void => {
    const collapsed = !this.dock.snapshot?.context.collapsed;
    this.dock.send({ type: collapsed ? 'user.collapse' : 'user.expand' });
    emit(this, 'task-surface-collapse-change', { collapsed });
  };

  private onEmitted(event: DockMachineEmitted): void {
    switch (event.type) {
      case 'submitted':
        emit(this, 'task-surface-submitted', { surfaceId: event.surfaceId, submissionId: event.submissionId, messageId: event.messageId });
        void this.returnFocus('submit');
        break;
      case 'rejected':
        emit(this, 'task-surface-rejected', { surfaceId: event.surfaceId, action: event.action, reason: event.reason });
        break;
      case 'dismissed':
        emit(this, 'task-surface-dismissed', { surfaceId: event.surfaceId });
        void this.returnFocus('dismiss');
        break;
      case 'closed': {
        const focusInside = this.matches(':focus-within');
        emit(this, 'task-surface-closed', { surfaceId: event.surfaceId });
        if (focusInside) void this.returnFocus('close');
        break;
      }
    }
  }

  /** Moves focus after submit, dismiss or close, unless the page cancels `task-surface-focus-return`. */
  private async returnFocus(reason: FocusReturnReason): Promise<void> {
    const remembered = [this.lastOutsideFocus, this.focusAtOpen].find((e) => e?.isConnected && e !== document.body) ?? null;
    const target = this.focusReturnTarget ?? remembered;
    if (!emit(this, 'task-surface-focus-return', { reason, target }, { cancelable: true })) return;
    await this.updateComplete;
    if (target) target.focus();
    else if (this.state !== 'hidden') this.titleEl?.focus(); // still visible (pending): its status is next to the title
  }
}

/** The focused element, looking through open shadow roots. */
function deepActiveElement(): HTMLElement | null {
  let el = document.activeElement as HTMLElement | null;
  while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement as HTMLElement;
  return el;
}

if (!customElements.get('task-surface-dock')) customElements.define('task-surface-dock', TaskSurfaceDock);

declare global {
  interface HTMLElementTagNameMap { 'task-surface-dock': TaskSurfaceDock }
}
