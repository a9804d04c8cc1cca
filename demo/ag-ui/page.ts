// The AG-UI example page: @ag-ui/client's HttpAgent on the person's thread, the package's Dock and
// action cards over `createAgUiTaskSurface(agent)`, and the agent's messages as the transcript. The
// server holds the conversation; a reload asks it again with a run that carries nothing new.
import '../ai-sdk/jitless.js';
import { HttpAgent } from '@ag-ui/client';
import type { Message } from '@ag-ui/core';
import { CARD_ACTIVITY, PANEL_ACTIVITY, createAgUiTaskSurface, type PanelActivityContent } from 'task-surface/ag-ui';
import 'task-surface/components';
import { registerShippedCardBodies } from '../../components/action-card/index.js';

registerShippedCardBodies();

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const status = $('status');

async function post<T>(path: string, body: unknown): Promise<T> {
  const response = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const answer = (await response.json()) as T & { error?: string; message?: string };
  if (!response.ok) throw new Error(answer.message ?? answer.error ?? `${path} answered ${response.status}`);
  return answer;
}

const { threadId } = (await (await fetch('/api/thread')).json()) as { threadId: string };
const agent = new HttpAgent({ url: '/api/ag-ui', threadId });
const { transport, sessionId } = createAgUiTaskSurface(agent, {
  run: () => agent.runAgent(),
  dismiss: (request) => post('/api/ag-ui/dismiss', request),
  act: (request) => post('/api/ag-ui/act', request),
  locale: document.documentElement.lang,
});

const dock = $<HTMLElementTagNameMap['task-surface-dock']>('dock');
dock.transport = transport;
dock.sessionId = sessionId;

const textOf = (message: Message) => (typeof message.content === 'string' ? message.content : '');

/** The transcript: the person's and the agent's texts, and each closed panel as one line. */
function render(): void {
  const rows = agent.messages.flatMap((message) => {
    if (message.role === 'user' || message.role === 'assistant') {
      const text = textOf(message);
      return text ? [{ id: message.id, kind: message.role, text }] : [];
    }
    if (message.role === 'activity' && message.activityType === PANEL_ACTIVITY) {
      const panel = message.content as PanelActivityContent;
      if (panel.status === 'open' || panel.status === 'pending') return [];
      const title = (panel.model as { title?: string }).title ?? 'A panel';
      return [{ id: message.id, kind: 'panel', text: `${title}: ${panel.status}` }];
    }
    return [];
  });
  const list = $('transcript');
  list.replaceChildren(
    ...rows.map((row) => {
      const item = document.createElement('li');
      item.className = row.kind;
      item.dataset['id'] = row.id;
      item.textContent = row.text;
      return item;
    }),
  );
  const cards = $('cards');
  for (const message of agent.messages) {
    if (message.role !== 'activity' || message.activityType !== CARD_ACTIVITY) continue;
    const callId = (message.content as { callId: string }).callId;
    if (cards.querySelector(`action-card[call-id="${CSS.escape(callId)}"]`)) continue;
    const card = document.createElement('action-card');
    card.transport = transport;
    card.sessionId = sessionId;
    card.callId = callId;
    cards.append(card);
  }
}

const composer = $<HTMLFormElement>('composer');
const input = $<HTMLTextAreaElement>('message');
const sendButton = $<HTMLButtonElement>('send');
const busy = (running: boolean) => {
  sendButton.disabled = running;
  status.textContent = running ? 'The agent is working…' : '';
};
agent.subscribe({
  onMessagesChanged: render,
  onRunInitialized: () => busy(true),
  onRunFinalized: () => busy(false),
  onRunFailed: ({ error }) => void (status.textContent = `The run failed: ${error.message}`),
});

composer.addEventListener('submit', (event) => {
  event.preventDefault();
  const text = input.value.trim();
  if (!text || agent.isRunning) return;
  input.value = '';
  const id = crypto.randomUUID();
  void transport.session.send({ sessionId, messageId: id as never, rpcId: id as never, text }).then((result) => {
    if (!result.accepted) status.textContent = `Not sent: ${result.reason}`;
  });
});
input.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && !event.shiftKey) {
    event.preventDefault();
    composer.requestSubmit();
  }
});

// The thread as the server has it (a reload, a second tab): a run with nothing new.
await agent.runAgent();
render();
document.body.dataset['ready'] = 'true';
