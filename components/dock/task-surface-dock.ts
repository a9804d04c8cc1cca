import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { consume } from '@lit/context';
import { property, state } from 'lit/decorators.js';
import { classMap } from 'lit/directives/class-map.js';
import { live } from 'lit/directives/live.js';
import { dockStateName, type DockMachineEmitted } from '../../machines/dockTypes.js';
import type { SessionId, TaskSurfaceValues } from '../../protocol/index.js';
import { canonicalLocale } from '../../protocol/locale.js';
import { DEFAULT_LIMITS } from '../../protocol/limitDefaults.js';
import { jsonUtf8Length } from '../../protocol/utf8.js';
import type { HostTransport } from '../../transport/types.js';
import { dirOf, langTag, strings, type Lang } from '../i18n/index.js';
import { LocaleController } from '../i18n/localeController.js';
import { transportContext } from '../shared/context.js';
import { emit } from '../shared/events.js';
import { themeStyles } from '../shared/theme.js';
import '../view/task-surface-view.js';
import { DockController, type InspectOption } from './dockController.js';
import { DockFocus } from './dockFocus.js';
import { dockStyles } from './task-surface-dock.styles.js';

/**
 * The only Task Surface editor. Mount one above the composer: it watches the session's projection,
 * reads the active surface with `getActive` (independently of which transcript rows are loaded),
 * keeps drafts per session in `localStorage`, submits and dismisses with client-minted ids, and
 * stays disabled while a submission is queued or claiming, or while it cannot tell whether a
 * request whose answer was lost reached the Host. `hidden` keeps it mounted with its draft.
 *
 * @fires task-surface-submit-request - Cancelable; before a submission is sent: `{ surfaceId, values }`.
 * @fires task-surface-submitted - The Host accepted the submission: `{ surfaceId, submissionId, messageId }`.
 * @fires task-surface-rejected - A submit or dismiss was refused or did not reach the Host: `{ surfaceId, action, reason }`.
 * @fires task-surface-dismiss-request - Cancelable; before a dismissal is sent: `{ surfaceId }`.
 * @fires task-surface-dismissed - The dismissal was recorded: `{ surfaceId }`.
 * @fires task-surface-closed - The active surface closed and the Dock hid itself: `{ surfaceId }`.
 * @fires task-surface-focus-return - Cancelable; before focus moves after submit, dismiss or close: `{ reason, target }`.
 * @fires task-surface-collapse-change - Collapsed or expanded (local only): `{ collapsed }`.
 * @csspart base - The Dock's panel (a region named "Task: <title>").
 * @csspart header - Title row with the details, size and collapse buttons.
 * @csspart title - The surface title (clamped to two lines unless full height; the full text stays in it).
 * @csspart size - The "Full height" toggle (`aria-pressed`).
 * @csspart collapse - The collapse/expand button.
 * @csspart body - The renderer's wrapper (hidden while collapsed).
 * @csspart details - The "Hide details"/"Show details" toggle of the description and sections.
 * @csspart view - The nested `task-surface-view`; its parts are exported as `view-base`, `view-context`, `view-header`,
 *   `view-section`, `view-block`, `view-fields`, `view-field`, `view-actions`, `view-submit`.
 * @csspart note - The note's wrapper (between the fields and the submit row).
 * @csspart note-toggle - The "Add a note" button.
 * @csspart note-input - The note's textarea.
 * @csspart dismiss - The dismiss button.
 * @csspart status - The status line (pending phase, rejection reason, "waiting for your answer" while collapsed).
 * @cssproperty --task-surface-bg - Panel background (and every token of `task-surface-view`).
 * @cssproperty --task-surface-dock-max-height - Height above which the body scrolls (default 70vh; on screens under 40rem wide, the viewport's height less 9rem).
 * @cssproperty --task-surface-dock-context-max-height - Height above which the description and sections scroll in their own region (default a third of the Dock's max height, 6–24rem).
 * @cssproperty --task-surface-dock-shadow - Panel shadow.
 * @cssproperty --task-surface-dock-edge - The panel's border (default: visible against the page in both themes).
 */
export class TaskSurfaceDock extends LitElement {
  static override styles = [themeStyles, dockStyles];

  /** The session whose active surface this Dock edits. */
  @property({ attribute: 'session-id' }) accessor sessionId: SessionId | undefined = undefined;
  /** The Host connection; when unset, one provided through `transportContext` by an ancestor. */
  @property({ attribute: false }) accessor transport: HostTransport | undefined = undefined;
  /**
   * Language of the chrome, and of the submitted text: a BCP 47 tag (`en`, `zh`, `es`, `de`, `ja`,
   * `ar` ship; `registerLocale` adds more). It reads the first registered tag of its fallback chain.
   */
  @property({ reflect: true }) override accessor lang: Lang = 'en';
  /** `light` or `dark`; unset follows `prefers-color-scheme`. */
  @property({ reflect: true }) accessor theme: 'light' | 'dark' | undefined = undefined;
  /** Where focus goes after submit or dismiss; default: the composer (see `composer`). */
  @property({ attribute: false }) accessor focusReturnTarget: HTMLElement | null = null;
  /**
   * The id of the page's composer, looked up in the Dock's root (document or shadow root). Without
   * it the composer is the first text entry after the Dock. Focus returns there after submit or dismiss.
   */
  @property() accessor composer: string | undefined = undefined;
  /** UTF-8 bytes of `{ values, note }` the Dock lets through (set it to the Host's `submissionBytes`). */
  @property({ type: Number, attribute: 'submission-limit' }) accessor submissionLimit: number = DEFAULT_LIMITS.submissionBytes;
  /** A composer takeover: hidden like `hidden`, still mounted, keeps its draft. */
  @property({ type: Boolean, reflect: true }) accessor takeover = false;
  /** An XState inspection observer, passed to the Dock's actor. */
  @property({ attribute: false }) accessor inspect: InspectOption | undefined = undefined;
  /** Draft storage (default `localStorage`; `null` keeps drafts in memory). Set before connecting. */
  @property({ attribute: false }) accessor draftStorage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null | undefined = undefined;

  @consume({ context: transportContext, subscribe: true })
  private accessor contextTransport: HostTransport | undefined = undefined;

  /** The panel takes all the height it may (a person's choice; kept across surfaces). */
  @state() private accessor fullHeight = false;
  @state() private accessor detailsHidden = false;
  @state() private accessor noteOpen = false;
  /** Bytes of the last attempt that was over `submissionLimit` (not sent). */
  @state() private accessor tooLarge: number | null = null;
  /**
   * The preview's status line has its words: set a frame after the panel appeared, so its live
   * region is in the page before its text (a region inserted with its text may not be announced).
   */
  @state() private accessor writingSaid = false;

  private openedFor: string | undefined;

  private readonly dock = new DockController(
    this,
    () => ({
      transport: this.transport ?? this.contextTransport,
      sessionId: this.sessionId,
      inspect: this.inspect,
      ...(this.draftStorage !== undefined ? { storage: this.draftStorage } : {}),
    }),
    (event) => this.onEmitted(event),
  );

  private readonly focusing = new DockFocus(this, () => this.dock.snapshot?.hasTag('locked') === true);

  constructor() {
    super();
    new LocaleController(this); // a locale registered after mounting shows at once
  }

  /**
   * The Dock's state: `hidden`, `loading`, `retrying`, `editing`, `submitting`, `pending`,
   * `rejected`, `dismissing`, or `preview` (a panel the agent is still writing, read-only).
   */
  get state(): string {
    if (this.previewing) return 'preview';
    if (this.dock.snapshot) return dockStateName(this.dock.snapshot.value);
    return this.dock.loadingRuntime ? 'loading' : 'hidden';
  }

  /** A streaming call's panel shows, read-only, and no surface is open in the Dock yet. */
  private get previewing(): boolean {
    return this.dock.preview !== undefined && !this.dock.snapshot?.context.model;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (
      changed.has('transport') ||
      changed.has('sessionId') ||
      changed.has('inspect') ||
      changed.has('contextTransport' as keyof TaskSurfaceDock)
    )
      this.dock.sync();
    const surfaceId = this.dock.snapshot?.context.active?.surfaceId;
    if (surfaceId !== this.openedFor) {
      this.openedFor = surfaceId;
      this.focusing.surfaceChanged();
      this.detailsHidden = false;
      this.noteOpen = false;
      this.tooLarge = null;
    }
    // A draft with a note shows it.
    if (this.dock.note !== '' && !this.noteOpen) this.noteOpen = true;
  }

  protected override updated(): void {
    this.setAttribute('state', this.state);
    if (this.previewing !== this.writingSaid) {
      if (!this.previewing) this.writingSaid = false;
      else requestAnimationFrame(() => (this.writingSaid = this.previewing));
    }
  }

  override render() {
    const snapshot = this.dock.snapshot;
    const s = strings(this.lang);
    // A preview renders the same template as the panel it becomes: the same elements, nothing moves.
    const preview = this.previewing;
    const model = snapshot?.context.model ?? this.dock.preview;
    if (!model) {
      const waiting = this.state === 'loading' ? s.loading : this.state === 'retrying' ? s.dock.retrying : '';
      return waiting
        ? html`<p class="status" part="status" role="status" lang=${langTag(this.lang)} dir=${dirOf(this.lang)}>${waiting}</p>`
        : nothing;
    }
    const collapsed = !preview && snapshot?.context.collapsed === true;
    const locked = preview || snapshot?.hasTag('locked') !== false;
    const error = (this.state === 'rejected' && snapshot?.context.rejection != null) || (this.tooLarge !== null && !locked);
    const hasContext = Boolean(model.description) || model.sections.length > 0;
    return html`<section class=${classMap({ base: true, full: this.fullHeight, preview })} part="base" aria-label=${s.dockLabel(model.title)} lang=${langTag(this.lang)} dir=${dirOf(this.lang)}>
      <div class="header" part="header">
        <h2 class="title" id="title" part="title" tabindex="-1" dir="auto" title=${model.title}>${model.title}</h2>
        <div class="tools" ?inert=${preview}>
          ${
            hasContext
              ? html`<button type="button" class="button ghost" part="details" aria-expanded=${this.detailsHidden ? 'false' : 'true'}
            ?hidden=${collapsed} @click=${this.onDetails}>${this.detailsHidden ? s.dock.showDetails : s.dock.hideDetails}</button>`
              : nothing
          }
          <button type="button" class="button ghost" part="size" aria-pressed=${this.fullHeight ? 'true' : 'false'} ?hidden=${collapsed}
            @click=${this.onFullHeight}>${s.dock.fullHeight}</button>
          <button type="button" class="button ghost" part="collapse" aria-expanded=${collapsed ? 'false' : 'true'} aria-controls="body"
            @click=${this.onCollapse}>${collapsed ? s.expand : s.collapse}</button>
        </div>
      </div>
      <div class="body" id="body" part="body" ?hidden=${collapsed} aria-busy=${preview || snapshot?.hasTag('busy') ? 'true' : 'false'}>
        <task-surface-view part="view" class=${classMap({ 'no-context': this.detailsHidden, bounded: !this.fullHeight })} context-region
          exportparts="base:view-base, context:view-context, header:view-header, section:view-section, block:view-block, fields:view-fields, field:view-field, actions:view-actions, submit:view-submit"
          .model=${model} .values=${preview ? undefined : this.dock.values} ?disabled=${locked} ?preview=${preview} hide-title lang=${this.lang} theme=${this.theme ?? nothing}
          @task-surface-value-change=${this.onValueChange} @task-surface-submit=${this.onSubmit}>
          <div slot="note" class="note" part="note">${
            this.noteOpen
              ? html`<label class="note-label" for="note">${s.dock.noteLabel}</label>
              <textarea id="note" part="note-input" rows="2" aria-describedby="note-hint" .value=${live(this.dock.note)} ?disabled=${locked}
                @input=${this.onNoteInput}></textarea>
              <p class="note-hint" id="note-hint">${s.dock.noteHint}</p>`
              : html`<button type="button" class="button ghost" part="note-toggle" ?disabled=${locked} @click=${this.onAddNote}>${s.dock.addNote}</button>`
          }</div>
          <button slot="actions" type="button" class="button" part="dismiss" ?disabled=${locked} @click=${this.onDismiss}>${s.dismiss}</button>
        </task-surface-view>
      </div>
      <p class=${error ? 'status error' : 'status'} part="status" role="status">${this.statusText()}</p>
    </section>`;
  }

  /** The status line: what is happening, why it was refused, or (collapsed) that an answer is awaited. */
  private statusText(): string {
    const snapshot = this.dock.snapshot;
    const s = strings(this.lang);
    if (this.previewing) return this.writingSaid ? s.dock.writing : '';
    if (!snapshot) return '';
    const { rejection, phase, collapsed } = snapshot.context;
    switch (this.state) {
      case 'submitting':
        return s.submitting;
      case 'dismissing':
        return s.dismissing;
      case 'retrying':
        return rejection?.reason === 'transport' ? s.dock.verifying : s.dock.retrying;
      case 'loading':
        return rejection?.reason === 'transport' ? s.dock.verifying : phase ? s.pending[phase] : '';
      case 'pending':
        return s.pending[phase ?? 'queued'];
      case 'rejected':
        if (rejection) {
          return rejection.action === 'dismiss'
            ? (s.dismissRejected[rejection.reason as keyof typeof s.dismissRejected] ?? s.rejected[rejection.reason])
            : s.rejected[rejection.reason];
        }
    }
    if (this.tooLarge !== null) return s.dock.tooLarge(this.tooLarge, this.limit);
    return collapsed ? s.dock.waiting : '';
  }

  private onValueChange = (e: CustomEvent<{ values: TaskSurfaceValues }>): void => {
    e.stopPropagation();
    this.tooLarge = null;
    this.dock.setValues(e.detail.values);
  };

  private onNoteInput = (e: Event): void => {
    this.tooLarge = null;
    this.dock.setNote((e.target as HTMLTextAreaElement).value);
  };

  private onAddNote = async (): Promise<void> => {
    this.noteOpen = true;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('#note')?.focus();
  };

  private onSubmit = (e: CustomEvent<{ values: TaskSurfaceValues }>): void => {
    e.stopPropagation();
    const snapshot = this.dock.snapshot;
    const active = snapshot?.context.active;
    const values = e.detail.values;
    // A double click while the attempt is out is answered by that attempt: nothing more is sent.
    if (!active || !snapshot.can({ type: 'user.submit', values })) return;
    const note = /\S/.test(this.dock.note) ? this.dock.note : undefined;
    const bytes = jsonUtf8Length(note === undefined ? { values } : { values, note });
    if (bytes > this.limit) {
      this.tooLarge = bytes;
      return;
    }
    if (!emit(this, 'task-surface-submit-request', { surfaceId: active.surfaceId, values }, { cancelable: true })) return;
    void this.focusing.attempt(() =>
      this.dock.send({ type: 'user.submit', values, locale: canonicalLocale(this.lang) ?? 'en', ...(note === undefined ? {} : { note }) }),
    );
  };

  private onDismiss = (): void => {
    const snapshot = this.dock.snapshot;
    const active = snapshot?.context.active;
    if (!active || !snapshot.can({ type: 'user.dismiss' })) return;
    if (!emit(this, 'task-surface-dismiss-request', { surfaceId: active.surfaceId }, { cancelable: true })) return;
    void this.focusing.attempt(() => this.dock.send({ type: 'user.dismiss' }));
  };

  private onCollapse = (): void => {
    const collapsed = !this.dock.snapshot?.context.collapsed;
    this.dock.send({ type: collapsed ? 'user.collapse' : 'user.expand' });
    emit(this, 'task-surface-collapse-change', { collapsed });
  };

  private onFullHeight = (): void => {
    this.fullHeight = !this.fullHeight;
  };
  private onDetails = (): void => {
    this.detailsHidden = !this.detailsHidden;
  };

  /** `submissionLimit` when it is a positive number; the default otherwise (a typo must not block or unbound sending). */
  private get limit(): number {
    const limit = this.submissionLimit;
    return Number.isFinite(limit) && limit > 0 ? Math.floor(limit) : DEFAULT_LIMITS.submissionBytes;
  }

  private onEmitted(event: DockMachineEmitted): void {
    switch (event.type) {
      case 'submitted':
        emit(this, 'task-surface-submitted', { surfaceId: event.surfaceId, submissionId: event.submissionId, messageId: event.messageId });
        void this.focusing.returnAfter('submit');
        break;
      case 'rejected':
        emit(this, 'task-surface-rejected', { surfaceId: event.surfaceId, action: event.action, reason: event.reason });
        void this.focusing.afterRefusal();
        break;
      case 'dismissed':
        emit(this, 'task-surface-dismissed', { surfaceId: event.surfaceId });
        void this.focusing.returnAfter('dismiss');
        break;
      case 'closed': {
        const focusInside = this.matches(':focus-within');
        emit(this, 'task-surface-closed', { surfaceId: event.surfaceId });
        if (focusInside) void this.focusing.returnAfter('close');
        break;
      }
    }
  }
}

if (!customElements.get('task-surface-dock')) customElements.define('task-surface-dock', TaskSurfaceDock);

declare global {
  interface HTMLElementTagNameMap {
    'task-surface-dock': TaskSurfaceDock;
  }
}
