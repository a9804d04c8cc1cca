import * as z from 'zod/mini';

/** Longest principal id, in characters. */
export const PRINCIPAL_ID_MAX_LENGTH = 256;

/**
 * Who acts: an opaque id the product chose (a user id, an email, a demo cookie's random id). Stored
 * in the log as the owner of a session and as `by` on the events a person caused.
 */
export const PrincipalIdSchema = z.string().check(
  z.minLength(1, 'principal id must not be empty'),
  z.maxLength(PRINCIPAL_ID_MAX_LENGTH, `principal id must be at most ${PRINCIPAL_ID_MAX_LENGTH} characters`),
  // eslint-disable-next-line no-control-regex
  z.regex(/^[^\u0000-\u001f\u007f]+$/, 'principal id must not contain control characters'),
);

export const PrincipalSchema = z.strictObject({
  id: PrincipalIdSchema,
  /** Shown to people (never used for access). */
  name: z.optional(z.string().check(z.maxLength(256))),
  /** Product-defined roles a policy may read ('admin', say). The Host gives them no meaning. */
  roles: z.optional(z.array(z.string().check(z.minLength(1), z.maxLength(64))).check(z.maxLength(64))),
});

/** A person or connection acting on the Host. */
export type Principal = z.infer<typeof PrincipalSchema>;

/**
 * Host code's principal: `host` itself, `host.as(SYSTEM_PRINCIPAL)` and every connection of an
 * `allowAnonymous` WebSocket server act as it. No policy is asked and nothing it causes carries
 * `by`. Recognised by identity (this object), never by its id, so a product user whose id happens
 * to be `system` gets no more than the policy gives.
 */
export const SYSTEM_PRINCIPAL: Principal = Object.freeze({ id: 'system', name: 'system' });

export function isSystem(principal: Principal): boolean {
  return principal === SYSTEM_PRINCIPAL;
}
