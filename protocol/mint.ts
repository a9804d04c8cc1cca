import type {
  Branded,
  CallId,
  InboxItemId,
  MessageId,
  RpcId,
  SessionId,
  TaskSurfaceDismissalId,
  TaskSurfaceId,
  TaskSurfaceSubmissionId,
  TurnId,
} from './ids.js';

// Minting ids needs no schema: this module is apart from ids.ts so a browser bundle can mint without zod.

/**
 * A random UUID v4. `crypto.randomUUID` exists only in secure contexts; a page served over plain
 * http (a LAN demo) still has `getRandomValues`, so ids can always be minted.
 */
export function mintUuid(): string {
  const c = globalThis.crypto;
  if (typeof c.randomUUID === 'function') return c.randomUUID();
  const b = c.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const mint =
  <Id extends Branded<string, string>>() =>
  (): Id =>
    mintUuid() as Id;

/* Minters of fresh branded ids (random UUIDs), one per id kind. */
export const mintSessionId = mint<SessionId>();
export const mintCallId = mint<CallId>();
export const mintMessageId = mint<MessageId>();
export const mintRpcId = mint<RpcId>();
export const mintInboxItemId = mint<InboxItemId>();
export const mintTurnId = mint<TurnId>();
export const mintTaskSurfaceId = mint<TaskSurfaceId>();
export const mintTaskSurfaceSubmissionId = mint<TaskSurfaceSubmissionId>();
export const mintTaskSurfaceDismissalId = mint<TaskSurfaceDismissalId>();
