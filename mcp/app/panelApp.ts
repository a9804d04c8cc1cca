import type { App } from '@modelcontextprotocol/ext-apps';
import { mintTaskSurfaceDismissalId, mintTaskSurfaceSubmissionId } from '../../protocol/mint.js';
import type { NormalizedTaskSurfaceModel, TaskSurfaceSubmissionId, TaskSurfaceValues } from '../../protocol/index.js';
import type { PanelState } from '../ledger.js';
import { VIEW_TOOL } from '../constants.js';

/*
 * The panel's life inside the host, apart from its rendering: what it knows of its call, and the
 * rule that a person's answer becomes exactly one `ui/message`. The server is the authority on
 * whether the call was answered (the view's own storage may not exist); the view records its
 * submissionId there before it sends the message, and never sends again on its own: a send it
 * cannot confirm is left to the person, who can see the chat ("Send again").
 */

/** Where the answer's message stands, as far as this view knows. */
export type Delivery = 'sending' | 'delivered' | 'failed' | 'unsure';

export type Phase =
  | { kind: 'waiting' }
  | { kind: 'preparing' }
  | { kind: 'error' }
  | { kind: 'unknown' }
  | { kind: 'open'; busy: boolean; problem: 'refused' | 'unreachable' | null }
  | { kind: 'submitted'; values: TaskSurfaceValues; text: string; submissionId: TaskSurfaceSubmissionId; delivery: Delivery }
  | { kind: 'dismissed' };

type ViewAnswer = PanelState | { status: 'invalid'; reason: string };

/** The panel's state machine over an `App`; `onChange` renders. */
export class PanelSession {
  model: NormalizedTaskSurfaceModel | null = null;
  values: TaskSurfaceValues | undefined;
  viewId: string | null = null;
  phase: Phase = { kind: 'waiting' };
  #submissionId: TaskSurfaceSubmissionId | null = null;
  #dismissalId = mintTaskSurfaceDismissalId();
  #busy = false;
  #delivering = false;

  constructor(
    private readonly app: Pick<App, 'callServerTool' | 'sendMessage' | 'updateModelContext'>,
    private readonly onChange: () => void,
    /** The person's language for the answer's text (`en` or `zh`). */
    private readonly locale: () => string,
    /** Text the model reads when the person dismisses the panel. */
    private readonly dismissedText: (title: string) => string,
  ) {}

  #set(phase: Phase) {
    this.phase = phase;
    this.onChange();
  }

  /** Partial tool input: a quiet "preparing" until there is a model. */
  preparing(): void {
    if (this.model === null && this.phase.kind === 'waiting') this.#set({ kind: 'preparing' });
  }

  /** The full tool input, already parsed: the panel shows; answering waits for the result's id. */
  input(model: NormalizedTaskSurfaceModel): void {
    if (this.model !== null) return;
    this.model = model;
    this.#set({ kind: 'open', busy: true, problem: null });
  }

  failed(): void {
    this.#set({ kind: 'error' });
  }

  /** The tool result: the normalised model and the call's viewId; the server says where it stands. */
  async result(model: NormalizedTaskSurfaceModel, viewId: string): Promise<void> {
    if (this.viewId === viewId) return;
    this.model = model;
    this.viewId = viewId;
    this.#submissionId = cached(viewId);
    try {
      this.#apply(await this.#call({ action: 'read', viewId }));
    } catch {
      this.#set({ kind: 'open', busy: true, problem: 'unreachable' });
    }
  }

  /** The person pressed Submit (the view checked the required fields). */
  async submit(values: TaskSurfaceValues): Promise<void> {
    if (this.#busy || this.viewId === null || this.phase.kind !== 'open') return;
    this.#busy = true;
    this.values = values;
    const viewId = this.viewId;
    const submissionId = (this.#submissionId ??= mintTaskSurfaceSubmissionId());
    remember(viewId, submissionId);
    this.#set({ kind: 'open', busy: true, problem: null });
    try {
      const answer = await this.#call({ action: 'submit', viewId, submissionId, values, locale: this.locale() });
      if (answer.status === 'invalid') return this.#set({ kind: 'open', busy: false, problem: 'refused' });
      this.#apply(answer, submissionId);
    } catch {
      this.#set({ kind: 'open', busy: false, problem: 'unreachable' });
    } finally {
      this.#busy = false;
    }
  }

  /** The person asked to send the recorded answer again (after a refusal or an unknowable send). */
  async sendAgain(): Promise<void> {
    if (this.phase.kind === 'submitted' && this.phase.delivery !== 'delivered') await this.#deliver(this.phase);
  }

  async dismiss(): Promise<void> {
    if (this.#busy || this.viewId === null || this.phase.kind !== 'open') return;
    this.#busy = true;
    const title = this.model?.title ?? '';
    try {
      const answer = await this.#call({ action: 'dismiss', viewId: this.viewId, dismissalId: this.#dismissalId });
      // No message and no turn: the model learns it from its context the next time it runs.
      if (answer.status === 'dismissed')
        await this.app.updateModelContext({ content: [{ type: 'text', text: this.dismissedText(title) }] }).catch(() => undefined);
      this.#apply(answer);
    } catch {
      this.#set({ kind: 'open', busy: false, problem: 'unreachable' });
    } finally {
      this.#busy = false;
    }
  }

  /** Shows what the server says; sends the message only for this view's own fresh submission. */
  #apply(answer: ViewAnswer, ownSubmission?: TaskSurfaceSubmissionId): void {
    switch (answer.status) {
      case 'open':
        this.model = answer.model;
        return this.#set({ kind: 'open', busy: false, problem: null });
      case 'dismissed':
        this.model = answer.model;
        return this.#set({ kind: 'dismissed' });
      case 'submitted': {
        this.model = answer.model;
        const mine = ownSubmission !== undefined && answer.submissionId === ownSubmission && !answer.delivered;
        const phase = {
          kind: 'submitted',
          values: answer.values as TaskSurfaceValues,
          text: answer.text,
          submissionId: answer.submissionId,
          // This view's own fresh answer is on its way (never a flash of "unsure" before the send).
          delivery: answer.delivered ? 'delivered' : mine ? 'sending' : 'unsure',
        } as const;
        this.#set(phase);
        if (mine) void this.#deliver(phase);
        return;
      }
      case 'unknown':
        return this.#set({ kind: 'unknown' });
      case 'invalid':
        return this.#set({ kind: 'open', busy: false, problem: 'refused' });
    }
  }

  /** One `ui/message` with the server's text; its acceptance is recorded on the server. */
  async #deliver(phase: Extract<Phase, { kind: 'submitted' }>): Promise<void> {
    if (this.#delivering || this.viewId === null) return;
    this.#delivering = true;
    this.#set({ ...phase, delivery: 'sending' });
    try {
      const reply = await this.app.sendMessage({ role: 'user', content: [{ type: 'text', text: phase.text }] });
      if (reply.isError) throw new Error('the host refused the message');
    } catch {
      this.#delivering = false;
      return this.#set({ ...phase, delivery: 'failed' });
    }
    this.#set({ ...phase, delivery: 'delivered' });
    // The message went; if this record is lost, a later mount says "unsure" rather than send again.
    await this.#call({ action: 'delivered', viewId: this.viewId, submissionId: phase.submissionId }).catch(() => undefined);
    this.#delivering = false;
  }

  async #call(args: Record<string, unknown>): Promise<ViewAnswer> {
    const result = await this.app.callServerTool({ name: VIEW_TOOL, arguments: args });
    const state = result.structuredContent as ViewAnswer | undefined;
    if (!state || typeof state.status !== 'string') throw new Error('the view tool gave no state');
    return state;
  }
}

/* The view's own storage is a cache at most: a sandboxed iframe with an opaque origin has none. */
const key = (viewId: string) => `task-surface-mcp:${viewId}`;
function cached(viewId: string): TaskSurfaceSubmissionId | null {
  try {
    return (sessionStorage.getItem(key(viewId)) as TaskSurfaceSubmissionId | null) ?? null;
  } catch {
    return null;
  }
}
function remember(viewId: string, submissionId: TaskSurfaceSubmissionId): void {
  try {
    sessionStorage.setItem(key(viewId), submissionId);
  } catch {
    // No storage here: the server's record is the one that counts.
  }
}
