/*
 * How two processes of a cluster prove to each other that they know its secret, without either one
 * ever sending it: a challenge–response over HMAC-SHA256, bound to both nonces and to the address the
 * connecting process dialed. The owner proves itself first, so a process at an address the workers
 * table names that does not know the secret (a rogue row) learns nothing: neither the secret, nor an
 * answer it could replay, nor a single request. An answer relayed to another process fails there,
 * since that process's own address is in what it checks.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A fresh nonce (128 bits, base64url). */
export function nonce(): string {
  return randomBytes(16).toString('base64url');
}

/** A nonce as a peer's upgrade may carry it: base64url, 16 to 64 characters. */
export function wellFormedNonce(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{16,64}$/.test(value);
}

/** The proof of one side: `owner` (the server) or `peer` (the connecting process). */
export function proof(secret: Buffer, side: 'owner' | 'peer', peerNonce: string, ownerNonce: string, url: string): string {
  return createHmac('sha256', secret).update(`task-surface-peer\n${side}\n${peerNonce}\n${ownerNonce}\n${url}`).digest('base64url');
}

/** Constant-time comparison of a proof received with the one expected. */
export function proofMatches(received: unknown, expected: string): boolean {
  if (typeof received !== 'string') return false;
  const a = Buffer.from(received);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The owner's first frame to a claimed peer, and the check of its answer. */
export function challengeFor(secret: Buffer, peerNonce: string, ownUrl: string): { challenge: string; verify(answer: string): boolean } {
  const ownerNonce = nonce();
  const expected = proof(secret, 'peer', peerNonce, ownerNonce, ownUrl);
  return {
    challenge: JSON.stringify({ type: 'peer.challenge', nonce: ownerNonce, proof: proof(secret, 'owner', peerNonce, ownerNonce, ownUrl) }),
    verify(answer) {
      const parsed = JSON.parse(answer) as { type?: unknown; proof?: unknown } | null;
      return parsed?.type === 'peer.proof' && proofMatches(parsed.proof, expected);
    },
  };
}

/**
 * The connecting side: checks the owner's challenge (its proof, bound to the address dialed) and
 * answers the frame to send, or null when the owner did not prove the secret.
 */
export function answerChallenge(secret: Buffer, peerNonce: string, dialed: string, frame: string): string | null {
  let parsed: { type?: unknown; nonce?: unknown; proof?: unknown } | null;
  try {
    parsed = JSON.parse(frame) as typeof parsed;
  } catch {
    return null;
  }
  if (parsed?.type !== 'peer.challenge' || !wellFormedNonce(parsed.nonce)) return null;
  if (!proofMatches(parsed.proof, proof(secret, 'owner', peerNonce, parsed.nonce, dialed))) return null;
  return JSON.stringify({ type: 'peer.proof', proof: proof(secret, 'peer', peerNonce, parsed.nonce, dialed) });
}
