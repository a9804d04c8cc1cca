import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import type { InspectionEvent, Observer } from 'xstate';
import {
  mintMessageId,
  mintRpcId,
  type QueuedMessage,
  type SessionId,
  type SessionSummary,
  type SessionView,
} from '../../protocol/index.js';
import { TransportError } from '../../transport/types.js';
import type { WebSocketTransport, ConnectionStatus } from '../../transport/ws/client.js';
import '../../components/index.js';
import { dirOf, langTag, strings } from '../../components/i18n/index.js';
import { LocaleController } from '../../components/i18n/localeController.js';
import { PAGE_LANGS, pageLangOf, pageStrings, type PageLang } from './i18n.js';
import { OverflowController } from './overflow.js';
import { appStyles } from './styles.js';
import './transcript.js';

type Theme = 'light' | 'dark';

/** A theme picked before, else the system's (a theme never picked follows the system's on each visit). */
function themeOf(picked: string | null): Theme {
  if (picked === 'light' || picked === 'dark') return picked;
  return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** A refusal by one of the server's limits reads in the page's language; other failures as they came. */
const errorText = (error: unknown, lang: PageLang) => {
  if (!(error instanceof TransportError)) return String(error);
  const code = error.code;
  return code === 'quota-exceeded' || code === 'too-busy' || code === 'too-many-connections' || code === 'busy'
    ? strings(lang).limit[code]
    : error.message;
};

/**
 * The demo chat frontend: session switcher, transcript, queued rows, the Dock above the composer,
 * language and theme switches. It uses only the public elements and the transport.
 */
export class DemoChatApp extends LitElement {
  static override styles = appStyles;

  @property({ attribute: false }) accessor transport: WebSocketTransport | undefined = undefined;
  @property({ attribute: false }) accessor inspect: Observer<InspectionEvent> | undefined = undefined;

  @state() accessor sessions: SessionSummary[] = [];
  @state() accessor sessionId: SessionId | undefined = undefined;
  @state() accessor view: SessionView | undefined = undefined;
  @state() accessor uiLang: PageLang = pageLangOf(localStorage.getItem('demo.lang'));
  /** The theme picked on this page before (`demo.theme`), else the system's light or dark setting. */
  @state() accessor theme: Theme = themeOf(localStorage.getItem('demo.theme'));
  @state() accessor status: ConnectionStatus = 'connecting';
  /** "Connecting…" until the first open, "Reconnecting…" after a drop. */
  @state() accessor connectedOnce = false;
  @state() accessor draft = '';
  /** A refusal or error; one about a queued row (`itemId`) goes when that row leaves the queue. */
  @state() accessor notice: { text: string; itemId?: string } | undefined = undefined;
  @state() accessor editing: { itemId: string; text: string } | undefined = undefined;
  /** The composer takeover: a voice note replaces the composer stack; the Dock stays mounted, hidden. */
  @state() accessor recording = false;

  @query('.composer textarea') private accessor composerBox: HTMLTextAreaElement | null = null;

  /** The transcript's scroller takes focus while it scrolls, so the keyboard can scroll it. */
  private readonly transcriptOverflow = new OverflowController(this, () => this.renderRoot.querySelector('.scroller'));
  /** A language other than English loads as its own chunk: the page renders again when it lands. */
  private readonly locales = new LocaleController(this);
  private unwatch: (() => void) | undefined;
  private unstatus: (() => void) | undefined;

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('hashchange', this.onHash);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('hashchange', this.onHash);
    this.unwatch?.();
    this.unstatus?.();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('transport') && this.transport) {
      this.unstatus?.();
      this.status = this.transport.status;
      this.connectedOnce ||= this.status === 'open';
      const unstatus = this.transport.onStatus((status) => {
        this.status = status;
        if (status === 'open') this.connectedOnce = true;
      });
      // The open chat's watch the server kept answering busy: said, not waited on forever.
      const unfailed = this.transport.onWatchFailed((sessionId, error) => {
        if (sessionId === this.sessionId) this.notice = { text: errorText(error, this.uiLang) };
      });
      this.unstatus = () => (unstatus(), unfailed());
      void this.refreshSessions().then(() => this.onHash());
    }
    if (changed.has('sessionId')) {
      this.unwatch?.();
      this.view = undefined;
      this.editing = undefined;
      this.notice = undefined;
      this.recording = false;
      if (this.transport && this.sessionId) {
        const sessionId = this.sessionId;
        this.unwatch = this.transport.watchSession(sessionId, (view) => {
          if (this.sessionId === sessionId) this.view = view;
        });
      }
    }
    if (changed.has('view')) this.dropStaleRowState();
    // Every update, not only when uiLang changes: the language's table may land after the change.
    document.documentElement.lang = langTag(this.uiLang);
    document.documentElement.dir = dirOf(this.uiLang);
    if (changed.has('uiLang')) localStorage.setItem('demo.lang', this.uiLang);
    if (changed.has('theme')) document.documentElement.dataset.theme = this.theme;
  }

  /** The person picked a theme: it is kept for the next visit. */
  private pickTheme(theme: Theme) {
    this.theme = theme;
    localStorage.setItem('demo.theme', theme);
  }

  /** A refusal about a row, or its edit box, goes once the row left the queue (claimed, removed). */
  private dropStaleRowState() {
    const queued = new Set<string>((this.view?.queue ?? []).map((row) => row.id));
    if (this.notice?.itemId !== undefined && !queued.has(this.notice.itemId)) this.notice = undefined;
    if (this.editing && !queued.has(this.editing.itemId)) this.editing = undefined;
  }

  private onHash = () => {
    const wanted = new URLSearchParams(location.hash.slice(1)).get('session');
    const known = this.sessions.find((s) => s.sessionId === wanted) ?? this.sessions[0];
    if (known && known.sessionId !== this.sessionId) this.sessionId = known.sessionId;
  };

  private async refreshSessions() {
    if (this.transport) this.sessions = await this.transport.listSessions();
  }

  private select(sessionId: SessionId) {
    location.hash = `session=${encodeURIComponent(sessionId)}`;
  }

  private async newChat() {
    if (!this.transport) return;
    const title = `${pageStrings[this.uiLang].newChat} ${this.sessions.length + 1}`;
    this.notice = undefined;
    try {
      // The session's locale: the agent's panel answers are written in the person's language.
      const summary = await this.transport.openSession({ title, locale: this.uiLang });
      await this.refreshSessions();
      this.select(summary.sessionId);
    } catch (error) {
      // Refused (the person's session quota, say): said where the composer's notices go.
      this.notice = { text: errorText(error, this.uiLang) };
    }
  }

  private async send(event?: Event) {
    event?.preventDefault();
    const text = this.draft.trim();
    if (!text || !this.transport || !this.sessionId) return;
    this.draft = '';
    this.notice = undefined;
    try {
      const result = await this.transport.session.send({ sessionId: this.sessionId, messageId: mintMessageId(), rpcId: mintRpcId(), text });
      if (!result.accepted) {
        // Not sent (the queue is full, say): the text comes back to the composer.
        this.draft = text;
        this.notice = { text: pageStrings[this.uiLang].notSent[result.reason] };
      }
    } catch (error) {
      this.draft = text;
      this.notice = { text: errorText(error, this.uiLang) };
    }
  }

  /** Ends the takeover: a kept recording is sent as a message; the same Dock comes back either way. */
  private async endRecording(keep: boolean) {
    this.recording = false;
    if (!keep) return;
    this.draft = pageStrings[this.uiLang].voiceNote;
    await this.send();
  }

  private onKey(event: KeyboardEvent) {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) void this.send(event);
  }

  private async queueAction(row: QueuedMessage, op: 'remove' | 'steer' | 'edit', text?: string) {
    if (!this.transport || !this.sessionId) return;
    const request =
      op === 'edit'
        ? { op, sessionId: this.sessionId, itemId: row.id, text: text ?? row.text }
        : { op, sessionId: this.sessionId, itemId: row.id };
    try {
      const result = await this.transport.session.updateQueue(request);
      this.editing = undefined;
      // Tied to the row: it goes with the next view that no longer has the row.
      this.notice = result.ok ? undefined : { text: pageStrings[this.uiLang].refused[result.reason], itemId: row.id };
      // A row that leaves takes its focused button with it: focus goes where the person writes next.
      if (result.ok && op !== 'edit') this.composerBox?.focus();
      else await this.focusRow(row.id, 'button');
    } catch (error) {
      this.notice = { text: errorText(error, this.uiLang), itemId: row.id };
    }
  }

  /** Opens or closes a row's editor, keeping focus in the row (the editor, then its Edit button). */
  private async setEditing(editing: { itemId: string; text: string } | undefined, itemId: string) {
    this.editing = editing;
    await this.focusRow(itemId, editing ? 'textarea' : 'button');
  }

  private async focusRow(itemId: string, what: 'textarea' | 'button') {
    await this.updateComplete;
    const row = [...this.renderRoot.querySelectorAll<HTMLElement>('.queued')].find((r) => r.dataset.item === itemId);
    const target =
      what === 'textarea'
        ? row?.querySelector('textarea')
        : (row?.querySelector<HTMLElement>('.edit-button') ?? row?.querySelector<HTMLElement>('.row-actions button'));
    target?.focus();
  }

  override render() {
    const s = pageStrings[this.uiLang];
    const current = this.sessions.find((x) => x.sessionId === this.sessionId);
    return html`<div class="app">
      <aside class="sidebar" aria-label=${s.sessions}>
        <div class="brand"><span class="logo" aria-hidden="true"></span>${s.appName}</div>
        <button class="new" @click=${this.newChat}>+ ${s.newChat}</button>
        <nav><ul class="sessions">${this.sessions.map(
          (x) => html`<li>
          <button class="session" aria-current=${x.sessionId === this.sessionId ? 'page' : 'false'} @click=${() => this.select(x.sessionId)}>${x.title || s.untitled}</button></li>`,
        )}
        </ul></nav>
      </aside>
      <main class="main">
        <header class="bar">
          <h1 class="title">${current?.title || s.untitled}</h1>
          <select class="picker" aria-label=${s.sessions} @change=${(e: Event) => this.pick((e.target as HTMLSelectElement).value)}>
            ${this.sessions.map((x) => html`<option value=${x.sessionId} ?selected=${x.sessionId === this.sessionId}>${x.title || s.untitled}</option>`)}
            <option value="">+ ${s.newChat}</option>
          </select>
          ${this.status !== 'open' ? html`<span class="status" role="status">${this.connectedOnce ? s.reconnecting : s.connecting}</span>` : nothing}
          <select class="picker lang" aria-label=${s.language} @change=${(e: Event) => (this.uiLang = pageLangOf((e.target as HTMLSelectElement).value))}>
            ${PAGE_LANGS.map((tag) => html`<option value=${tag} lang=${langTag(tag)} ?selected=${tag === this.uiLang}>${languageName(tag)}</option>`)}
          </select>
          <div class="switch" role="group" aria-label=${s.theme}>
            <button aria-pressed=${this.theme === 'light'} @click=${() => this.pickTheme('light')}>${s.light}</button>
            <button aria-pressed=${this.theme === 'dark'} @click=${() => this.pickTheme('dark')}>${s.dark}</button>
          </div>
        </header>
        <div class="scroller" role="region" aria-label=${s.messages} tabindex=${this.transcriptOverflow.scrolls ? '0' : nothing}>
          <demo-transcript .transport=${this.transport} session-id=${this.sessionId ?? nothing} .view=${this.view} .lang=${this.uiLang} theme=${this.theme}></demo-transcript>
          ${this.renderQueue()}
          ${this.view?.turn === 'running' ? html`<p class="working" role="status"><span class="dots" aria-hidden="true"></span>${this.view.waiting === 'model' ? s.waitingForModel : s.working}</p>` : nothing}
        </div>
        <footer class="bottom-wrap"><div class="bottom">
          <task-surface-dock .transport=${this.transport} session-id=${this.sessionId ?? nothing} lang=${this.uiLang} theme=${this.theme}
            composer="composer-box" .inspect=${this.inspect} ?hidden=${this.recording}></task-surface-dock>
          ${this.notice ? html`<p class="notice" role="alert">${this.notice.text} <button class="link" aria-label=${s.close} @click=${() => (this.notice = undefined)}>×</button></p>` : nothing}
          ${this.recording ? this.renderRecorder() : this.renderComposer()}
        </div></footer>
      </main>
    </div>`;
  }

  private renderComposer() {
    const s = pageStrings[this.uiLang];
    return html`${
      this.view && this.view.lastSeq === 0
        ? html`<div class="suggestions">${s.suggestions.map(
            (t) =>
              html`<button @click=${() => {
                this.draft = t;
                void this.send();
              }}>${t}</button>`,
          )}</div>`
        : nothing
    }
      <form class="composer" @submit=${this.send}>
        <button class="mic" type="button" aria-label=${s.record} title=${s.record} ?disabled=${!this.sessionId} @click=${() => (this.recording = true)}><span class="mic-dot" aria-hidden="true"></span></button>
        <textarea id="composer-box" rows="1" aria-label=${s.placeholder} placeholder=${s.placeholder} .value=${this.draft}
          @input=${(e: Event) => (this.draft = (e.target as HTMLTextAreaElement).value)} @keydown=${this.onKey}></textarea>
        <button class="send" type="submit" ?disabled=${!this.draft.trim() || !this.sessionId}>${s.send}</button>
      </form>`;
  }

  /** The takeover: the composer stack (Dock included, via `hidden`) gives way to a recorder. */
  private renderRecorder() {
    const s = pageStrings[this.uiLang];
    return html`<section class="recorder" aria-label=${s.record}>
      <span class="rec-dot" aria-hidden="true"></span><span class="rec-label" role="status">${s.recording}</span>
      <button class="link" @click=${() => this.endRecording(false)}>${s.cancel}</button>
      <button class="send" @click=${() => this.endRecording(true)}>${s.sendVoice}</button>
    </section>`;
  }

  private pick(value: string) {
    if (value) this.select(value as SessionId);
    else void this.newChat();
  }

  /**
   * Queued rows. An ordinary message can be sent now, edited or removed; a panel answer can only be
   * withdrawn (the Host refuses to edit or steer it), which gives the panel back with its values.
   */
  private renderQueue() {
    const s = pageStrings[this.uiLang];
    const rows = this.view?.queue ?? [];
    if (rows.length === 0) return nothing;
    return html`<ol class="queue" aria-label=${s.queued}>${rows.map(
      (row) => html`<li class="queued" data-item=${row.id}>
      <div class="bubble user pending">
        <span class="speaker">${s.you}</span>
        <span class="chip">${s.queued}${row.source.taskSurface ? ` · ${s.fromPanel}` : ''}</span>
        ${
          this.editing?.itemId === row.id
            ? html`<textarea class="edit" aria-label=${s.edit} .value=${this.editing.text}
              @input=${(e: Event) => (this.editing = { itemId: row.id, text: (e.target as HTMLTextAreaElement).value })}></textarea>
            <div class="row-actions"><button @click=${() => this.queueAction(row, 'edit', this.editing?.text)}>${s.save}</button>
            <button @click=${() => this.setEditing(undefined, row.id)}>${s.cancel}</button></div>`
            : html`<div class="text">${row.text}</div>
            <div class="row-actions">${
              row.source.taskSurface
                ? html`<button @click=${() => this.queueAction(row, 'remove')}>${s.withdraw}</button>`
                : html`<button @click=${() => this.queueAction(row, 'steer')}>${s.steer}</button>
                <button class="edit-button" @click=${() => this.setEditing({ itemId: row.id, text: row.text }, row.id)}>${s.edit}</button>
                <button @click=${() => this.queueAction(row, 'remove')}>${s.remove}</button>`
            }
            </div>`
        }
      </div></li>`,
    )}</ol>`;
  }
}

if (!customElements.get('demo-chat-app')) customElements.define('demo-chat-app', DemoChatApp);

declare global {
  interface HTMLElementTagNameMap {
    'demo-chat-app': DemoChatApp;
  }
}

/** A language's name in that language (`Español`, `العربية`), for the switch. */
function languageName(tag: string): string {
  const name = new Intl.DisplayNames([langTag(tag)], { type: 'language' }).of(langTag(tag)) ?? tag;
  return name.charAt(0).toLocaleUpperCase(tag) + name.slice(1);
}
