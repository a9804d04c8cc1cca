import type { ReactiveController, ReactiveControllerHost } from 'lit';

/**
 * Whether a scrolling box overflows, kept current as the box or what it holds changes size. A box
 * that scrolls must be reachable by keyboard (axe's `scrollable-region-focusable`: a transcript of
 * plain text has nothing else inside to focus), and one that does not must add no stop to the Tab
 * order. The host renders `tabindex="0"` while `scrolls` is true.
 */
export class OverflowController implements ReactiveController {
  scrolls = false;
  private readonly observer = new ResizeObserver(() => this.measure());

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly box: () => Element | null,
  ) {
    host.addController(this);
  }

  /** Watches the box and its current children (rows come and go with the host's renders). */
  hostUpdated(): void {
    const box = this.box();
    this.observer.disconnect();
    if (!box) return;
    this.observer.observe(box);
    for (const child of box.children) this.observer.observe(child);
  }

  hostDisconnected(): void {
    this.observer.disconnect();
  }

  private measure(): void {
    const box = this.box();
    const scrolls = box !== null && box.scrollHeight > box.clientHeight;
    if (scrolls === this.scrolls) return;
    this.scrolls = scrolls;
    this.host.requestUpdate();
  }
}
