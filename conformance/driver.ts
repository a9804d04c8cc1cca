/*
 * The conformance kit's driver interface: what one path (the Host in-process, the Host over
 * WebSocket, the MCP App, an AI SDK app, an AG-UI adapter, a product's own adapter) gives the kit
 * so that every scenario runs on it unchanged.
 *
 * A driver plays both ends a path leaves to its embedder: a scripted model (`script`: the calls and
 * text of the model's next response) and the person (say, submit, dismiss, act, reload). It answers
 * in the Host's shapes (protocol/taskSurface.ts, protocol/actionCards.ts), so a scenario compares
 * paths without knowing them. What a path cannot do it says once, in `supports`, with the reason:
 * a scenario that needs it is reported "not applicable" with that reason, never skipped silently.
 *
 * Browser-safe and Node-safe: no Node module, no DOM.
 */
import type { ActResult, CardPhase } from '../protocol/actionCards.js';
import type { JsonValue } from '../protocol/json.js';
import type { TaskSurfaceLimitsInput } from '../protocol/limits.js';
import type { CardKind } from '../host/types.js';

/** One tool call the scripted model makes. */
export interface ModelCall {
  tool: string;
  input: JsonValue;
  /**
   * The model streams this call's arguments (a path with `supports.preview`), as its JSON text in
   * pieces; `midway` runs once half of the text is out, while the call is still being written.
   * `cut`: the stream breaks after `midway` and the turn fails; the call is never made.
   */
  streamed?: { midway?(conversation: Conversation): Promise<void>; cut?: boolean };
}

/**
 * One step of a model response: the calls it makes together (in one response, in this order), then
 * its text. A path runs the next step only when the last one did not end the turn.
 */
export interface ModelStep {
  calls?: readonly ModelCall[];
  text?: string;
  /**
   * What the person does while the model works on this step, before its request (say, messages
   * that queue up behind the running turn: use `queue`, which does not wait for the turn).
   */
  during?: (conversation: Conversation) => Promise<void>;
  /**
   * What the person does once this step's calls have run, while the turn has not ended yet (a
   * submission then waits in the queue behind it). Only scenarios that need `queue` use it; a path
   * with a queue runs it.
   */
  after?: (conversation: Conversation) => Promise<void>;
}

/** What the model read back from one call it made (the text exactly, and whether it failed). */
export interface CallRead {
  tool: string;
  ok: boolean;
  text: string;
}

/** One message of a model request, flattened to text (a tool result as the text the model reads). */
export interface SeenMessage {
  role: 'system' | 'user' | 'assistant' | 'tool' | 'developer';
  text: string;
}

/** What the model was sent on one request. */
export interface SeenRequest {
  messages: readonly SeenMessage[];
}

/** What a path is asked to be, for one conversation. */
export interface ConversationOptions {
  /** The person's language: a shipped tag (`en`, `zh`, `es`, `de`, `ja`, `ar`) or one registered with `registerLocale`. */
  locale: string;
  /** The Task Surface limits the product configures (default: the Host's). */
  limits?: TaskSurfaceLimitsInput;
  /** The profile's tool mode (default `native`). */
  toolMode?: 'native' | 'both' | 'code';
  /** Card kinds (none: no cards, and `skill` / `propose_action` are not offered). */
  kinds?: readonly CardKind[];
  /** Queued next-turn messages at or above which `propose_action` refuses (default 2). */
  queuedMessageLimit?: number;
  /** Rows one conversation's queue may hold before an ordinary message is refused (default 100). */
  maxQueuedMessages?: number;
  /** The conversation is read-only for the person (card acts that write are refused). */
  readOnly?: boolean;
}

/** The open surface as the person's panel reads it (the Host's `getActive`). */
export interface ActiveSurface {
  surfaceId: string;
  callId: string;
  /** The normalised model's title. */
  title: string;
  pending: { submissionId: string; phase: 'queued' | 'claiming' } | null;
}

/** A submission's answer (the Host's `SubmitTaskSurfaceResult`, with the message id left to the path). */
export type SubmitOutcome =
  { accepted: true } | { accepted: false; reason: 'not-open' | 'stale' | 'invalid-submission' | 'submission-pending' | (string & {}) };

/** A dismissal's answer (the Host's `DismissTaskSurfaceResult`, without its seq). */
export type DismissOutcome =
  { dismissed: true } | { dismissed: false; reason: 'not-open' | 'stale' | 'submission-pending' | (string & {}) };

/** An ordinary message's answer: admitted, or refused with the Host's reason (`queue-full`, a limit). */
export type SendOutcome = { accepted: true } | { accepted: false; reason: string };

/** One card as the person sees it. */
export interface CardSeen {
  callId: string;
  action: string;
  phase: CardPhase;
}

/** What the person's panel shows of a call still being written (`supports.preview`). */
export interface PreviewSeen {
  title: string;
  /** Blocks shown so far, in all sections. */
  blocks: number;
}

/** How a surface the person saw closed, as the fold of the path's record says. */
export type SurfaceStatus = 'open' | 'submitted' | 'dismissed' | 'bypassed';

/**
 * One conversation on a path. Every method resolves once the path has settled what it started
 * (the turn a message starts has ended, a decision is recorded), so a scenario reads the result
 * right after; concurrent calls (a double click) are allowed and must not be serialised by the driver.
 */
export interface Conversation {
  /** Scripts the model's next response (its steps); responses queue up, one per model request. Default: one step of text `ok`. */
  script(...steps: ModelStep[]): void;
  /** The person writes an ordinary message (the model answers it with the next scripted response). */
  say(text: string): Promise<SendOutcome>;
  /** The person writes while a turn runs: resolves once the message is admitted to the queue (or refused), without waiting for a turn. */
  queue(text: string): Promise<SendOutcome>;
  /**
   * The person submits the open panel (or `surfaceId`'s, for a stale one) with these ids, as the
   * panel would send it, in the conversation's locale; resolves when the model has answered it.
   */
  submit(request: { submissionId: string; values: Record<string, JsonValue>; note?: string; surfaceId?: string }): Promise<SubmitOutcome>;
  /** The person dismisses the open panel (or `surfaceId`'s). */
  dismiss(request: { dismissalId: string; surfaceId?: string }): Promise<DismissOutcome>;
  /** The open surface, or null. */
  active(): Promise<ActiveSurface | null>;
  /** The status of every surface the conversation showed, oldest first. */
  surfaces(): Promise<{ surfaceId: string; status: SurfaceStatus }[]>;
  /** The person acts on a card. */
  act(request: { callId: string; verb: string; payload?: JsonValue }): Promise<ActResult>;
  /** Every card, oldest first, with its phase. */
  cards(): Promise<CardSeen[]>;
  /** Every call the model made so far, oldest first, with what it read back. */
  calls(): readonly CallRead[];
  /** Every model request so far, oldest first. */
  requests(): readonly SeenRequest[];
  /**
   * The read-only panel a call still being written shows the person, or null (a path with
   * `supports.preview`). It is never the open surface: `active()` stays null meanwhile.
   */
  preview?(): Promise<PreviewSeen | null>;
  /** The person's page reloads (the path reads its record again). */
  reload(): Promise<void>;
  /** The server restarts (process memory is gone; the durable record stays). */
  restart(): Promise<void>;
  /** The rows waiting in the queue, oldest first (a path with a queue gives it: `supports.queue`). */
  queued?(): Promise<{ itemId: string; submission: boolean }[]>;
  /** A queue action on a row, answered as the Host's `session.updateQueue` (a path with a queue gives it). */
  updateQueue?(
    request: { op: 'remove' | 'steer' } | { op: 'edit'; text: string },
    itemId: string,
  ): Promise<{ ok: true } | { ok: false; reason: string }>;
  /** Ends the conversation and frees what it holds. */
  close(): Promise<void>;
}

/**
 * What a path can do. `true`, or the reason it cannot (a sentence a reader of the conformance table
 * understands: "MCP gives a server no conversation: …"). A scenario names what it needs.
 */
export interface Supports {
  /** The server sees the conversation: ordinary messages, a second panel, bypass, notices on the next request. */
  conversation: true | string;
  /** Next-turn messages wait in a queue of rows while a turn runs (queue rules, queue-full). */
  queue: true | string;
  /**
   * The person can write while the model works, and the model's tools learn how many messages wait
   * (the queued-message limit). Absent: as `queue`.
   */
  waiting?: true | string;
  /** Action cards: `skill`, `propose_action`, acts. */
  cards: true | string;
  /** Tool modes other than native (`code`, `both`). */
  toolModes: true | string;
  /** The server can restart with its record kept. */
  restart: true | string;
  /**
   * The person sees a read-only preview of a panel while the model streams the call's arguments
   * (`ModelCall.streamed`, `Conversation.preview`). Optional: a driver that does not say is not
   * applicable, with the kit's sentence for it.
   */
  preview?: true | string;
}

export type Capability = keyof Supports;

/** One path: opens conversations on it. */
export interface ConformanceDriver {
  /** A short id (`host`, `host-ws`, `ai-sdk`, `mcp-app`): the conformance table's column. */
  readonly path: string;
  /** What a reader calls the path, and how the driver drives it (one line, for the table). */
  readonly description: string;
  readonly supports: Supports;
  /**
   * Where the path's test runs less than every scenario in every language (a browser within the
   * test budget): what it runs and why, in a sentence the table prints instead of "in every language".
   */
  readonly coverage?: string;
  open(options: ConversationOptions): Promise<Conversation>;
  /** Frees what the driver holds across conversations (servers, stores). */
  dispose?(): Promise<void>;
}
