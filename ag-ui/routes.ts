/*
 * The adapter's HTTP routes, as fetch handlers (`(Request) => Promise<Response>`) an app mounts
 * behind its own door (its cookie identity, Host/Origin checks): `run` is the AG-UI endpoint an
 * `HttpAgent` or CopilotKit's runtime posts `RunAgentInput` to, answered as an event stream;
 * `dismiss` and `act` carry what AG-UI gives no input for (a dismissal, a card's button): they write
 * through the Host's decision, start no run, and answer the activities as they now are.
 */
import { EventEncoder } from '@ag-ui/encoder';
import * as z from 'zod/mini';
import {
  CallIdSchema,
  JsonValueSchema,
  SessionIdSchema,
  TaskSurfaceDismissalIdSchema,
  TaskSurfaceIdSchema,
  describeIssues,
  type ActResult,
  type DismissTaskSurfaceResult,
} from '../protocol/index.js';
import { activitiesOf, type Activity } from './activity.js';
import { AgUiInputError } from './input.js';
import { readLogAfter, startRun, SurfaceRecords, type AgUiHost, type AgUiRunOptions } from './run.js';

/** A dismissal, as the page posts it to the `dismiss` route. */
export const AgUiDismissRequestSchema = z.strictObject({
  threadId: SessionIdSchema,
  surfaceId: TaskSurfaceIdSchema,
  dismissalId: TaskSurfaceDismissalIdSchema,
});
/** A card's act, as the page posts it to the `act` route. */
export const AgUiActRequestSchema = z.strictObject({
  threadId: SessionIdSchema,
  callId: CallIdSchema,
  verb: z.string().check(z.minLength(1), z.maxLength(64)),
  payload: z.optional(JsonValueSchema),
});

/** The `dismiss` route's answer: the Host's, and the thread's activities after it. */
export interface AgUiDismissResponse {
  result: DismissTaskSurfaceResult;
  activities: Activity[];
}
/** The `act` route's answer: the Host's, and the thread's activities after it. */
export interface AgUiActResponse {
  result: ActResult;
  activities: Activity[];
}

export interface AgUiRoutesOptions extends AgUiRunOptions {
  /**
   * The Host as the request's principal sees it (`host.as(principal)` after the app's door has
   * identified them), or null to answer 401. Every write goes through its per-principal limits.
   */
  host(request: Request): AgUiHost | null | Promise<AgUiHost | null>;
  /** The largest request body taken, in bytes (default 1 MiB); a larger one is answered 413. */
  maxBodyBytes?: number;
}

export interface AgUiRoutes {
  run(request: Request): Promise<Response>;
  dismiss(request: Request): Promise<Response>;
  act(request: Request): Promise<Response>;
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });
const refuse = (status: number, error: string, message: string) => json({ error, message }, status);

/** The thread's activities as they are now. */
async function activitiesNow(host: AgUiHost, threadId: string): Promise<Activity[]> {
  const records = new SurfaceRecords();
  for (const event of await readLogAfter(host, threadId as never, 0)) records.add(event);
  return activitiesOf(records.records(), host.getView(threadId as never));
}

/** The AG-UI adapter's routes over a Host. */
export function createAgUiRoutes(options: AgUiRoutesOptions): AgUiRoutes {
  const maxBytes = options.maxBodyBytes ?? 1 << 20;
  /** The request's principal's Host and its JSON body, or the refusal to answer. */
  const open = async (request: Request): Promise<{ host: AgUiHost; body: unknown } | Response> => {
    if (request.method !== 'POST') return refuse(405, 'method-not-allowed', 'POST only');
    const host = await options.host(request);
    if (!host) return refuse(401, 'unauthenticated', 'no principal for this request');
    const text = await request.text();
    if (new TextEncoder().encode(text).length > maxBytes) return refuse(413, 'too-large', `the body is over ${maxBytes} bytes`);
    try {
      return { host, body: JSON.parse(text) as unknown };
    } catch {
      return refuse(400, 'invalid-json', 'the body is not JSON');
    }
  };
  const known = async (host: AgUiHost, threadId: string) => host.load(threadId as never).catch(() => false);

  return {
    async run(request) {
      const opened = await open(request);
      if (opened instanceof Response) return opened;
      let run;
      try {
        run = await startRun(opened.host, opened.body, options);
      } catch (error) {
        if (!(error instanceof AgUiInputError)) throw error;
        return refuse(error.reason === 'unknown-thread' ? 404 : 400, error.reason, error.message);
      }
      const encoder = new EventEncoder({ accept: request.headers.get('accept') ?? undefined });
      const events = run.events();
      const body = new ReadableStream<Uint8Array | string>({
        async pull(controller) {
          const next = await events.next();
          if (next.done) controller.close();
          else controller.enqueue(encoder.encode(next.value));
        },
        async cancel() {
          await events.return(undefined);
        },
      });
      const stream = body.pipeThrough(
        new TransformStream<Uint8Array | string, Uint8Array>({
          transform: (chunk, controller) => controller.enqueue(typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk),
        }),
      );
      return new Response(stream, { headers: { 'content-type': encoder.getContentType(), 'cache-control': 'no-store' } });
    },

    async dismiss(request) {
      const opened = await open(request);
      if (opened instanceof Response) return opened;
      const parsed = AgUiDismissRequestSchema.safeParse(opened.body);
      if (!parsed.success) return refuse(400, 'invalid-dismissal', describeIssues(parsed.error.issues));
      const { threadId, surfaceId, dismissalId } = parsed.data;
      if (!(await known(opened.host, threadId))) return refuse(404, 'unknown-thread', `unknown thread ${threadId}`);
      const result = await opened.host.taskSurface.dismiss({ sessionId: threadId, surfaceId, dismissalId });
      const answer: AgUiDismissResponse = { result, activities: await activitiesNow(opened.host, threadId) };
      return json(answer);
    },

    async act(request) {
      const opened = await open(request);
      if (opened instanceof Response) return opened;
      const parsed = AgUiActRequestSchema.safeParse(opened.body);
      if (!parsed.success) return refuse(400, 'invalid-act', describeIssues(parsed.error.issues));
      const { threadId, callId, verb, payload } = parsed.data;
      if (!(await known(opened.host, threadId))) return refuse(404, 'unknown-thread', `unknown thread ${threadId}`);
      const result = await opened.host.actionCards.act({
        sessionId: threadId,
        callId,
        verb,
        ...(payload === undefined ? {} : { payload }),
      });
      const answer: AgUiActResponse = { result, activities: await activitiesNow(opened.host, threadId) };
      return json(answer);
    },
  };
}
