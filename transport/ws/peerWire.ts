/*
 * The frames of a peer connection, part of the interface the server defines for a cluster: one
 * connection per pair of processes carries the requests, answers and views of every principal, each
 * frame prefixed by the principal it is for. The peer proves it knows the cluster's secret first,
 * by a challenge the server sends (see `WebSocketCluster.challengePeer`).
 */
import { isSystem, PrincipalSchema, SYSTEM_PRINCIPAL, type Principal } from '../../protocol/index.js';

/** The upgrade header that says "I am a peer"; its value is the peer's nonce (never a secret). */
export const PEER_HEADER = 'x-task-surface-peer';

/** How long a claimed peer has, from its upgrade, to answer the challenge. */
export const PEER_PROOF_MS = 5_000;

/** Close code for a claimed peer whose proof is wrong, late or malformed. */
export const CLOSE_PEER_REFUSED = 4401;

/**
 * The principal as a peer frame's prefix: base64url JSON, with no space in it. Host code's principal
 * is known by identity, never by its id (a user whose id is `system` gets no more than the policy
 * gives), so it travels as a flag.
 */
export function encodePrincipal(principal: Principal): string {
  return Buffer.from(JSON.stringify(isSystem(principal) ? { system: true } : { principal })).toString('base64url');
}

/** A prefix's principal, or null when it is not one (the frame is refused). */
export function decodePrincipal(token: string): Principal | null {
  try {
    const raw = JSON.parse(Buffer.from(token, 'base64url').toString()) as { system?: unknown; principal?: unknown } | null;
    if (raw?.system === true) return SYSTEM_PRINCIPAL;
    const parsed = PrincipalSchema.safeParse(raw?.principal);
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** One frame of a peer connection: the principal's prefix, a space, the ordinary wire frame. */
export function peerFrame(token: string, json: string): string {
  return `${token} ${json}`;
}

/** A peer frame's prefix and body; null when it has no prefix. */
export function splitPeerFrame(text: string): { token: string; body: string } | null {
  const space = text.indexOf(' ');
  return space <= 0 ? null : { token: text.slice(0, space), body: text.slice(space + 1) };
}
