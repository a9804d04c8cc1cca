/*
 * The panel and the cards as AG-UI activities: one activity message per surface (`task-surface`)
 * and per card (`task-surface-card`), its content read from the Host's record (the fold of the log
 * for a surface's status, the view for the pending phase and the cards). A consumer is brought to
 * the current content by a snapshot when it lacks the activity and by a JSON Patch delta otherwise.
 *
 * Browser-safe: types and pure functions only.
 */
import type { CardDecision, CardProposal, JsonValue, SessionView } from '../protocol/index.js';

/** The activity type of a panel (the Dock and the transcript row render it). */
export const PANEL_ACTIVITY = 'task-surface';
/** The activity type of an action card (the `action-card` element renders it). */
export const CARD_ACTIVITY = 'task-surface-card';

/**
 * The activity type of the read-only panel while the model still writes the call (the Host's
 * preview): one per thread, its `model` null once the call is complete, refused or cut.
 */
export const PREVIEW_ACTIVITY = 'task-surface-preview';

/** A panel's state as its activity carries it. */
export type PanelStatus = 'open' | 'pending' | 'submitted' | 'dismissed' | 'bypassed';

/** The content of a `task-surface` activity. */
export interface PanelActivityContent {
  surfaceId: string;
  callId: string;
  status: PanelStatus;
  /** The model the panel shows (the show's presentation metadata). */
  model: JsonValue;
  /** The accepted submission waiting for its turn (status `pending`), else null. */
  pending: { submissionId: string; messageId: string; phase: 'queued' | 'claiming' } | null;
}

/** The content of a `task-surface-card` activity. */
export interface CardActivityContent {
  callId: string;
  proposal: CardProposal;
  decision: CardDecision | null;
}

/** The content of a `task-surface-preview` activity: what is written of the call so far, or null. */
export interface PreviewActivityContent {
  turnId: string | null;
  model: JsonValue | null;
}

/** One activity message: its id, type and content. */
export interface Activity {
  messageId: string;
  activityType: typeof PANEL_ACTIVITY | typeof CARD_ACTIVITY | typeof PREVIEW_ACTIVITY;
  content: PanelActivityContent | CardActivityContent | PreviewActivityContent;
}

/** The activity message id of a panel, stable across runs (a snapshot again replaces it). */
export const panelActivityId = (surfaceId: string) => `task-surface:${surfaceId}`;
/** The activity message id of a thread's preview. */
export const previewActivityId = (threadId: string) => `task-surface-preview:${threadId}`;
/** The activity message id of a card. */
export const cardActivityId = (callId: string) => `task-surface-card:${callId}`;

/** What a surface's record says, for `activitiesOf`. */
export interface SurfaceRecord {
  surfaceId: string;
  callId: string;
  model: JsonValue;
  /** From the fold of the log: open, or how it closed. */
  closed: 'submitted' | 'dismissed' | 'bypassed' | null;
}

/**
 * Every activity of a session: its surfaces (oldest first), its cards, then the preview while the
 * model writes a panel (and after it, emptied, when `keepPreview`: the client has it).
 */
export function activitiesOf(surfaces: readonly SurfaceRecord[], view: SessionView, keepPreview = false): Activity[] {
  const active = view.taskSurface.active;
  const panels = surfaces.map((s): Activity => {
    const pending = active?.surfaceId === s.surfaceId && active.pending ? active.pending : null;
    const status: PanelStatus = s.closed ?? (pending ? 'pending' : 'open');
    const content: PanelActivityContent = {
      surfaceId: s.surfaceId,
      callId: s.callId,
      status,
      model: s.model,
      pending: s.closed ? null : pending && { submissionId: pending.submissionId, messageId: pending.messageId, phase: pending.phase },
    };
    return { messageId: panelActivityId(s.surfaceId), activityType: PANEL_ACTIVITY, content };
  });
  const cards = view.actionCards.proposals.map((proposal): Activity => ({
    messageId: cardActivityId(proposal.callId),
    activityType: CARD_ACTIVITY,
    content: { callId: proposal.callId, proposal, decision: view.actionCards.decisions[proposal.callId] ?? null },
  }));
  const preview: Activity[] =
    view.preview || keepPreview
      ? [
          {
            messageId: previewActivityId(view.sessionId),
            activityType: PREVIEW_ACTIVITY,
            content: { turnId: view.preview?.turnId ?? null, model: (view.preview?.model as JsonValue | undefined) ?? null },
          },
        ]
      : [];
  return [...panels, ...cards, ...preview];
}

/** One JSON Patch operation on an activity's content (RFC 6902, top-level keys only). */
export type ContentPatch = { op: 'add' | 'replace'; path: string; value: unknown } | { op: 'remove'; path: string };

const pointer = (key: string) => `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;

/** The patch that turns `from` into `to`, key by key (empty when they are equal). */
export function contentPatch(from: Record<string, unknown>, to: Record<string, unknown>): ContentPatch[] {
  const ops: ContentPatch[] = [];
  for (const key of Object.keys(from)) if (!(key in to)) ops.push({ op: 'remove', path: pointer(key) });
  for (const [key, value] of Object.entries(to)) {
    if (!(key in from)) ops.push({ op: 'add', path: pointer(key), value });
    else if (JSON.stringify(from[key]) !== JSON.stringify(value)) ops.push({ op: 'replace', path: pointer(key), value });
  }
  return ops;
}
