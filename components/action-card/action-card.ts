import { consume } from '@lit/context';
import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { property, state } from 'lit/decorators.js';
import { keyed } from 'lit/directives/keyed.js';
import type { CallId, CardProposal, JsonValue, SessionId } from '../../protocol/index.js';
import type { HostTransport } from '../../transport/types.js';
import { transportContext } from '../shared/context.js';
import { emit, type TaskSurfaceEventDetails } from '../shared/events.js';
import { dirOf, formatTag, langOf, langTag } from '../i18n/index.js';
import { LocaleController } from '../i18n/localeController.js';
import { themeStyles } from '../shared/theme.js';
import { heading, headingLevel } from '../view/heading.js';
import { modelTextStyles } from '../view/modelText.styles.js';
import { displayText } from '../view/text.js';
import { actionCardStyles } from './action-card.styles.js';
import { cardBodyFor, cardBodyLoading, localized, onCardBodiesChanged, type CardBody } from './bodies.js';
import { LazyModulesController, settledUpdate } from '../shared/lazy.js';
import { CardController } from './cardController.js';
import { cardStrings, isKnownReason, type CardLang, type CardStrings } from './strings.js';

export type ActionCardActedDetail = TaskSurfaceEventDetails['task-surface-card-acted'];

declare global {
  interface HTMLElementTagNameMap {
    'action-card': ActionCard;
  }
}

/**
 * One action card below an answer: a frame with the card's title and brief, its kind's body (the
 * kind's browser body, shown only when `details` pass the body's own schema), a button per verb the
 * body offers in the current phase, Not now, and a process row with the recorded phase. A button
 * calls `actionCards.act` through the transport; every control is disabled while it runs; a refusal
 * is shown in words, and focus then lands on the status line (the button pressed may be gone).
 * The status line is empty until something happens (no permanent "Not started"); a dismissed or
 * replaced card shrinks to its title and status. The card itself comes from watching the session.
 *
 * @fires task-surface-card-act-request - Cancelable, before an action is sent: `{ callId, verb }`.
 * @fires task-surface-card-acted - The Host answered (or the transport failed): `{ callId, verb, result }`.
 * @csspart base - The card frame.
 * @csspart title - The title.
 * @csspart brief - The brief.
 * @csspart body - The kind's body.
 * @csspart actions - The button row.
 * @csspart action - Each button of the row, Not now included.
 * @csspart not-now - The Not now button.
 * @csspart process - The process row (`role="status"`) with the recorded phase; empty while nothing has happened.
 * @cssproperty --task-surface-bg - Background.
 * @cssproperty --task-surface-fg - Text colour.
 * @cssproperty --task-surface-muted - Brief and process row.
 * @cssproperty --task-surface-border - Frame colour.
 * @cssproperty --task-surface-control-border - The body's inputs.
 * @cssproperty --task-surface-accent-bg - Primary button background.
 * @cssproperty --task-surface-focus - Focus ring.
 * @cssproperty --task-surface-danger - Refusal text.
 * @cssproperty --task-surface-radius - Corner radius.
 * @cssproperty --task-surface-space - Padding and gaps.
 */
export class ActionCard extends LitElement {
  static override styles = [themeStyles, modelTextStyles, actionCardStyles];

  /** The session whose view carries the card. */
  @property({ attribute: 'session-id' }) accessor sessionId = '';
  /** The `propose_action` call id that made the card. */
  @property({ attribute: 'call-id' }) accessor callId = '';
  /** The Host transport; without it, the nearest provided `transportContext`. */
  @property({ attribute: false }) accessor transport: HostTransport | undefined = undefined;
  @consume({ context: transportContext, subscribe: true })
  @state()
  private accessor contextTransport: HostTransport | undefined = undefined;
  /** Language of the chrome and the body: a BCP 47 tag (`en`, `zh`, `es`, `de`, `ja`, `ar` ship; see `registerLocale`). */
  @property({ reflect: true }) override accessor lang: CardLang = 'en';
  /** Level of the card's title heading, 1–6; default 2, fitting a transcript under the page's h1. */
  @property({ type: Number, attribute: 'heading-level' }) accessor headingLevel = 2;
  /** `light` or `dark`; unset follows `prefers-color-scheme`. */
  @property({ reflect: true }) accessor theme: 'light' | 'dark' | undefined = undefined;

  @state() private accessor running: string | undefined = undefined;
  @state() private accessor message = '';
  private readonly payloads = new Map<string, JsonValue | undefined>();
  private readonly card = new CardController(this, () => ({
    transport: this.activeTransport,
    sessionId: this.sessionId,
    callId: this.callId,
  }));
  private releaseBodies: (() => void) | undefined;
  /** A body that loads on first use renders when it lands. */
  private readonly lazyBodies = new LazyModulesController(this);
  private readonly locales = new LocaleController(this);

  private get activeTransport(): HostTransport | undefined {
    return this.transport ?? this.contextTransport;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.releaseBodies = onCardBodiesChanged(() => this.requestUpdate());
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.releaseBodies?.();
  }

  /** Resolves once the card's body shows (its chunk loaded), not the loading line. */
  protected override getUpdateComplete(): Promise<boolean> {
    return settledUpdate(() => super.getUpdateComplete());
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    this.card.sync(); // no-op unless the transport or the session changed
    if (changed.has('callId') || changed.has('sessionId')) {
      // Another card: the last one's refusal and chosen payloads (a follow-up time) are not this card's.
      this.message = '';
      this.payloads.clear();
    }
  }

  /** The card's phase: its latest decision (including a derived `replaced`), else `proposed`. */
  get phase(): string {
    return this.card.decision?.phase ?? 'proposed';
  }

  override render() {
    const proposal = this.card.proposal;
    if (proposal === undefined) return nothing;
    const s = cardStrings(this.lang);
    const lang = langOf(this.lang);
    const body = cardBodyFor(proposal.action);
    const details = body?.details.safeParse(proposal.details);
    const phase = this.phase;
    const settled = phase === 'dismissed' || phase === 'replaced';
    const busy = this.running !== undefined;
    const verbs = settled || !details?.success ? [] : (body?.verbs ?? []).filter((v) => v.phases.includes(phase));
    const notNow = !settled && (phase === 'proposed' || (body?.dismissibleIn ?? []).includes(phase));
    const idle = !busy && phase === 'proposed';
    return html`<article class="base ${settled ? 'settled' : ''}" part="base" aria-labelledby="title" lang=${langTag(this.lang)} dir=${dirOf(this.lang)}>
      <header>
        ${heading(
          headingLevel(this.headingLevel, 2),
          html`<span class="sr-only">${s.suggested} </span><span part="title">${displayText(proposal.title)}</span>`,
          { id: 'title', className: 'title model-text clamp', title: proposal.title },
        )}
        ${settled ? nothing : html`<p class="brief model-text clamp" part="brief" dir="auto" title=${proposal.brief}>${displayText(proposal.brief)}</p>`}
      </header>
      ${
        settled
          ? nothing
          : html`<div class="body" part="body">${
              body && details?.success
                ? keyed(
                    `${this.sessionId} ${this.callId}`,
                    body.render(details.data, {
                      lang,
                      formatLang: formatTag(this.lang),
                      phase,
                      data: this.card.decision?.data ?? {},
                      disabled: busy || settled,
                      setPayload: (verb, payload) => void this.payloads.set(verb, payload),
                    }),
                  )
                : cardBodyLoading(proposal.action)
                  ? html`<p class="loading" role="status">${s.loadingBody}</p>`
                  : html`<p>${s.unsupported}</p>`
            }</div>`
      }
      ${
        verbs.length === 0 && !notNow
          ? nothing
          : html`<div class="actions" part="actions" role="group" aria-label=${s.actions}>
        ${verbs.map(
          (v) => html`<button type="button" class="button ${v.primary ? 'primary' : ''}" part="action"
          ?disabled=${busy} @click=${() => this.act(v.verb)}>${localized(v.label, lang)}</button>`,
        )}
        ${
          notNow
            ? html`<button type="button" class="button" part="action not-now" ?disabled=${busy}
          @click=${() => this.act('dismiss')}>${s.notNow}</button>`
            : nothing
        }
      </div>`
      }
      <p class="process ${idle ? 'sr-only' : ''}" part="process" role="status" aria-live="polite" tabindex="-1">${
        idle
          ? nothing
          : html`
        <span class="label">${s.status}</span>
        <span class="phase">${busy ? s.working : this.phaseLabel(s, body, phase)}</span>`
      }</p>
      ${this.message === '' ? nothing : html`<p class="refusal" role="alert" tabindex="-1">${this.message}</p>`}
    </article>`;
  }

  private phaseLabel(s: CardStrings, body: CardBody<unknown> | undefined, phase: string): string {
    const own = body?.phases?.[phase];
    return own !== undefined ? localized(own, langOf(this.lang)) : (s.phase[phase] ?? phase);
  }

  /** Sends one action for this card; a second click while one runs is ignored (the buttons are disabled). */
  async act(verb: string): Promise<void> {
    const transport = this.activeTransport;
    const proposal: CardProposal | undefined = this.card.proposal;
    if (transport === undefined || proposal === undefined || this.running !== undefined) return;
    if (!emit(this, 'task-surface-card-act-request', { callId: this.callId, verb }, { cancelable: true })) return;
    this.running = verb;
    this.message = '';
    let result: ActionCardActedDetail['result'];
    try {
      const payload = this.payloads.get(verb);
      result = await transport.actionCards.act({
        sessionId: this.sessionId as SessionId,
        callId: this.callId as CallId,
        verb,
        ...(payload === undefined ? {} : { payload }),
      });
    } catch (error) {
      result = { status: 'failed', error: error instanceof Error ? error.message : String(error) };
    }
    this.running = undefined;
    this.message = this.describe(result, proposal.action);
    emit(this, 'task-surface-card-acted', { callId: this.callId, verb, result });
    await this.focusStatus(result.status !== 'refused' && result.status !== 'failed');
  }

  /**
   * After an action the pressed button may be gone (Not now hides the row): focus the status
   * line, or the refusal when the phase did not change, never <body>. The decision arrives with
   * the next session view, so this waits a little for the status line to say something.
   */
  private async focusStatus(waitForDecision: boolean): Promise<void> {
    for (let i = 0; i < (waitForDecision ? 20 : 1); i++) {
      await this.updateComplete;
      if (this.renderRoot.querySelector('.process:not(.sr-only)')) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    if (!this.isConnected || !this.focusIsHereOrLost()) return;
    const root = this.renderRoot;
    (root.querySelector<HTMLElement>('.process:not(.sr-only)') ?? root.querySelector<HTMLElement>('.refusal'))?.focus();
  }

  /** Focus is in this card, or nowhere (a disabled or removed button dropped it): never steal it from elsewhere. */
  private focusIsHereOrLost(): boolean {
    let active = document.activeElement;
    while (active && active !== this && active.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    return active === null || active === document.body || active === this;
  }

  private describe(result: ActionCardActedDetail['result'], action: string): string {
    const s = cardStrings(this.lang);
    switch (result.status) {
      case 'refused': {
        const own = cardBodyFor(action)?.reasons?.[result.reason];
        if (own !== undefined) return localized(own, langOf(this.lang));
        return isKnownReason(result.reason) ? s.reason[result.reason] : s.reason.unavailable;
      }
      case 'unconfirmed':
        return s.unconfirmed;
      case 'failed':
        return s.transport;
      default:
        return '';
    }
  }
}

if (!customElements.get('action-card')) customElements.define('action-card', ActionCard);
