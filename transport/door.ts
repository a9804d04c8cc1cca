/*
 * What every door of a Node server asks of a request before it does anything for it (Node only):
 * who is asking, through the product's `authenticate` hook, checked the same way for `/ws`, `/mcp`
 * and an example's HTTP routes. Host and Origin are checked by ws/origin.ts, counted connections by
 * ws/admission.ts; this is the principal.
 */
import type { IncomingMessage } from 'node:http';
import { describeIssues, PrincipalSchema, type Principal } from '../protocol/index.js';
import { OWN_WORDS } from '../protocol/wire.js';

/** The product's hook: who sends this request (a cookie, an `Authorization` header…), or null. */
export type Authenticate = (request: IncomingMessage) => Principal | null | Promise<Principal | null>;

/**
 * The request's principal from `authenticate`, or null for a refusal: none, a hook that throws, or
 * an answer that is not a principal (reported to `onError`, with the principal's issues). Never rejects.
 */
export async function identifyRequest(
  authenticate: Authenticate,
  request: IncomingMessage,
  onError: (error: unknown) => void,
): Promise<Principal | null> {
  try {
    const principal = await authenticate(request);
    if (principal === null) return null;
    const parsed = PrincipalSchema.safeParse(principal, OWN_WORDS);
    if (parsed.success) return principal;
    onError(new TypeError(`authenticate answered something that is not a principal: ${describeIssues(parsed.error.issues)}`));
  } catch (error) {
    onError(error);
  }
  return null;
}
