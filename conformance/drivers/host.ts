/*
 * The Host's drivers: the Host in-process (the components' local transport) and the Host over
 * WebSocket (the package's server and client). The scripted model is the Host's `AgentDriver`; the
 * person's side is a `HostTransport`, as the Dock and the card see it.
 */
import { createHost } from '../../host/createHost.js';
import { foldTaskSurface } from '../../host/taskSurface/projection.js';
import { createMemoryStore } from '../../host/store/memory.js';
import type { AgentDriver, AgentTurn, Host } from '../../host/types.js';
import {
  mintMessageId,
  mintRpcId,
  type CallId,
  type InboxItemId,
  type JsonValue,
  type SessionEvent,
  type SessionId,
  type SessionView,
  type TaskSurfaceDismissalId,
  type TaskSurfaceId,
  type TaskSurfaceModelV1,
  type TaskSurfaceSubmissionId,
} from '../../protocol/index.js';
import { createLocalTransport } from '../../transport/local.js';
import type { HostTransport } from '../../transport/types.js';
import type {
  ActiveSurface,
  ConformanceDriver,
  Conversation,
  ConversationOptions,
  ModelCall,
  PreviewSeen,
  SeenMessage,
  SendOutcome,
  Supports,
} from '../driver.js';
import { ModelScript } from './script.js';

/** How a Host driver reaches the Host: a person's transport, made again after a restart. */
export interface HostConnection {
  transport: HostTransport;
  close(): Promise<void>;
}

/** The scripted model as the Host's agent: each step one request, its calls made in order, then its text. */
export function scriptedAgent(script: ModelScript, person: () => Conversation): AgentDriver {
  return {
    async runTurn(turn: AgentTurn) {
      for (const step of script.next()) {
        await step.during?.(person());
        const request = turn.step();
        script.requests.push({ messages: request.messages.map((m): SeenMessage => ({ role: m.role, text: m.text })) });
        for (const call of step.calls ?? []) {
          if (call.streamed) await streamCall(turn, call, person());
          const outcome = await turn.callTool(call.tool, call.input);
          script.calls.push({ tool: call.tool, ok: outcome.ok, text: outcome.content });
        }
        await step.after?.(person());
        if (step.text !== undefined && !turn.concluded) turn.reply(step.text);
        if (turn.concluded) return;
      }
    },
  };
}

/** Streams a call's arguments as a model would (`turn.showToolInput`), in 8 pieces; `midway` after 4. */
async function streamCall(turn: AgentTurn, call: ModelCall, person: Conversation): Promise<void> {
  const text = JSON.stringify(call.input);
  for (let piece = 1; piece < 8; piece++) {
    turn.showToolInput(call.tool, text.slice(0, Math.round((text.length * piece) / 8)));
    if (piece === 4) {
      await call.streamed?.midway?.(person);
      if (call.streamed?.cut) throw new Error('the model stream broke mid-call');
    }
  }
}

/** The open surface `surfaceId` as the person's panel reads it (the Host's `getActive`), or null. */
export async function activeSeen(transport: HostTransport, sessionId: SessionId, surfaceId: TaskSurfaceId): Promise<ActiveSurface | null> {
  const got = await transport.taskSurface.getActive({ sessionId, surfaceId });
  if (!got.active) return null;
  const pending = got.pending && { submissionId: got.pending.submissionId, phase: got.pending.phase };
  return { surfaceId: got.surfaceId, callId: got.callId, title: got.model.title, pending };
}

/** A preview's model as the person sees it: its title and the blocks shown so far; null for none. */
export const previewSeen = (model: TaskSurfaceModelV1 | undefined): PreviewSeen | null =>
  model ? { title: model.title, blocks: model.sections.reduce((n, s) => n + s.blocks.length, 0) } : null;

/** The newest view the person's transport gives (a fresh watch answers with the current one). */
function currentView(transport: HostTransport, sessionId: SessionId): Promise<SessionView> {
  return new Promise((resolve) => {
    const stop = transport.watchSession(sessionId, (view) => {
      resolve(view);
      queueMicrotask(() => stop());
    });
  });
}

async function readAll(transport: HostTransport, sessionId: SessionId): Promise<SessionEvent[]> {
  const events: SessionEvent[] = [];
  let before: number | undefined;
  for (;;) {
    const page = await transport.readLog(sessionId, before === undefined ? { limit: 500 } : { before, limit: 500 });
    events.unshift(...page.events);
    if (!page.hasMore || page.events.length === 0) return events;
    before = page.events[0]!.seq;
  }
}

/** A conversation on a Host reached through `connect` (in-process or over a socket). */
export async function hostConversation(
  options: ConversationOptions,
  connect: (host: Host) => Promise<HostConnection>,
): Promise<Conversation> {
  const store = createMemoryStore();
  const script = new ModelScript();
  const start = () => {
    const host = createHost({
      store,
      driver: scriptedAgent(script, () => conversation),
      ...(options.limits ? { limits: options.limits } : {}),
      ...(options.maxQueuedMessages === undefined ? {} : { maxQueuedMessages: options.maxQueuedMessages }),
      actionCards: options.queuedMessageLimit === undefined ? {} : { queuedMessageLimit: options.queuedMessageLimit },
      onError: () => {},
    });
    for (const kind of options.kinds ?? []) host.actionCards.register(kind);
    return host;
  };
  let host = start();
  let connection = await connect(host);
  const sessionId = host.openSession({ title: 'conformance', locale: options.locale, toolMode: options.toolMode ?? 'native' });
  const idle = () => host.whenIdle(sessionId);
  const person = () => connection.transport;
  const fold = async () => foldTaskSurface(await readAll(person(), sessionId));
  const openId = async (surfaceId?: string) => (surfaceId ?? (await fold()).active?.surfaceId ?? 'ts_none') as TaskSurfaceId;

  /** The person's last message on its way: a reload waits for its answer (a turn may start before it arrives). */
  let sending: Promise<unknown> = Promise.resolve();
  const send = async (text: string): Promise<SendOutcome> => {
    const request = person().session.send({ sessionId, messageId: mintMessageId(), rpcId: mintRpcId(), text });
    sending = request.catch(() => {});
    const result = await request;
    return result.accepted ? { accepted: true } : { accepted: false, reason: result.reason };
  };
  const conversation: Conversation = {
    script: (...steps) => script.push(steps),
    async say(text) {
      const result = await send(text);
      await idle();
      return result;
    },
    queue: send,
    async submit({ submissionId, values, note, surfaceId }) {
      const request = {
        sessionId,
        surfaceId: await openId(surfaceId),
        submissionId: submissionId as TaskSurfaceSubmissionId,
        values: values as Record<string, JsonValue>,
        locale: options.locale,
        ...(note === undefined ? {} : { note }),
      };
      const result = await person().taskSurface.submit(request);
      // A refused one started nothing (and may be made while a turn runs: a preview's person).
      if (result.accepted) await idle();
      return result.accepted ? { accepted: true } : { accepted: false, reason: result.reason };
    },
    async dismiss({ dismissalId, surfaceId }) {
      const result = await person().taskSurface.dismiss({
        sessionId,
        surfaceId: await openId(surfaceId),
        dismissalId: dismissalId as TaskSurfaceDismissalId,
      });
      return result.dismissed ? { dismissed: true } : { dismissed: false, reason: result.reason };
    },
    async active() {
      const open = (await fold()).active;
      if (!open) return null;
      return activeSeen(person(), sessionId, open.surfaceId);
    },
    async surfaces() {
      const state = await fold();
      return [...state.surfaceIds].map((surfaceId) => ({
        surfaceId,
        status: state.active?.surfaceId === surfaceId ? ('open' as const) : (state.outcomes.get(surfaceId)?.status ?? 'open'),
      }));
    },
    async act({ callId, verb, payload }) {
      const request = { sessionId, callId: callId as CallId, verb, ...(payload === undefined ? {} : { payload }) };
      const result = options.readOnly
        ? await host.actionCards.act(request, { initiator: { id: 'person', name: 'person' }, canWrite: false })
        : await person().actionCards.act(request);
      await idle();
      return result;
    },
    async cards() {
      const view = host.getView(sessionId).actionCards;
      return view.proposals.map((p) => ({ callId: p.callId, action: p.action, phase: view.decisions[p.callId]?.phase ?? 'proposed' }));
    },
    async queued() {
      return host.getView(sessionId).queue.map((row) => ({ itemId: row.id, submission: row.source.taskSurface !== undefined }));
    },
    async updateQueue(request, itemId) {
      const result = await person().session.updateQueue({ ...request, sessionId, itemId: itemId as InboxItemId });
      return result.ok ? { ok: true } : { ok: false, reason: result.reason };
    },
    async preview() {
      return previewSeen((await currentView(person(), sessionId)).preview?.model);
    },
    calls: () => script.calls,
    requests: () => script.requests,
    async reload() {
      await sending;
      await connection.close();
      connection = await connect(host);
    },
    async restart() {
      await connection.close();
      await host.dispose();
      host = start();
      connection = await connect(host);
    },
    async close() {
      await connection.close();
      await host.dispose();
    },
  };
  return conversation;
}

/** Everything a Host does: the reference every other path is compared with. */
export const HOST_SUPPORTS: Supports = { conversation: true, queue: true, cards: true, toolModes: true, restart: true, preview: true };

/** The Host in-process, the person's side through the components' local transport. */
export const hostDriver: ConformanceDriver = {
  path: 'host',
  description: 'The Host in-process (`createHost`, a memory store), the person through `createLocalTransport`.',
  supports: HOST_SUPPORTS,
  open: (options) => hostConversation(options, async (host) => ({ transport: createLocalTransport(host), close: async () => {} })),
};
