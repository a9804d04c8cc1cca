/*
 * The AG-UI path: the adapter's routes (`createAgUiRoutes`) over a Host whose agent is the scripted
 * model, each request as the person's principal (`host.as`); the page side in Node: @ag-ui/client's
 * own `HttpAgent`, its fetch answered by the routes, and `createAgUiTaskSurface(agent)` as the
 * Dock's and the card's transport. What the person sees (open panel, statuses, cards) is read from
 * the agent's activity messages, as a page renders them.
 */
import { HttpAgent } from '@ag-ui/client';
import {
  createAgUiRoutes,
  createAgUiTaskSurface,
  type AgUiRoutes,
  type AgUiTaskSurface,
  type PanelActivityContent,
} from '../../ag-ui/index.js';
import { PANEL_ACTIVITY } from '../../ag-ui/activity.js';
import type { AgUiActResponse, AgUiDismissResponse } from '../../ag-ui/routes.js';
import { createHost } from '../../host/createHost.js';
import { createMemoryStore } from '../../host/store/memory.js';
import type { Host } from '../../host/types.js';
import {
  mintMessageId,
  mintRpcId,
  type CallId,
  type JsonValue,
  type Principal,
  type SessionId,
  type SessionView,
  type TaskSurfaceDismissalId,
  type TaskSurfaceId,
  type TaskSurfaceSubmissionId,
} from '../../protocol/index.js';
import type { HostTransport } from '../../transport/types.js';
import type { ConformanceDriver, Conversation, ConversationOptions, Supports } from '../driver.js';
import { activeSeen, previewSeen, scriptedAgent } from './host.js';
import { ModelScript } from './script.js';

const PERSON: Principal = { id: 'person', name: 'person' };
/** Another participant the owner's policy lets read the conversation (a read-only conversation's acts). */
const VIEWER: Principal = { id: 'viewer', name: 'viewer' };

/** The view `transport` hands the elements now (`watchSession` answers at once). */
function viewNow(transport: HostTransport, sessionId: SessionId): SessionView {
  let current: SessionView | undefined;
  transport.watchSession(sessionId, (next) => (current = next))();
  return current!;
}

/** The view once a run's stream has delivered what the Host wrote (the page reads the stream as it arrives): 3 quiet ticks. */
async function settledView(transport: HostTransport, sessionId: SessionId): Promise<SessionView> {
  let last = '';
  for (let quiet = 0, i = 0; quiet < 3 && i < 500; i++) {
    await new Promise((resolve) => setTimeout(resolve, 0));
    const key = JSON.stringify(viewNow(transport, sessionId));
    quiet = key === last ? quiet + 1 : 0;
    last = key;
  }
  return viewNow(transport, sessionId);
}

async function agUiConversation(options: ConversationOptions): Promise<Conversation> {
  const store = createMemoryStore();
  const script = new ModelScript();
  const start = () => {
    const host = createHost({
      store,
      driver: scriptedAgent(script, () => conversation),
      policy: (principal, session) =>
        session.owner !== PERSON.id ? 'none' : principal.id === PERSON.id ? 'write' : principal.id === VIEWER.id ? 'read' : 'none',
      ...(options.limits ? { limits: options.limits } : {}),
      actionCards: options.queuedMessageLimit === undefined ? {} : { queuedMessageLimit: options.queuedMessageLimit },
      onError: () => {},
    });
    for (const kind of options.kinds ?? []) host.actionCards.register(kind);
    return host;
  };
  let host: Host = start();
  const routesOf = (of: Host): AgUiRoutes =>
    createAgUiRoutes({ host: (request) => of.as(request.headers.get('x-person') === VIEWER.id ? VIEWER : PERSON) });
  let routes = routesOf(host);
  const sessionId = host.as(PERSON).openSession({ title: 'conformance', locale: options.locale, toolMode: options.toolMode ?? 'native' });
  const actor = options.readOnly ? VIEWER.id : PERSON.id;
  const post = async <T>(route: 'dismiss' | 'act', body: unknown, as = PERSON.id): Promise<T> => {
    const init = { method: 'POST', headers: { 'content-type': 'application/json', 'x-person': as }, body: JSON.stringify(body) };
    const response = await routes[route](new Request(`http://app.test/ag-ui/${route}`, init));
    const answer = (await response.json()) as T & { message?: string };
    if (!response.ok) throw new Error(answer.message ?? `the ${route} route answered ${response.status}`);
    return answer;
  };

  /** The page: an HttpAgent on the thread, the adapter's transport over it, brought up to date by a run with nothing new. */
  const openPage = async () => {
    const agent = new HttpAgent({
      url: 'http://app.test/ag-ui',
      threadId: sessionId,
      fetch: (url, init) => routes.run(new Request(url, init)),
    });
    const page = createAgUiTaskSurface(agent, {
      run: () => agent.runAgent(),
      dismiss: (request) => post<AgUiDismissResponse>('dismiss', request),
      act: (request) => post<AgUiActResponse>('act', request, actor),
      locale: options.locale,
    });
    // Up to date once that run ends or, while a turn runs (a reload mid-stream), once its first
    // events (the thread as it is) are in: the run itself waits for the turn.
    let started = false;
    const watch = agent.subscribe({ onRunStartedEvent: () => void (started = true) });
    const connected = agent.runAgent().finally(() => watch.unsubscribe());
    const caughtUp = async () => {
      while (!started) await new Promise((resolve) => setTimeout(resolve, 0));
      await settledView(page.transport, sessionId);
    };
    await Promise.race([connected, caughtUp()]);
    return { agent, page };
  };
  let page: { agent: HttpAgent; page: AgUiTaskSurface } = await openPage();
  const transport = () => page.page.transport;
  const panels = () =>
    page.agent.messages
      .filter((m) => m.role === 'activity' && m.activityType === PANEL_ACTIVITY)
      .map((m) => (m as unknown as { content: PanelActivityContent }).content);
  const openId = (surfaceId?: string) =>
    (surfaceId ?? panels().findLast((p) => p.status === 'open' || p.status === 'pending')?.surfaceId ?? 'ts_none') as TaskSurfaceId;
  const watched = () => settledView(transport(), sessionId);

  const conversation: Conversation = {
    script: (...steps) => script.push(steps),
    async say(text) {
      const result = await transport().session.send({ sessionId, messageId: mintMessageId(), rpcId: mintRpcId(), text });
      return result.accepted ? { accepted: true } : { accepted: false, reason: result.reason };
    },
    queue: () => Promise.reject(new Error(AG_UI_SUPPORTS.queue as string)),
    async submit({ submissionId, values, note, surfaceId }) {
      const result = await transport().taskSurface.submit({
        sessionId,
        surfaceId: openId(surfaceId),
        submissionId: submissionId as TaskSurfaceSubmissionId,
        values: values as Record<string, JsonValue>,
        locale: options.locale,
        ...(note === undefined ? {} : { note }),
      });
      return result.accepted ? { accepted: true } : { accepted: false, reason: result.reason };
    },
    async dismiss({ dismissalId, surfaceId }) {
      const result = await transport().taskSurface.dismiss({
        sessionId,
        surfaceId: openId(surfaceId),
        dismissalId: dismissalId as TaskSurfaceDismissalId,
      });
      return result.dismissed ? { dismissed: true } : { dismissed: false, reason: result.reason };
    },
    async active() {
      const shown = (await watched()).taskSurface.active;
      if (!shown) return null;
      return activeSeen(transport(), sessionId, shown.surfaceId);
    },
    async surfaces() {
      return panels().map((p) => ({ surfaceId: p.surfaceId, status: p.status === 'pending' ? 'open' : p.status }));
    },
    async act({ callId, verb, payload }) {
      return transport().actionCards.act({ sessionId, callId: callId as CallId, verb, ...(payload === undefined ? {} : { payload }) });
    },
    async cards() {
      const { proposals, decisions } = (await watched()).actionCards;
      return proposals.map((p) => ({ callId: p.callId, action: p.action, phase: decisions[p.callId]?.phase ?? 'proposed' }));
    },
    async preview() {
      return previewSeen((await watched()).preview?.model);
    },
    calls: () => script.calls,
    requests: () => script.requests,
    async reload() {
      page.page.dispose();
      page = await openPage();
    },
    async restart() {
      page.page.dispose();
      await host.dispose();
      host = start();
      routes = routesOf(host);
      page = await openPage();
    },
    async close() {
      page.page.dispose();
      await host.dispose();
    },
  };
  return conversation;
}

export const AG_UI_SUPPORTS: Supports = {
  conversation: true,
  queue:
    "an AG-UI client runs one run at a time on a thread (CopilotKit holds the composer while a run streams): a message written meanwhile is the next run's input, so there is no queue of rows to edit, steer or remove, and no queue-full",
  cards: true,
  toolModes: true,
  restart: true,
  preview: true,
};

/** The AG-UI path: the adapter's routes over a Host, @ag-ui/client's HttpAgent and the adapter's transport on the page side. */
export const agUiDriver: ConformanceDriver = {
  path: 'ag-ui',
  description:
    "The adapter's run, dismiss and act routes (`createAgUiRoutes`) over a Host, each request as the person's principal; the page in Node: @ag-ui/client's `HttpAgent`, `createAgUiTaskSurface`, the panel and cards read from its activity messages.",
  supports: AG_UI_SUPPORTS,
  open: agUiConversation,
};
