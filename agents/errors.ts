/*
 * Provider failures as one readable sentence: what the turn's `turn/ended` error says and the
 * transcript shows. The SDKs already retried 429 and 5xx (honouring retry-after) and timeouts
 * before the error reaches here. The sentence names the kind of failure only: the provider's own
 * text (which may quote a key's fragment, a base URL, an internal host) goes to the server log
 * (`modelErrorDetail`), never to the person.
 */

/** An error whose message is already the readable reason. */
export class ModelTurnError extends Error {
  override name = 'ModelTurnError';
}

/** The stream ended without the model finishing (no finish_reason, no message_stop). */
export class StreamCutError extends Error {
  override name = 'StreamCutError';
  constructor() {
    super('the stream ended before the model finished');
  }
}

interface ErrorLike {
  status?: unknown;
  statusCode?: unknown;
  message?: unknown;
  name?: unknown;
  cause?: unknown;
  lastError?: unknown;
}

const statusOf = (e: ErrorLike): number | undefined => {
  const status = typeof e.status === 'number' ? e.status : typeof e.statusCode === 'number' ? e.statusCode : undefined;
  // A 200 whose body broke off (the AI SDK reports the status it had) is a cut stream, not an HTTP error.
  return status !== undefined && status >= 400 ? status : undefined;
};

/** The provider's own message, without the SDK's "401 " prefix and cut to one line: for the server log only. */
function providerMessage(e: ErrorLike): string {
  const raw = typeof e.message === 'string' ? e.message : String(e);
  const line = raw
    .replace(/^\d{3}\s+/, '')
    .split('\n')[0]!
    .trim();
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}

/**
 * One sentence for a failed model call. `streamed` is the text that had already arrived: an error
 * after it is a stream cut mid-way.
 */
export function describeModelError(
  error: unknown,
  context: { provider: string; retries: number; timeoutMs: number; streamed: number },
): string {
  if (error instanceof ModelTurnError) return error.message;
  let e = (typeof error === 'object' && error !== null ? error : { message: String(error) }) as ErrorLike;
  // The AI SDK wraps the last attempt in a RetryError.
  if (e.lastError && typeof e.lastError === 'object') e = e.lastError as ErrorLike;
  const status = statusOf(e);
  const name = typeof e.name === 'string' ? e.name : '';
  const what = context.provider;
  const tries = context.retries > 0 ? ` (after ${context.retries} ${context.retries === 1 ? 'retry' : 'retries'})` : '';
  if (status === 401 || status === 403) {
    return `${what} refused the API key (${status}). Check the key and the base URL.`;
  }
  if (status === 429) return `${what} is rate-limiting requests (429)${tries}. Try again later.`;
  if (status !== undefined && status >= 500) return `${what} failed (${status})${tries}.`;
  if (status !== undefined) return `${what} rejected the request (${status}).`;
  if (/timeout/i.test(name) || /timed? ?out/i.test(providerMessage(e))) {
    return `${what} did not answer within ${Math.round(context.timeoutMs / 100) / 10} s${tries}.`;
  }
  if (error instanceof StreamCutError || context.streamed > 0) {
    return `${what}'s reply was cut off after ${context.streamed} characters.`;
  }
  if (/connection|fetch failed|ECONNREFUSED|ENOTFOUND|terminated|socket/i.test(`${name} ${providerMessage(e)}`)) {
    return `${what} could not be reached or closed the connection.`;
  }
  return `${what} failed.`;
}

/** The provider's own words for a failed call (status and message), for the server log: never shown to the person. */
export function modelErrorDetail(error: unknown): string {
  let e = (typeof error === 'object' && error !== null ? error : { message: String(error) }) as ErrorLike;
  if (e.lastError && typeof e.lastError === 'object') e = e.lastError as ErrorLike;
  const status = statusOf(e);
  return `${status === undefined ? '' : `${status} `}${providerMessage(e)}`;
}
