import { LitElement, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import type { SessionEvent, SessionId, SessionView } from '../../protocol/index.js';
import type { HostTransport } from '../../transport/types.js';
import '../../components/index.js';
import '../../components/action-card/index.js';
import { HistoryWindow } from './history.js';
import { pageStrings, type PageLang } from './i18n.js';
import { transcriptStyles } from './styles.js';

/**
 * The chat transcript: a loaded history window of the session log (newest page first, older pages
 * on demand), one `task-surface-toolview` per `show_task_surface` result row, and the turn's
 * `action-card` under its answer once the turn ended.
 */
export class DemoTranscript extends LitElement {
  static override styles = transcriptStyles;

  @property({ attribute: false }) accessor transport: HostTransport | undefined = undefined;
  @property({ attribute: 'session-id' }) accessor sessionId: SessionId | undefined = undefined;
  @property({ attribute: false }) accessor view: SessionView | undefined = undefined;
  @property() override accessor lang: PageLang = 'en';
  @property() accessor theme: 'light' | 'dark' = 'light';
  /** Events per page of history. */
  @property({ type: Number, attribute: 'page-size' }) accessor pageSize = 40;

  @state() private accessor revision = 0;
  @state() private accessor loadingOlder = false;
  /** The reply as it streams (view.streaming), held until the logged message has loaded. */
  @state() private accessor streamText: string | undefined = undefined;
  private history: HistoryWindow | undefined;

  protected override willUpdate(changed: PropertyValues<this>): void {
    if ((changed.has('sessionId') || changed.has('transport')) && this.transport && this.sessionId) {
      const history = new HistoryWindow(this.transport, this.sessionId, this.pageSize, () => {
        if (this.history === history) this.revision++;
      });
      this.history = history;
      void history.loadLatest();
    }
    if (changed.has('view') && this.view && this.view.sessionId === this.history?.sessionId) {
      const view = this.view;
      if (view.streaming) this.streamText = view.streaming.text;
      void this.history.catchUp(view.lastSeq).then(() => {
        // The final message is in the history now (or the stream failed): no gap, no double.
        if (!this.view?.streaming) this.streamText = undefined;
      });
    }
    if (changed.has('sessionId')) this.streamText = undefined;
  }

  protected override updated(changed: PropertyValues<this>): void {
    // After the rows' own elements rendered (toolviews, cards), so the end really is the end.
    const grew = (changed as Map<PropertyKey, unknown>).has('revision') || (changed as Map<PropertyKey, unknown>).has('streamText');
    if (grew && !this.loadingOlder) requestAnimationFrame(() => this.scrollToEnd());
  }

  private scrollToEnd() {
    const scroller = this.parentElement;
    if (scroller) scroller.scrollTop = scroller.scrollHeight;
  }

  private async loadOlder() {
    const scroller = this.parentElement;
    const fromBottom = scroller ? scroller.scrollHeight - scroller.scrollTop : 0;
    this.loadingOlder = true;
    await this.history?.loadOlder();
    await this.updateComplete;
    if (scroller) scroller.scrollTop = scroller.scrollHeight - fromBottom;
    this.loadingOlder = false;
  }

  override render() {
    const s = pageStrings[this.lang];
    const history = this.history;
    if (!history?.loaded) return nothing;
    const turnOfCall = new Map<string, string>();
    for (const event of history.events) if (event.type === 'tool/result') turnOfCall.set(event.callId, event.turnId);
    const cardsByTurn = new Map<string, string[]>();
    for (const proposal of this.view?.actionCards.proposals ?? []) {
      const turnId = turnOfCall.get(proposal.callId);
      if (turnId) cardsByTurn.set(turnId, [...(cardsByTurn.get(turnId) ?? []), proposal.callId]);
    }
    return html`
      <div class="top">
        ${history.hasMore
          ? html`<button class="older" ?disabled=${this.loadingOlder} @click=${this.loadOlder}>${this.loadingOlder ? s.loadingOlder : s.loadOlder}</button>`
          : html`<p class="start">${s.start}</p>`}
      </div>
      <ol class="events" aria-live="polite">
        ${history.events.map((event) => this.renderEvent(event, cardsByTurn))}
        ${this.streamText !== undefined ? html`<li class="row agent streaming" aria-busy="true"><div class="bubble agent">
          <task-surface-markdown .text=${this.streamText}></task-surface-markdown></div></li>` : nothing}
      </ol>`;
  }

  private renderEvent(event: SessionEvent, cardsByTurn: Map<string, string[]>): TemplateResult | typeof nothing {
    const s = pageStrings[this.lang];
    switch (event.type) {
      case 'user/message':
        return html`<li class="row user" data-seq=${event.seq}><div class="bubble user">
          ${event.source.taskSurface ? html`<span class="chip">${s.fromPanel}</span>` : nothing}
          <div class="text">${event.text}</div></div></li>`;
      case 'assistant/message':
        return html`<li class="row agent" data-seq=${event.seq}><div class="bubble agent">
          <task-surface-markdown .text=${event.text}></task-surface-markdown></div></li>`;
      case 'tool/result':
        if (event.name === 'show_task_surface') {
          return html`<li class="row tool" data-seq=${event.seq}>
            <task-surface-toolview name=${event.name} .content=${event.content} .meta=${event.meta} session-id=${this.sessionId ?? ''}
              .transport=${this.transport} lang=${this.lang} theme=${this.theme}></task-surface-toolview></li>`;
        }
        if (event.name === 'skill' || event.name === 'propose_action') {
          const label = event.name === 'skill' ? s.usedSkill : s.proposed;
          return html`<li class="row note" data-seq=${event.seq}><span class="tool-note">${label}${event.ok ? '' : ' ✕'}</span></li>`;
        }
        return nothing;
      case 'task-surface/dismissed':
        return html`<li class="row note" data-seq=${event.seq}><span class="tool-note">${s.dismissed}</span></li>`;
      case 'turn/ended': {
        if (event.outcome === 'failed') {
          return html`<li class="row note failed" data-seq=${event.seq}><span class="tool-note">${s.turnFailed} ${event.error ?? ''}</span></li>`;
        }
        const cards = cardsByTurn.get(event.turnId);
        if (!cards) return nothing;
        return html`${cards.map((callId) => html`<li class="row agent card" data-seq=${event.seq}>
          <action-card session-id=${this.sessionId ?? ''} call-id=${callId} .transport=${this.transport} lang=${this.lang} theme=${this.theme}></action-card></li>`)}`;
      }
      default:
        return nothing;
    }
  }
}

if (!customElements.get('demo-transcript')) customElements.define('demo-transcript', DemoTranscript);

declare global {
  interface HTMLElementTagNameMap { 'demo-transcript': DemoTranscript }
}
