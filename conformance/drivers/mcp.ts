/*
 * The MCP App path: the package's MCP server (`createTaskSurfaceMcpServer` over a panel ledger)
 * reached through the official SDK `Client`, declaring MCP Apps, over an in-memory pair. The driver
 * plays the MCP host: it keeps the chat (an MCP server has none), runs the scripted model's calls
 * through the client, and plays the panel in the host's iframe by the view's own rules: the answer
 * goes to the server through the app-only view tool, the `ui/message` channel is claimed there
 * first, the message joins the chat, and the host's acceptance is recorded. A call the model
 * streams goes to the view as the host's healed partial arguments, which the view reads through the
 * view tool's `preview` (`streaming`; a driver with the real view replaces it). Node-only.
 */
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, type CallToolResult } from '@modelcontextprotocol/server';
import { parse } from 'partial-json';
import { createMemoryStore } from '../../host/store/memory.js';
import { shownText } from '../../mcp/answerTool.js';
import { VIEW_TOOL } from '../../mcp/constants.js';
import { createPanelLedger, type PanelLedger, type PanelState } from '../../mcp/ledger.js';
import { createTaskSurfaceMcpServer } from '../../mcp/server.js';
import type { NormalizedTaskSurfaceModel } from '../../protocol/normalized.js';
import type { ConformanceDriver, Conversation, ConversationOptions, ModelCall, SeenMessage, SubmitOutcome, Supports } from '../driver.js';
import { previewSeen } from './host.js';
import { ModelScript } from './script.js';
import { shownText as hostShownText } from '../texts.js';

/** A client that renders MCP Apps of the panel's mime type. */
const APPS = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };
/** The app document is not rendered here: the driver plays the panel by its rules (test/e2e/mcp.e2e.ts runs the real one). */
const APP_HTML = '<!doctype html><title>Task panel</title>';

const NO_CONVERSATION =
  'MCP gives a server no conversation: the host keeps the chat, so the server never sees an ordinary message, ' +
  'cannot refuse a second panel or close one as bypassed, and sends the model no notices';

/** What the MCP path cannot do, in the words of the conformance table. */
export const MCP_SUPPORTS: Supports = {
  conversation: NO_CONVERSATION,
  queue: 'An MCP host keeps its own composer and turn queue; the server sees no message waiting behind a turn',
  cards: 'The MCP server offers show_task_surface only: action cards (skill, propose_action) are the Host’s and the AI SDK’s',
  toolModes: true,
  restart: true,
  preview: true,
};

interface Panel {
  viewId: string;
  surfaceId: string;
  callId: string;
  title: string;
  /** The call as the host hands it to the view (its input and result). */
  shown: { input: Record<string, unknown>; result: CallToolResult };
}

const textOf = (result: CallToolResult) =>
  result.content
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('');

/** The submit refusals of the Host, from the panel's state as the server answers it. */
function outcomeOf(state: PanelState | { status: 'invalid' }, submissionId: string): SubmitOutcome {
  if (state.status === 'invalid') return { accepted: false, reason: 'invalid-submission' };
  if (state.status === 'submitted' && state.submissionId === submissionId) return { accepted: true };
  return { accepted: false, reason: state.status === 'unknown' ? 'stale' : 'not-open' };
}

/** What the MCP path adds to a conversation: the surface of a panel id the model read. */
export interface McpConversation {
  surfaceOfPanel(viewId: string): string | undefined;
  /** The show call of `surfaceId`'s panel (default: the latest), as the host hands it to the real view. */
  shownCall(surfaceId?: string): { input: Record<string, unknown>; result: CallToolResult } | undefined;
  /** A tool call through the host's client (the real view's app-only calls go here). */
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
  /**
   * What the host does with a call the model streams, for a driver that renders the real view (by
   * default the driver plays the view: it reads each partial through the view tool's `preview`).
   */
  streaming: StreamingView;
}

/** The view of a call the model streams, as the host drives it. */
export interface StreamingView {
  /** Who `midway` runs as (the person in the real view). */
  person?: Conversation;
  /** `ui/notifications/tool-input-partial` with the healed arguments so far. */
  partial(args: Record<string, unknown>): Promise<void>;
  /** `ui/notifications/tool-cancelled`: the stream broke. */
  cancelled(): Promise<void>;
  /** `tool-input` and `tool-result` of the completed call (the object `shownCall` gives, when it shows a panel). */
  completed(shown: { input: Record<string, unknown>; result: CallToolResult }): Promise<void>;
  /** What the view shows of the call still being written. */
  preview(): Promise<NormalizedTaskSurfaceModel | null>;
}

async function mcpConversation(options: ConversationOptions): Promise<Conversation & McpConversation> {
  const store = createMemoryStore();
  const script = new ModelScript();
  const chat: SeenMessage[] = [];
  const panels: Panel[] = [];
  /** The panel's work in flight, by view: a second click while one runs waits for it, as the view's busy flag does. */
  const inFlight = new Map<string, Promise<SubmitOutcome>>();
  let ledger: PanelLedger;
  let client: Client;
  let closeServer: () => Promise<void>;

  const start = async () => {
    ledger = createPanelLedger({ store, ...(options.limits ? { limits: options.limits } : {}) });
    const server = createTaskSurfaceMcpServer({
      appHtml: APP_HTML,
      ledger,
      ...(options.limits ? { limits: options.limits } : {}),
      ...(options.toolMode ? { toolMode: options.toolMode } : {}),
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    client = new Client({ name: 'conformance-host', version: '1.0.0' }, { capabilities: APPS as never });
    await client.connect(clientSide);
    closeServer = async () => {
      await client.close();
      await server.close();
      await ledger.close();
    };
  };
  await start();

  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
  const view = async (args: Record<string, unknown>) =>
    (await call(VIEW_TOOL, args)).structuredContent as PanelState | { status: 'invalid' };

  /** The view the driver plays: each partial read through the view tool, a read with nothing whole keeping what is shown. */
  let shownPreview: NormalizedTaskSurfaceModel | null = null;
  const streaming: StreamingView = {
    async partial(args) {
      const read = (await call(VIEW_TOOL, { action: 'preview', arguments: args })).structuredContent as {
        model?: NormalizedTaskSurfaceModel | null;
      };
      shownPreview = read.model ?? shownPreview;
    },
    cancelled: async () => void (shownPreview = null),
    completed: async () => void (shownPreview = null),
    preview: async () => shownPreview,
  };

  /**
   * The model streams `made`'s arguments in 8 pieces, the host healing each prefix and sending it to
   * the view; `midway` after 4. `true`: the stream broke there (the view is told the call was cancelled).
   */
  const stream = async (made: ModelCall): Promise<boolean> => {
    const text = JSON.stringify(made.input);
    for (let piece = 1; piece < 8; piece++) {
      await conversation.streaming.partial(parse(text.slice(0, Math.round((text.length * piece) / 8))) as Record<string, unknown>);
      if (piece === 4) {
        await made.streamed?.midway?.(conversation.streaming.person ?? conversation);
        if (made.streamed?.cut) {
          await conversation.streaming.cancelled();
          return true;
        }
      }
    }
    return false;
  };

  /** One model turn, as an MCP host runs it: every step is a request, and every call in it runs. */
  const turn = async () => {
    for (const step of script.next()) {
      await step.during?.(conversation);
      script.requests.push({ messages: chat.map((m) => ({ ...m })) });
      for (const made of step.calls ?? []) {
        if (made.streamed && (await stream(made))) return; // the turn failed: the call is never made
        const result = await call(made.tool, made.input as Record<string, unknown>);
        const text = textOf(result);
        script.calls.push({ tool: made.tool, ok: result.isError !== true, text });
        chat.push({ role: 'tool', text });
        const viewId = (result._meta as { viewUUID?: string } | undefined)?.viewUUID;
        const shown = result.structuredContent as { surfaceId?: string; model?: { title: string } } | undefined;
        const handed = { input: made.input as Record<string, unknown>, result };
        if (viewId && shown?.surfaceId && shown.model)
          panels.push({ viewId, surfaceId: shown.surfaceId, callId: viewId, title: shown.model.title, shown: handed });
        if (made.streamed) await conversation.streaming.completed(handed);
      }
      if (step.text !== undefined) chat.push({ role: 'assistant', text: step.text });
    }
  };

  /** The person writes in the host's composer: the message joins the chat and the model answers it. */
  const say = async (text: string) => {
    chat.push({ role: 'user', text });
    await turn();
    return { accepted: true as const };
  };

  const panelOf = (surfaceId?: string): Panel | undefined =>
    surfaceId === undefined ? panels.at(-1) : panels.find((p) => p.surfaceId === surfaceId);

  /** The view's rule: claim the message channel, send one `ui/message`, record that the host took it. */
  const deliver = async (viewId: string, submissionId: string, text: string) => {
    const claimed = await view({ action: 'sending', viewId, submissionId });
    if (claimed.status === 'submitted' && claimed.channel === 'answer-tool') return;
    await say(text);
    await view({ action: 'delivered', viewId, submissionId });
  };

  const conversation: Conversation & McpConversation = {
    surfaceOfPanel: (viewId) => panels.find((p) => p.viewId === viewId)?.surfaceId,
    shownCall: (surfaceId) => panelOf(surfaceId)?.shown,
    callTool: (params) => client.callTool(params),
    streaming,
    async preview() {
      return previewSeen((await conversation.streaming.preview()) ?? undefined);
    },
    script: (...steps) => script.push(steps),
    say,
    queue: say,
    submit({ submissionId, values, note, surfaceId }) {
      const panel = panelOf(surfaceId);
      if (!panel) return Promise.resolve({ accepted: false, reason: 'not-open' });
      const running = inFlight.get(panel.viewId);
      if (running) return running;
      const work = (async (): Promise<SubmitOutcome> => {
        const given = { action: 'submit', viewId: panel.viewId, submissionId, values, locale: options.locale, ...(note ? { note } : {}) };
        const state = await view(given);
        const outcome = outcomeOf(state, submissionId);
        if (outcome.accepted && state.status === 'submitted' && state.channel === null)
          await deliver(panel.viewId, submissionId, state.text);
        return outcome;
      })().finally(() => inFlight.delete(panel.viewId));
      inFlight.set(panel.viewId, work);
      return work;
    },
    async dismiss({ dismissalId, surfaceId }) {
      const panel = panelOf(surfaceId);
      if (!panel) return { dismissed: false, reason: 'not-open' };
      const state = await view({ action: 'dismiss', viewId: panel.viewId, dismissalId });
      return state.status === 'dismissed' ? { dismissed: true } : { dismissed: false, reason: 'not-open' };
    },
    async active() {
      const panel = panels.at(-1);
      if (!panel || (await view({ action: 'read', viewId: panel.viewId })).status !== 'open') return null;
      return { surfaceId: panel.surfaceId, callId: panel.callId, title: panel.title, pending: null };
    },
    async surfaces() {
      const seen = [];
      for (const panel of panels) {
        const status = (await view({ action: 'read', viewId: panel.viewId })).status;
        seen.push({ surfaceId: panel.surfaceId, status: status === 'submitted' || status === 'dismissed' ? status : ('open' as const) });
      }
      return seen;
    },
    act: () => Promise.reject(new Error(MCP_SUPPORTS.cards as string)),
    cards: async () => [],
    calls: () => script.calls,
    requests: () => script.requests,
    async reload() {
      inFlight.clear();
    },
    async restart() {
      inFlight.clear();
      await closeServer();
      await start();
    },
    async close() {
      await closeServer();
      store.close();
    },
  };
  return conversation;
}

/** The MCP App path. */
export const mcpDriver: ConformanceDriver = {
  path: 'mcp-app',
  description:
    'The MCP server (`createTaskSurfaceMcpServer`) through the SDK `Client` declaring MCP Apps; the driver is the host (the chat) and the panel (by the view’s rules).',
  supports: MCP_SUPPORTS,
  open: mcpConversation,
};

/**
 * A conversation whose show results are in the Host's words: each MCP show result (which names the
 * panel id and `task_surface_answer`, since an ordinary message does not close an MCP panel) is
 * checked to be exactly the MCP words (`shownText`), then handed on as the Host's, so every other
 * rule of a scenario still runs. A result not exactly the MCP words is handed on as it is, and fails.
 */
export function inHostWords<C extends Conversation & McpConversation>(conversation: C): C {
  const calls = () =>
    conversation.calls().map((read) => {
      const shown = /^Task surface (".*?") \(panel id "([^"]+)"\)/.exec(read.text);
      if (read.tool !== 'show_task_surface' || !read.ok || !shown) return read;
      const [title, panelId] = [JSON.parse(shown[1]!) as string, shown[2]!];
      const surfaceId = conversation.surfaceOfPanel(panelId);
      if (surfaceId === undefined || read.text !== shownText(panelId, title)) return read;
      return { ...read, text: hostShownText(surfaceId, title) };
    });
  return Object.assign(Object.create(conversation) as C, { calls });
}
