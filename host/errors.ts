import { HostInputError, OWN_WORDS, UnknownSessionError } from '../protocol/index.js';
import { InvalidEventError, InvalidQueueRowError } from './store/codec.js';

// Part of the client-facing contract (a transport answers them as a bad request and an unknown
// session): they live in protocol/.
export { HostInputError, UnknownSessionError };

/** The new objects `parseInput` produced, with the schema each passed. */
const parsedBy = new WeakMap<object, unknown>();

/** Parses `input` with a zod (mini) schema or throws HostInputError. */
export function parseInput<T>(
  operation: string,
  schema: {
    safeParse(
      input: unknown,
      options: typeof OWN_WORDS,
    ): { success: true; data: T } | { success: false; error: { issues: HostInputError['issues'] } };
  },
  input: unknown,
): T {
  // A request this function already produced with the same schema (the scoped Host parsed it and
  // handed it on to the Host's own call) is not parsed again: outside input is validated once.
  if (typeof input === 'object' && input !== null && parsedBy.get(input) === schema) return input as T;
  const parsed = schema.safeParse(input, OWN_WORDS);
  if (!parsed.success) throw new HostInputError(operation, parsed.error.issues);
  // Only a new object: one the caller still holds (and may change) is parsed again next time.
  if (typeof parsed.data === 'object' && parsed.data !== null && parsed.data !== input) parsedBy.set(parsed.data, schema);
  return parsed.data;
}

/**
 * The store threw while the host was making something durable or reading it back (a full disk, a
 * closed or locked database). `operation` names the step; the state the host keeps around it is
 * settled before this is thrown or reported, so the session keeps moving.
 */
export class HostStoreError extends Error {
  override name = 'HostStoreError';
  constructor(
    readonly sessionId: string,
    readonly operation: string,
    override readonly cause: unknown,
  ) {
    super(`session ${sessionId}: the store failed during ${operation}: ${(cause as Error)?.message ?? String(cause)}`);
  }
}

/**
 * Runs one store call of a request: a store failure becomes a HostStoreError naming the step (a
 * refused event or row, which is the caller's input, passes through as it is).
 */
export function storeStep<T>(sessionId: string, operation: string, call: () => T): T {
  try {
    return call();
  } catch (error) {
    if (error instanceof InvalidEventError || error instanceof InvalidQueueRowError) throw error;
    throw new HostStoreError(sessionId, operation, error);
  }
}
