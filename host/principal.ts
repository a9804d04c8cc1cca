import type { Principal, SessionAccess, SessionId } from '../protocol/index.js';

export { isSystem, SYSTEM_PRINCIPAL } from '../protocol/index.js';
export type { SessionAccess } from '../protocol/index.js';

/** What a policy is told about a session. A missing session is asked about too, with `owner: null`. */
export interface SessionFacts {
  sessionId: SessionId;
  /** The principal id in the session's opening event; null when it has none (opened by host code) or does not exist. */
  owner: string | null;
}

/**
 * Who may do what with a session. Synchronous, and asked for every call a principal makes on a
 * session, whether or not the session exists. A policy that throws gives `none`.
 */
export type SessionPolicy = (principal: Principal, session: SessionFacts) => SessionAccess;

/** The default: the owner reads and writes; nobody else sees the session. */
export const ownerOnly: SessionPolicy = (principal, session) =>
  session.owner !== null && session.owner === principal.id ? 'write' : 'none';
