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
  /** The language of the page's strings; a property only, so the rows keep the document's `lang` (zh-Hans). */
  @property({ attribute: false }) override accessor lang: PageLang = 'en';
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
        ${
          history.hasMore
            ? html`<button class="older" ?disabled=${this.loadingOlder} @click=${this.loadOlder}>${this.loadingOlder ? s.loadingOlder : s.loadOlder}</button>`
            : html`<p class="start">${s.start}</p>`
        }
      </div>
      <h2 class="sr-only" id="log-title">${s.conversation}</h2>
      <div class="log" role="log" aria-labelledby="log-title">
        <ol class="events">${history.events.map((event) => this.renderEvent(event, cardsByTurn, event.seq > history.liveAfter))}
          ${this.streamText === undefined ? nothing : this.agentRow(undefined, false, html`<task-surface-markdown .text=${this.streamText} remote-images="alt-only" heading-offset="2"></task-surface-markdown>`)}</ol>
      </div>`;
  }

  /**
   * One log event as transcript rows. The log announces only agent text that arrived while the
   * person watched (`live`); every other row says `aria-live="off"`: the person knows what they sent,
   * a panel row and a card announce their own status, history is not read out when it loads.
   */
  private renderEvent(event: SessionEvent, cardsByTurn: Map<string, string[]>, live: boolean): TemplateResult | typeof nothing {
    const s = pageStrings[this.lang];
    switch (event.type) {
      case 'user/message':
        return html`<li class="row user" data-seq=${event.seq} aria-live="off"><div class="bubble user">
          <span class="speaker">${s.you}</span>
          ${event.source.taskSurface ? html`<span class="chip">${s.fromPanel}</span>` : nothing}
          <div class="text">${event.text}</div></div></li>`;
      case 'assistant/message':
        return this.agentRow(
          event.seq,
          live,
          html`<task-surface-markdown .text=${event.text} remote-images="alt-only" heading-offset="2"></task-surface-markdown>`,
        );
      case 'tool/result':
        // Only the panel's row; the agent's other tool calls (loading a skill, offering a card) are
        // its own business: the card itself appears under the answer.
        if (event.name !== 'show_task_surface') return nothing;
        return html`<li class="row tool" data-seq=${event.seq} aria-live="off">
          <task-surface-toolview heading-level="3" name=${event.name} .content=${event.content} .meta=${event.meta} session-id=${this.sessionId ?? ''}
            .transport=${this.transport} lang=${this.lang} theme=${this.theme}></task-surface-toolview></li>`;
      case 'task-surface/dismissed':
        return html`<li class="row note" data-seq=${event.seq} aria-live="off"><span class="tool-note">${s.dismissed}</span></li>`;
      case 'turn/ended': {
        if (event.outcome === 'failed') {
          return html`<li class="row note failed" data-seq=${event.seq} aria-live=${live ? nothing : 'off'}><span class="tool-note">${s.turnFailed} ${event.error ?? ''}</span></li>`;
        }
        const cards = cardsByTurn.get(event.turnId);
        if (!cards) return nothing;
        return html`${cards.map(
          (callId) => html`<li class="row agent card" data-seq=${event.seq} aria-live="off">
          <action-card heading-level="3" session-id=${this.sessionId ?? ''} call-id=${callId} .transport=${this.transport} lang=${this.lang} theme=${this.theme}></action-card></li>`,
        )}`;
      }
      default:
        return nothing;
    }
  }

  /**
   * An agent row: a hidden "Agent:" label, then `body`; announced whole when it is new. The reply as
   * it streams (no `seq` yet, `aria-busy`) is never announced: the logged message that replaces it is, once.
   */
  private agentRow(seq: number | undefined, live: boolean, body: TemplateResult): TemplateResult {
    return html`<li class=${seq === undefined ? 'row agent streaming' : 'row agent'} data-seq=${seq ?? nothing}
      aria-live=${live ? nothing : 'off'} aria-atomic=${live ? 'true' : nothing} aria-busy=${seq === undefined ? 'true' : nothing}>
      <div class="bubble agent"><span class="speaker">${pageStrings[this.lang].agent}</span>${body}</div></li>`;
  }
}

if (!customElements.get('demo-transcript')) customElements.define('demo-transcript', DemoTranscript);

declare global {
  interface HTMLElementTagNameMap {
    'demo-transcript': DemoTranscript;
  }
}
