import { mintTaskSurfaceDismissalId, mintTaskSurfaceSubmissionId } from '../../protocol/mint.js';
import type { NormalizedTaskSurfaceModel, TaskSurfaceSubmissionId, TaskSurfaceValues } from '../../protocol/index.js';
import type { PanelState } from '../ledger.js';
import { VIEW_TOOL } from '../constants.js';

/*
 * The panel's life inside the host, apart from its rendering: what it knows of its call, and the
 * rule that a person's answer reaches the model exactly once. The server is the authority on
 * whether the call was answered and on how the answer reached the model (the view's own storage
 * may not exist): the view claims the `ui/message` channel there before it sends, and never sends
 * again on its own. The model may read the answer itself (`task_surface_answer`); whichever comes
 * first delivers it, so a view that finds the answer already read sends nothing.
 */

/**
 * Where the answer stands, as far as this view knows: `prefilled` the host put it into the chat
 * input (VS Code), `read` the model read it through its tool, `no-channel` the host takes no
 * `ui/message` (it answered "Method not found") and the model reads the answer when told.
 */
export type Delivery = 'sending' | 'delivered' | 'prefilled' | 'read' | 'no-channel' | 'failed' | 'unsure';

export type Phase =
  | { kind: 'waiting' }
  | { kind: 'preparing' }
  | { kind: 'preview' }
  | { kind: 'error' }
  | { kind: 'elsewhere' }
  | { kind: 'cancelled' }
  | { kind: 'unknown' }
  | { kind: 'open'; busy: boolean; problem: 'refused' | 'unreachable' | null }
  | { kind: 'submitted'; values: TaskSurfaceValues; text: string; submissionId: TaskSurfaceSubmissionId; delivery: Delivery }
  | { kind: 'dismissed' };

type ViewAnswer = (PanelState & { draft?: TaskSurfaceValues }) | { status: 'invalid'; reason: string };
type TextContent = { content: { type: 'text'; text: string }[] };

/** The few host requests the panel makes (ext-apps' `App` fits it, and so does any client of the same messages). */
export interface PanelHost {
  callServerTool(params: { name: string; arguments: Record<string, unknown> }): Promise<{ structuredContent?: unknown }>;
  sendMessage(params: { role: 'user' } & TextContent): Promise<{ isError?: boolean }>;
  updateModelContext(params: TextContent): Promise<unknown>;
  getHostVersion(): { name: string } | undefined;
}

/**
 * Hosts that put an App's message into the chat input for the person to send, rather than sending
 * it: VS Code, whose `hostInfo.name` is its product's long name (`Visual Studio Code`, `… - Insiders`,
 * `Code - OSS`; VSCodium).
 */
const PREFILLS = /visual studio code|vs ?code|^code - oss|vscodium/i;

/** JSON-RPC's "Method not found": the host takes no such request. */
const METHOD_NOT_FOUND = -32601;

export interface PanelSessionOptions {
  /** Renders the panel again. */
  onChange: () => void;
  /** The person's language tag for the answer's text (the server's formatter matches it). */
  locale: () => string;
  /** Text the model reads when the person dismisses the panel. */
  dismissedText: (title: string) => string;
  /** How long typing pauses before the draft is kept on the server. Default 400 ms. */
  draftDelayMs?: number;
  /** The least time between two preview reads of streamed arguments. Default 250 ms. */
  previewEveryMs?: number;
}

/** The panel's state machine over a host; `onChange` renders. */
export class PanelSession {
  model: NormalizedTaskSurfaceModel | null = null;
  values: TaskSurfaceValues | undefined;
  viewId: string | null = null;
  phase: Phase = { kind: 'waiting' };
  #submissionId: TaskSurfaceSubmissionId | null = null;
  #dismissalId = mintTaskSurfaceDismissalId();
  #busy = false;
  #delivering = false;
  /** Submits and dismissals started: a read that began before one of them says nothing newer. */
  #acts = 0;
  #draftTimer: ReturnType<typeof setTimeout> | undefined;
  /** Streamed arguments not yet read; whether a preview read runs; when the last one started. */
  #partial: Record<string, unknown> | undefined;
  #previewing = false;
  #previewedAt = 0;

  constructor(
    private readonly host: PanelHost,
    private readonly options: PanelSessionOptions,
  ) {}

  #set(phase: Phase) {
    this.phase = phase;
    this.options.onChange();
  }

  /** Tool input (partial or whole): a quiet "preparing" until the result brings the model. */
  preparing(): void {
    if (this.model === null && this.phase.kind === 'waiting') this.#set({ kind: 'preparing' });
  }

  /**
   * Arguments streamed so far (`tool-input-partial`): the server reads their settled part as the Host
   * does (the view tool's `preview`, so the document carries no model parser) and the panel shows it
   * read-only. One read at a time, at most one per `previewEveryMs`, the latest arguments winning; a
   * read that finds nothing whole keeps what is shown. The result, a failure or a cancellation ends it.
   */
  partial(args: Record<string, unknown> | undefined): void {
    this.preparing();
    if (!args || !this.#previewable()) return;
    this.#partial = args;
    void this.#preview();
  }

  #previewable(): boolean {
    return this.viewId === null && (this.phase.kind === 'preparing' || this.phase.kind === 'preview');
  }

  async #preview(): Promise<void> {
    if (this.#previewing) return;
    this.#previewing = true;
    try {
      while (this.#partial && this.#previewable()) {
        const wait = this.#previewedAt + (this.options.previewEveryMs ?? 250) - Date.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        const args = this.#partial;
        this.#partial = undefined;
        this.#previewedAt = Date.now();
        const read = await this.host
          .callServerTool({ name: VIEW_TOOL, arguments: { action: 'preview', arguments: args } })
          .catch(() => null);
        const model = (read?.structuredContent as { model?: NormalizedTaskSurfaceModel | null } | undefined)?.model;
        if (model && this.#previewable()) {
          this.model = model;
          this.#set({ kind: 'preview' });
        }
      }
    } finally {
      this.#previewing = false;
    }
  }

  failed(): void {
    this.#partial = undefined;
    this.model = null;
    this.#set({ kind: 'error' });
  }

  /** The host cancelled the call before its result: there is no panel to answer. */
  cancelled(): void {
    if (this.viewId !== null) return;
    this.#partial = undefined;
    this.model = null;
    this.#set({ kind: 'cancelled' });
  }

  /** A result without a panel: the server asked in another way (a form, or the chat) because the host declared no MCP Apps. */
  elsewhere(): void {
    this.#partial = undefined;
    this.model = null;
    this.#set({ kind: 'elsewhere' });
  }

  /** The tool result: the normalised model and the call's viewId; the server says where it stands. */
  async result(model: NormalizedTaskSurfaceModel, viewId: string): Promise<void> {
    if (this.viewId === viewId) return;
    this.#partial = undefined;
    this.model = model;
    this.viewId = viewId;
    this.#submissionId = cached(viewId);
    // Answerable at once: a submit is idempotent on the server, which answers with its record when
    // the panel was answered already. The read then says where it stands, unless the person's own
    // submit or dismissal is already on its way (its answer says it). A view that has submitted
    // before (its storage says so) waits for the read.
    if (this.#submissionId === null) this.#set({ kind: 'open', busy: false, problem: null });
    const acted = this.#acts;
    try {
      const state = await this.#call({ action: 'read', viewId });
      if (this.#acts === acted) this.#apply(state, this.#submissionId ?? undefined);
    } catch {
      if (this.#acts === acted) this.#set({ kind: 'open', busy: false, problem: 'unreachable' });
    }
  }

  /**
   * Reads the panel's state again (after a read that failed). Until a read succeeds the panel stays
   * answerable: a submit is idempotent on the server, which answers with its record if there is one.
   */
  async retry(): Promise<void> {
    if (this.viewId === null || this.#busy) return;
    this.#busy = true;
    if (this.phase.kind === 'open') this.#set({ ...this.phase, busy: true });
    try {
      // This view's own answer that no channel has carried (its reply was lost, or the frame went
      // away before the claim) was never sent: the claim comes before the send. So it is sent now.
      this.#apply(await this.#call({ action: 'read', viewId: this.viewId }), this.#submissionId ?? undefined);
    } catch {
      this.#set({ kind: 'open', busy: false, problem: 'unreachable' });
    } finally {
      this.#busy = false;
    }
  }

  /** The person changed a value: kept here at once, and on the server when typing pauses. */
  edit(values: TaskSurfaceValues): void {
    this.values = values;
    clearTimeout(this.#draftTimer);
    const viewId = this.viewId;
    if (viewId === null) return;
    this.#draftTimer = setTimeout(
      () => void this.#call({ action: 'draft', viewId, values }).catch(() => undefined),
      this.options.draftDelayMs ?? 400,
    );
  }

  /** The person pressed Submit (the view checked the required fields). */
  async submit(values: TaskSurfaceValues): Promise<void> {
    if (this.#busy || this.viewId === null || this.phase.kind !== 'open') return;
    this.#busy = true;
    this.#acts++;
    clearTimeout(this.#draftTimer);
    this.values = values;
    const viewId = this.viewId;
    const submissionId = (this.#submissionId ??= mintTaskSurfaceSubmissionId());
    remember(viewId, submissionId);
    this.#set({ kind: 'open', busy: true, problem: null });
    try {
      const answer = await this.#call({ action: 'submit', viewId, submissionId, values, locale: this.options.locale() });
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
    if (this.phase.kind !== 'submitted' || ['delivered', 'read', 'prefilled', 'no-channel'].includes(this.phase.delivery)) return;
    await this.#deliver(this.phase);
  }

  async dismiss(): Promise<void> {
    if (this.#busy || this.viewId === null || this.phase.kind !== 'open') return;
    this.#busy = true;
    this.#acts++;
    clearTimeout(this.#draftTimer);
    const title = this.model?.title ?? '';
    try {
      const answer = await this.#call({ action: 'dismiss', viewId: this.viewId, dismissalId: this.#dismissalId });
      // No message and no turn: the model learns it from its context, or from task_surface_answer.
      if (answer.status === 'dismissed')
        await this.host.updateModelContext({ content: [{ type: 'text', text: this.options.dismissedText(title) }] }).catch(() => undefined);
      this.#apply(answer);
    } catch {
      this.#set({ kind: 'open', busy: false, problem: 'unreachable' });
    } finally {
      this.#busy = false;
    }
  }

  /** Shows what the server says; delivers only this view's own fresh submission. */
  #apply(answer: ViewAnswer, ownSubmission?: TaskSurfaceSubmissionId): void {
    switch (answer.status) {
      case 'open':
        this.model = answer.model;
        if (answer.draft && this.values === undefined) this.values = answer.draft;
        return this.#set({ kind: 'open', busy: false, problem: null });
      case 'dismissed':
        this.model = answer.model;
        return this.#set({ kind: 'dismissed' });
      case 'submitted': {
        this.model = answer.model;
        const mine = ownSubmission !== undefined && answer.submissionId === ownSubmission && answer.channel === null;
        const phase = {
          kind: 'submitted',
          values: answer.values as TaskSurfaceValues,
          text: answer.text,
          submissionId: answer.submissionId,
          // This view's own fresh answer is on its way (never a flash of "unsure" before the send).
          delivery: deliveryOf(answer.channel, mine),
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

  /**
   * One `ui/message` with the server's text, when the host takes messages: the channel is claimed
   * on the server first (if the model has read the answer meanwhile, nothing is sent), and the
   * host's acceptance or refusal is recorded after.
   */
  async #deliver(phase: Extract<Phase, { kind: 'submitted' }>): Promise<void> {
    if (this.#delivering || this.viewId === null) return;
    const viewId = this.viewId;
    const submissionId = phase.submissionId;
    const record = (action: string) => this.#call({ action, viewId, submissionId }).catch(() => null);
    this.#delivering = true;
    try {
      // Sent whether or not the host declares `message`: VS Code takes ui/message and declares none.
      this.#set({ ...phase, delivery: 'sending' });
      const claimed = await record('sending');
      if (claimed?.status === 'submitted' && claimed.channel === 'answer-tool') return this.#set({ ...phase, delivery: 'read' });
      let refused: Delivery | null = null;
      try {
        const reply = await this.host.sendMessage({ role: 'user', content: [{ type: 'text', text: phase.text }] });
        if (reply.isError === true) refused = 'failed';
      } catch (error) {
        // An error answer is the host's refusal (a host without ui/message: "Method not found"); no
        // answer at all (a timeout, a lost frame) may still have been taken.
        if ((error as Error).name !== 'HostRefusal') return this.#set({ ...phase, delivery: 'unsure' });
        refused = (error as { code?: number }).code === METHOD_NOT_FOUND ? 'no-channel' : 'failed';
      }
      if (refused) {
        // The model may have read the answer while the message was under way: then it has it.
        const after = await record('rejected');
        return this.#set({ ...phase, delivery: after?.status === 'submitted' && after.channel === 'answer-tool' ? 'read' : refused });
      }
      this.#set({ ...phase, delivery: PREFILLS.test(this.host.getHostVersion()?.name ?? '') ? 'prefilled' : 'delivered' });
      // The message went; if this record is lost, a later mount says "unsure" rather than send again.
      await record('delivered');
    } finally {
      this.#delivering = false;
    }
  }

  async #call(args: Record<string, unknown>): Promise<ViewAnswer> {
    const result = await this.host.callServerTool({ name: VIEW_TOOL, arguments: args });
    const state = result.structuredContent as ViewAnswer | undefined;
    if (!state || typeof state.status !== 'string') throw new Error('the view tool gave no state');
    return state;
  }
}

/** What a view shows of a recorded answer's delivery. */
function deliveryOf(channel: Extract<PanelState, { status: 'submitted' }>['channel'], mine: boolean): Delivery {
  if (channel === 'answer-tool') return 'read';
  if (channel === 'message') return 'delivered';
  return mine ? 'sending' : 'unsure';
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
