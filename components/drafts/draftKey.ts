import type { SessionId } from '../../protocol/index.js';

/**
 * The storage key of a session's drafts. Drafts are keyed by session, then by surfaceId inside.
 * Apart from draftStore.ts so that the Dock can look for stored drafts before its store loads.
 */
export const draftStorageKey = (sessionId: SessionId) => `task-surface:drafts:${sessionId}`;
