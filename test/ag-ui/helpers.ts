// A Host with the kit's scripted model behind the AG-UI routes, and the routes' answers read back.
import { verifyEvents } from '@ag-ui/client';
import type { BaseEvent, Message } from '@ag-ui/core';
import { from, lastValueFrom, toArray, type OperatorFunction } from 'rxjs';
import { createAgUiRoutes, type AgUiRoutes, type AgUiRunOptions } from '../../ag-ui/index.js';
import { scriptedAgent } from '../../conformance/drivers/host.js';
import { ModelScript } from '../../conformance/drivers/script.js';
import type { Conversation } from '../../conformance/driver.js';
import { createHost } from '../../host/createHost.js';
import { createMemoryStore } from '../../host/store/memory.js';
import type { Host } from '../../host/types.js';
import type { Principal, SessionEvent, SessionId } from '../../protocol/index.js';

export const PERSON: Principal = { id: 'person', name: 'person' };
export const STRANGER: Principal = { id: 'stranger', name: 'stranger' };

export interface Setup {
  host: Host;
  script: ModelScript;
  routes: AgUiRoutes;
  threadId: SessionId;
  /** Posts a run's input as `who`; the status and, for a stream, its events (checked by @ag-ui/client's verifier). */
  run(input: unknown, who?: Principal): Promise<{ status: number; events: BaseEvent[]; error?: { error: string; message: string } }>;
  post(route: 'dismiss' | 'act', body: unknown, who?: Principal): Promise<{ status: number; body: Record<string, unknown> }>;
  log(): Promise<SessionEvent[]>;
  close(): Promise<void>;
}

export function setup(options: AgUiRunOptions = {}): Setup {
  const script = new ModelScript();
  const host = createHost({ store: createMemoryStore(), driver: scriptedAgent(script, () => ({}) as Conversation), onError: () => {} });
  const routes = createAgUiRoutes({
    ...options,
    host: (request) => host.as(request.headers.get('x-who') === STRANGER.id ? STRANGER : PERSON),
  });
  const threadId = host.as(PERSON).openSession({ title: 'ag-ui' });
  const request = (route: string, body: unknown, who: Principal) =>
    new Request(`http://app.test/ag-ui/${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'x-who': who.id },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  return {
    host,
    script,
    routes,
    threadId,
    async run(input, who = PERSON) {
      const response = await routes.run(request('run', input, who));
      if (!response.headers.get('content-type')?.startsWith('text/event-stream')) {
        return { status: response.status, events: [], error: (await response.json()) as { error: string; message: string } };
      }
      const text = await response.text();
      const events = text
        .split('\n\n')
        .filter((chunk) => chunk.startsWith('data: '))
        .map((chunk) => JSON.parse(chunk.slice(6)) as BaseEvent);
      // @ag-ui/client has its own copy of rxjs: its operator is typed against that copy.
      const verified = verifyEvents() as unknown as OperatorFunction<BaseEvent, BaseEvent>;
      return { status: response.status, events: await lastValueFrom(from(events).pipe(verified, toArray())) };
    },
    async post(route, body, who = PERSON) {
      const response = await routes[route](request(route, body, who));
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    },
    async log() {
      return (await host.readLog(threadId, { limit: 1000 })).events;
    },
    close: () => host.dispose(),
  };
}

/** A run's input on `threadId` ending with `messages`. */
export const runInput = (threadId: string, messages: Message[], runId = crypto.randomUUID()) => ({
  threadId,
  runId,
  state: {},
  messages,
  tools: [],
  context: [],
  forwardedProps: {},
});

export const userMessage = (text: string, metadata?: Record<string, unknown>): Message =>
  ({ id: crypto.randomUUID(), role: 'user', content: text, ...(metadata ? { metadata } : {}) }) as Message;
