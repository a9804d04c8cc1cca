import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { CardDecision, CardProposal, SessionId, SessionView } from '../../protocol/index.js';
import type { HostTransport } from '../../transport/types.js';

/**
 * Bridges an action-card element to its session: one `watchSession` subscription, kept while the
 * element is connected and restarted when the transport or session changes. It picks out one card.
 */
export class CardController implements ReactiveController {
  proposal: CardProposal | undefined;
  decision: CardDecision | undefined;
  private release: (() => void) | undefined;
  private watching: { transport: HostTransport; sessionId: string } | undefined;
  private view: SessionView | undefined;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly config: () => { transport: HostTransport | undefined; sessionId: string; callId: string },
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    this.sync();
  }

  hostDisconnected(): void {
    this.stop();
  }

  /** Re-subscribes when the transport or session changed; re-picks the card otherwise. */
  sync(): void {
    const { transport, sessionId } = this.config();
    if (this.watching?.transport === transport && this.watching?.sessionId === sessionId) {
      this.pick();
      return;
    }
    this.stop();
    if (transport === undefined || sessionId === '') return;
    this.watching = { transport, sessionId };
    this.release = transport.watchSession(sessionId as SessionId, (view) => {
      this.view = view;
      this.pick();
      this.host.requestUpdate();
    });
  }

  private pick(): void {
    const { callId } = this.config();
    this.proposal = this.view?.actionCards.proposals.find((p) => p.callId === callId);
    this.decision = this.view?.actionCards.decisions[callId];
  }

  private stop(): void {
    this.release?.();
    this.release = undefined;
    this.watching = undefined;
    this.view = undefined;
    this.proposal = undefined;
    this.decision = undefined;
  }
}
