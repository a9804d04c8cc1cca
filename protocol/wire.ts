import * as z from 'zod/mini';
import { LocaleTagSchema } from './localeSchema.js';
import { WIRE_ERROR_CODES } from './wireConstants.js';
import { ActRequestSchema } from './actionCards.js';
import { SessionIdSchema } from './ids.js';
import { SendMessageRequestSchema, UpdateQueueRequestSchema } from './message.js';
import {
  DismissTaskSurfaceRequestSchema,
  GetActiveTaskSurfaceRequestSchema,
  GetTaskSurfaceOutcomeRequestSchema,
  SubmitTaskSurfaceRequestSchema,
} from './taskSurface.js';
import {
  ActResultSchema,
  DismissResultSchema,
  GetActiveResultSchema,
  LogPageSchema,
  SendMessageResultSchema,
  SessionSummarySchema,
  SessionViewSchema,
  SubmitResultSchema,
  TaskSurfaceOutcomeSchema,
  UpdateQueueResultSchema,
} from './wireResults.js';

/*
 * The WebSocket wire protocol between a browser client and a Node host. Every frame is one JSON
 * object, checked by these schemas on both ends. A client request carries a client-minted `id`; a
 * retry after a reconnect sends the same id (and the same mutation ids), so the host answers it with
 * the first result.
 */

/** Request ids: like protocol ids but minted per call by the client. */
export const WireRequestIdSchema = z
  .string()
  .check(z.minLength(1, 'id must not be empty'), z.maxLength(128, 'id must be at most 128 characters'));

const request = <T extends string, P extends z.ZodMiniType>(type: T, params: P) =>
  z.strictObject({ id: WireRequestIdSchema, type: z.literal(type), params });

export const ReadLogParamsSchema = z.strictObject({
  sessionId: SessionIdSchema,
  before: z.optional(z.int().check(z.positive('before must be a positive seq'))),
  limit: z.int().check(z.positive('limit must be positive'), z.maximum(500, 'limit must be at most 500')),
});

export const OpenSessionParamsSchema = z.strictObject({
  title: z.optional(z.string().check(z.minLength(1, 'title must not be empty'), z.maxLength(200, 'title must be at most 200 characters'))),
  /** The session's locale (submission text when a submit names none). */
  locale: z.optional(LocaleTagSchema),
});

/** Every request a client may send, by `type`. `ping` is the client's liveness probe. */
export const ClientRequestSchemas = {
  ping: request('ping', z.optional(z.strictObject({}))),
  'session.watch': request('session.watch', z.strictObject({ sessionId: SessionIdSchema })),
  'session.unwatch': request('session.unwatch', z.strictObject({ sessionId: SessionIdSchema })),
  'session.list': request('session.list', z.optional(z.strictObject({}))),
  'session.open': request('session.open', OpenSessionParamsSchema),
  'log.read': request('log.read', ReadLogParamsSchema),
  'taskSurface.getActive': request('taskSurface.getActive', GetActiveTaskSurfaceRequestSchema),
  'taskSurface.getOutcome': request('taskSurface.getOutcome', GetTaskSurfaceOutcomeRequestSchema),
  'taskSurface.submit': request('taskSurface.submit', SubmitTaskSurfaceRequestSchema),
  'taskSurface.dismiss': request('taskSurface.dismiss', DismissTaskSurfaceRequestSchema),
  'session.send': request('session.send', SendMessageRequestSchema),
  'session.updateQueue': request('session.updateQueue', UpdateQueueRequestSchema),
  'actionCards.act': request('actionCards.act', ActRequestSchema),
} as const;

export type ClientRequestType = keyof typeof ClientRequestSchemas;
export type ClientRequestOf<T extends ClientRequestType> = z.infer<(typeof ClientRequestSchemas)[T]>;
export type ClientRequest = { [T in ClientRequestType]: ClientRequestOf<T> }[ClientRequestType];
export type ClientRequestParams<T extends ClientRequestType> = ClientRequestOf<T>['params'];

export const CLIENT_REQUEST_TYPES = Object.keys(ClientRequestSchemas) as ClientRequestType[];

/** The result schema of each request type: the client checks every answer before using it. */
export const ResultSchemas = {
  ping: z.literal('pong'),
  'session.watch': z.literal('watching'),
  'session.unwatch': z.literal('unwatched'),
  'session.list': z.array(SessionSummarySchema),
  'session.open': SessionSummarySchema,
  'log.read': LogPageSchema,
  'taskSurface.getActive': GetActiveResultSchema,
  'taskSurface.getOutcome': TaskSurfaceOutcomeSchema,
  'taskSurface.submit': SubmitResultSchema,
  'taskSurface.dismiss': DismissResultSchema,
  'session.send': SendMessageResultSchema,
  'session.updateQueue': UpdateQueueResultSchema,
  'actionCards.act': ActResultSchema,
} as const satisfies Record<ClientRequestType, z.ZodMiniType>;

export type ResultOf<T extends ClientRequestType> = z.infer<(typeof ResultSchemas)[T]>;

/**
 * Why the server refused a request. `unknown-session` also covers a session the connection may not
 * see; `rate-limited` (too many frames per second) and `busy` (too many requests of this connection
 * still running) carry `retryAfterMs` and change nothing: the same request may be sent again.
 */
export const WireErrorCodeSchema = z.enum(WIRE_ERROR_CODES);
export type WireErrorCode = z.infer<typeof WireErrorCodeSchema>;

export const ServerResultSchema = z.strictObject({
  type: z.literal('result'),
  id: WireRequestIdSchema,
  result: z.unknown(),
});
export const ServerErrorSchema = z.strictObject({
  type: z.literal('error'),
  /** null when the request's id could not be read (not JSON, too large). */
  id: z.nullable(WireRequestIdSchema),
  code: WireErrorCodeSchema,
  message: z.string(),
  /** With `rate-limited` and `busy`: how long to wait before sending it again. */
  retryAfterMs: z.optional(z.int().check(z.nonnegative())),
});
export const ServerViewSchema = z.strictObject({
  type: z.literal('session.view'),
  sessionId: SessionIdSchema,
  view: SessionViewSchema,
});

/** Every frame a server may send. A `result`'s payload is then checked by `ResultSchemas[type]`. */
export const ServerMessageSchema = z.discriminatedUnion('type', [ServerResultSchema, ServerErrorSchema, ServerViewSchema]);
export type ServerError = z.infer<typeof ServerErrorSchema>;
export type ServerResult = z.infer<typeof ServerResultSchema>;
/** A pushed view (the schema lets unknown extra fields through). */
export type ServerView = z.infer<typeof ServerViewSchema>;
export type ServerMessage = ServerResult | ServerError | ServerView;

export { WIRE_MAX_MESSAGE_BYTES, WIRE_ERROR_CODES } from './wireConstants.js';

/** What a parsed JSON value is, with its article: "null", "an array", "an object", "a number", "a boolean". */
function jsonKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Reads one client frame: a typed request, or the error answer to send back (with the id when known). */
export function parseClientRequest(data: string): { ok: true; request: ClientRequest } | { ok: false; error: ServerError } {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return { ok: false, error: wireError(null, 'bad-request', 'message is not valid JSON') };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { ok: false, error: wireError(null, 'bad-request', 'message must be a JSON object') };
  }
  const raw = json as Record<string, unknown>;
  const id = WireRequestIdSchema.safeParse(raw.id).success ? (raw.id as string) : null;
  if (id === null) return { ok: false, error: wireError(null, 'bad-request', 'message needs a string "id" of 1–128 characters') };
  const type = raw.type;
  if (typeof type !== 'string' || !Object.hasOwn(ClientRequestSchemas, type)) {
    const what =
      type === undefined
        ? 'message needs a "type"'
        : typeof type !== 'string'
          ? `message "type" must be a string, not ${jsonKind(type)}`
          : `unknown message type "${type.slice(0, 64)}"`;
    return { ok: false, error: wireError(id, 'bad-request', `${what}; expected one of ${CLIENT_REQUEST_TYPES.join(', ')}`) };
  }
  const parsed = ClientRequestSchemas[type as ClientRequestType].safeParse(raw, OWN_WORDS);
  if (!parsed.success)
    return { ok: false, error: wireError(id, 'bad-request', `invalid ${type} request: ${describeIssues(parsed.error.issues)}`) };
  return { ok: true, request: parsed.data as ClientRequest };
}

/** Builds an error frame. */
export function wireError(id: string | null, code: WireErrorCode, message: string, retryAfterMs?: number): ServerError {
  return retryAfterMs === undefined ? { type: 'error', id, code, message } : { type: 'error', id, code, message, retryAfterMs };
}

/** An issue as zod reports it; zod/mini ships no locale, so generic ones are worded here (issueText). */
export interface WireIssue {
  path: readonly PropertyKey[];
  message: string;
  code?: string;
  keys?: readonly string[];
  expected?: unknown;
  values?: readonly unknown[];
  minimum?: unknown;
  maximum?: unknown;
}

/**
 * The parse options every outside input is checked with. Classic `zod` sets an English locale for
 * the whole process when a module of it loads (the MCP SDK, the AI SDK, an app's own schemas); this
 * per-parse map outranks it, so an issue no schema words itself reads "Invalid input" and is worded
 * by issueText alike in every process. A schema's own message still wins.
 */
export const OWN_WORDS = { error: (): string => 'Invalid input' };

/** One issue's message, worded here when zod/mini left only its generic "Invalid input". */
export function issueText(issue: WireIssue): string {
  if (issue.message !== 'Invalid input' && !issue.message.startsWith('Invalid input:')) return issue.message;
  switch (issue.code) {
    case 'unrecognized_keys':
      return `unknown field${issue.keys?.length === 1 ? '' : 's'} ${(issue.keys ?? []).map((k) => `"${k}"`).join(', ')}`;
    case 'invalid_type':
      return issue.expected === 'nonoptional' ? 'is required' : `expected ${String(issue.expected)}`;
    case 'invalid_value':
      return `expected ${(issue.values ?? []).map((v) => JSON.stringify(v)).join(' or ')}`;
    case 'too_small':
      return `must be at least ${String(issue.minimum)}`;
    case 'too_big':
      return `must be at most ${String(issue.maximum)}`;
    case 'invalid_union':
      return 'matches none of the allowed shapes';
    default:
      return issue.message;
  }
}

/** `path: message; path: message` for the first few issues of a failed parse. */
export function describeIssues(issues: readonly WireIssue[]): string {
  const shown = issues.slice(0, 5).map((i) => (i.path.length ? `${i.path.map(String).join('.')}: ${issueText(i)}` : issueText(i)));
  return shown.join('; ') + (issues.length > 5 ? ` (and ${issues.length - 5} more)` : '');
}
