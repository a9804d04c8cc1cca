import { describeIssues } from '../protocol/index.js';

/** Host-code input that fails its schema at the Host's edge (a bug in the caller, not a user action). */
export class HostInputError extends Error {
  override name = 'HostInputError';
  constructor(
    readonly operation: string,
    readonly issues: readonly { path: readonly PropertyKey[]; message: string }[],
  ) {
    super(`${operation}: invalid input: ${describeIssues(issues)}`);
  }
}

/** A session id the host does not know (neither live nor in its store). */
export class UnknownSessionError extends Error {
  override name = 'UnknownSessionError';
  constructor(readonly sessionId: string) {
    super(`unknown session ${sessionId}`);
  }
}

/** Parses `input` with a zod (mini) schema or throws HostInputError. */
export function parseInput<T>(
  operation: string,
  schema: { safeParse(input: unknown): { success: true; data: T } | { success: false; error: { issues: HostInputError['issues'] } } },
  input: unknown,
): T {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new HostInputError(operation, parsed.error.issues);
  return parsed.data;
}
