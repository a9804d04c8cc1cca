/*
 * The docs site's in-page Hosts: the real `createHost` over an in-memory store, talking to the
 * elements through the local (in-process) transport, with a small scripted agent that shows a panel
 * or proposes a card when an example asks. Every example state is reached through the Host's own
 * calls (send, submit, claim, act), never by poking an element.
 */
import { createMemoryPageStore, createMemoryFollowUps, createPageKind, scheduleFollowUpKind } from '../../host/actionCards/kinds/index.js';
import { createHost } from '../../host/createHost.js';
import { createMemoryStore } from '../../host/store/memory.js';
import type { AgentDriver, AgentTurn, CreateHostOptions, Host, ScopedHost } from '../../host/types.js';
import {
  mintMessageId,
  mintRpcId,
  type JsonValue,
  type SessionEvent,
  type SessionId,
  type ToolResultEvent,
  type UserMessageEvent,
} from '../../protocol/index.js';
import { createLocalTransport } from '../../transport/local.js';
import type { HostTransport } from '../../transport/types.js';

/** What the scripted agent does in a turn: show a panel, propose a card, or reply. */
export type TurnScript = (turn: AgentTurn) => Promise<void> | void;

/** One turn of the scripted agent that calls show_task_surface with `model`. */
export const showPanel =
  (model: JsonValue): TurnScript =>
  async (turn) => {
    turn.step();
    await turn.callTool('show_task_surface', { model });
  };

/** One turn that loads a card kind's skill and proposes the card. */
export const proposeCard =
  (skill: string, proposal: JsonValue): TurnScript =>
  async (turn) => {
    turn.step();
    await turn.callTool('skill', { name: skill });
    turn.step();
    await turn.callTool('propose_action', proposal);
  };

/** A driver that runs the script queued for a session, else acknowledges what it read. */
class DocsDriver implements AgentDriver {
  readonly scripts = new Map<SessionId, TurnScript[]>();

  async runTurn(turn: AgentTurn): Promise<void> {
    const script = this.scripts.get(turn.sessionId)?.shift();
    if (script) return script(turn);
    turn.step();
    turn.reply(turn.input.some((m) => m.source.taskSurface) ? 'Thanks, I read your answer.' : 'OK.');
  }
}

/** The person every example acts as: sessions are theirs, and the Host's limits apply to them. */
export const READER = { id: 'docs-reader', name: 'Docs reader' };

export interface DocsHost {
  host: Host;
  /** The Host as the reader sees it. */
  reader: ScopedHost;
  /** The elements' transport: the reader's Host, in this page. */
  transport: HostTransport;
  /** Opens a session for the reader, sends a message and runs `script` as the agent's answer. */
  openWith(script: TurnScript, options?: { title?: string; locale?: string }): Promise<SessionId>;
  /** Sends an ordinary message as the reader. */
  say(sessionId: SessionId, text: string): Promise<void>;
  /** Every event of a session's log (the docs' sessions are short). */
  events(sessionId: SessionId): Promise<SessionEvent[]>;
  /** With `autoAdmit: false`: commits the next queued row and waits for the turn it starts. */
  admitNext(sessionId: SessionId): Promise<void>;
}

/** A Host in this page with both shipped card kinds; `failingPages` makes every page creation fail. */
export function createDocsHost(
  options: Partial<Pick<CreateHostOptions, 'autoAdmit' | 'quotas'>> & { failingPages?: boolean } = {},
): DocsHost {
  const driver = new DocsDriver();
  const host = createHost({
    store: createMemoryStore(),
    driver,
    ...(options.autoAdmit === false ? { autoAdmit: false } : {}),
    ...(options.quotas ? { quotas: options.quotas } : {}),
  });
  host.actionCards.register(createPageKind({ pages: createMemoryPageStore(options.failingPages ? { limit: 0 } : {}) }));
  host.actionCards.register(scheduleFollowUpKind({ scheduler: createMemoryFollowUps() }));
  const reader = host.as(READER);
  const docs: DocsHost = {
    host,
    reader,
    transport: createLocalTransport(reader),
    async openWith(script, { title = 'Docs example', locale } = {}) {
      const sessionId = reader.openSession({ title, ...(locale ? { locale } : {}) });
      driver.scripts.set(sessionId, [script]);
      await docs.say(sessionId, 'Show me.');
      if (options.autoAdmit === false) await docs.admitNext(sessionId);
      await host.whenIdle(sessionId);
      return sessionId;
    },
    async say(sessionId, text) {
      const result = await reader.session.send({ sessionId, messageId: mintMessageId(), rpcId: mintRpcId(), text });
      if (!result.accepted) throw new Error(`the docs host refused a message: ${JSON.stringify(result)}`);
    },
    async events(sessionId) {
      return (await host.readLog(sessionId, { limit: 500 })).events;
    },
    async admitNext(sessionId) {
      const claim = host.inbox.claimNext(sessionId);
      if (!claim) throw new Error('nothing queued to admit');
      claim.commit();
      await host.whenIdle(sessionId);
    },
  };
  return docs;
}

/** The session's last `show_task_surface` result (what a transcript row renders). */
export function lastPanelResult(events: readonly SessionEvent[]): ToolResultEvent | undefined {
  return events.findLast((e): e is ToolResultEvent => e.type === 'tool/result' && e.name === 'show_task_surface');
}

/** The session's last user message that answered a panel. */
export function lastAnswer(events: readonly SessionEvent[]): UserMessageEvent | undefined {
  return events.findLast((e): e is UserMessageEvent => e.type === 'user/message' && e.source.taskSurface !== undefined);
}

/** The call id of the session's last proposed card. */
export function lastCardCall(events: readonly SessionEvent[]): string | undefined {
  const call = events.findLast((e) => e.type === 'tool/call' && e.name === 'propose_action');
  return call?.type === 'tool/call' ? call.callId : undefined;
}
