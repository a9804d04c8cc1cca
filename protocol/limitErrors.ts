/*
 * The refusals a Host or server gives when one principal (or address) reaches a limit: a shared
 * vocabulary, so a product, the wire and the elements name each one the same way.
 */

/**
 * `quota-exceeded`: something the principal holds is at its limit (sessions, stored bytes, messages
 * per minute); `too-busy`: the principal already has as many turns running as it may;
 * `too-many-connections`: the principal or its address holds as many sockets as it may.
 */
export type LimitCode = 'quota-exceeded' | 'too-busy' | 'too-many-connections';

/** Every limit code, for schemas and exhaustive tables. */
export const LIMIT_CODES = ['quota-exceeded', 'too-busy', 'too-many-connections'] as const satisfies readonly LimitCode[];

/**
 * A limit of the principal refused a message or a submission (`session.send`, `taskSurface.submit`;
 * docs/security.md): `quota-exceeded` (stored bytes, messages per minute) or `too-busy` (turns running
 * at once). `message` is the limit's own sentence in English, for logs and developers (which limit,
 * its value, what to do); a UI words the reason in the person's language. `retryAfterMs` when waiting
 * helps. Nothing was added.
 */
export type PrincipalLimitRefusal = {
  accepted: false;
  reason: Extract<LimitCode, 'quota-exceeded' | 'too-busy'>;
  message: string;
  retryAfterMs?: number;
};

/**
 * A request refused because a limit was reached; nothing was changed. `limit` names which one
 * (`sessions`, `session-bytes`, `principal-bytes`, `messages-per-minute`, `concurrent-turns`, …);
 * `retryAfterMs`, when given, is when the same request may succeed (a rate, not a stored amount).
 * A transport answers it with an error frame of code `code`.
 */
export class LimitExceededError extends Error {
  override name = 'LimitExceededError';
  constructor(
    readonly code: LimitCode,
    readonly limit: string,
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}
