/*
 * Where the Dock sends focus. While a submit or dismiss is out its controls are disabled, so focus
 * waits on the title (next to the status line) instead of falling to <body>; after a refusal it
 * goes back to the control the person used; after a submit, dismiss or close it returns to the
 * composer, or to where it was before the surface opened, unless the page cancels
 * `task-surface-focus-return`.
 */
import type { ReactiveControllerHost } from 'lit';
import { emit, type FocusReturnReason } from '../shared/events.js';
import type { TaskSurfaceView } from '../view/task-surface-view.js';
import { deepActiveElement, findComposer, isInert } from './focus.js';

/** The Dock as `DockFocus` reads it: its shadow root and the public properties about focus and state. */
export interface FocusedDock extends HTMLElement, Pick<ReactiveControllerHost, 'updateComplete'> {
  readonly renderRoot: ParentNode;
  readonly focusReturnTarget: HTMLElement | null;
  readonly composer: string | undefined;
  readonly state: string;
}

/** Remembers where focus was and moves it around the Dock's submits, dismissals and closes. */
export class DockFocus {
  private lastOutsideFocus: HTMLElement | null = null;
  /** Where focus was when the current surface opened (the composer, usually). */
  private focusAtOpen: HTMLElement | null = null;
  /** The Dock's own control that had focus when a submit or dismiss started. */
  private focusAtAttempt: HTMLElement | null = null;

  /** `locked`: an attempt is out, or the surface is pending, so the Dock's controls are disabled. */
  constructor(
    private readonly host: FocusedDock,
    private readonly locked: () => boolean,
  ) {
    host.addEventListener('focusin', (e) => {
      const from = e.relatedTarget as HTMLElement | null;
      if (from && !host.contains(from) && !host.shadowRoot?.contains(from)) this.lastOutsideFocus = from;
    });
  }

  /** The surface's title: where focus waits while an attempt is out. */
  private get title(): HTMLElement | null {
    return this.host.renderRoot.querySelector<HTMLElement>('.title');
  }

  private get view(): TaskSurfaceView | null {
    return this.host.renderRoot.querySelector('task-surface-view');
  }

  /** Another surface opened (or none is open now): what was remembered for the last one goes. */
  surfaceChanged(): void {
    this.lastOutsideFocus = null;
    this.focusAtAttempt = null;
    const focused = deepActiveElement();
    this.focusAtOpen = focused && !this.host.contains(focused) && focused !== this.host ? focused : null;
  }

  /**
   * Runs `send`, a submit or dismiss. The focused control is disabled while the attempt is out:
   * focus waits on the title (next to the status), not <body>.
   */
  async attempt(send: () => void): Promise<void> {
    const focused = deepActiveElement();
    const ours = focused && (this.host.shadowRoot?.contains(focused) || this.view?.shadowRoot?.contains(focused));
    this.focusAtAttempt = ours ? focused : null;
    send();
    if (!this.focusAtAttempt) return;
    await this.host.updateComplete;
    await this.view?.updateComplete;
    const now = deepActiveElement();
    // Chromium drops focus from a disabled control a frame later: move it before that happens.
    const lost = !now || now === document.body || (now as HTMLButtonElement).disabled === true;
    if (this.focusAtAttempt && this.locked() && lost) this.title?.focus();
  }

  /**
   * Controls are disabled while an attempt is out, so the focused one loses focus; after a refusal
   * it gets it back (or Submit does), unless the person has moved focus elsewhere meanwhile.
   */
  async afterRefusal(): Promise<void> {
    const before = this.focusAtAttempt;
    this.focusAtAttempt = null;
    await Promise.resolve(); // the machine emits before its new snapshot reaches the element
    await this.host.updateComplete;
    await this.view?.updateComplete;
    const now = deepActiveElement();
    if (now && now !== document.body && now !== this.title) return; // the person moved focus: leave it there
    const submit = this.view?.shadowRoot?.querySelector<HTMLElement>('[part~="submit"]') ?? null;
    (before && !isInert(before) ? before : submit)?.focus();
  }

  /** Moves focus after submit, dismiss or close, unless the page cancels `task-surface-focus-return`. */
  async returnAfter(reason: FocusReturnReason): Promise<void> {
    this.focusAtAttempt = null;
    const candidates = [findComposer(this.host, this.host.composer ?? null), this.lastOutsideFocus, this.focusAtOpen];
    const remembered = candidates.find((e) => e && !isInert(e) && e !== document.body) ?? null;
    const target = this.host.focusReturnTarget ?? remembered;
    if (!emit(this.host, 'task-surface-focus-return', { reason, target }, { cancelable: true })) return;
    await this.host.updateComplete;
    if (target) target.focus();
    else if (this.host.state !== 'hidden') this.title?.focus(); // still visible (pending): its status is next to the title
  }
}
