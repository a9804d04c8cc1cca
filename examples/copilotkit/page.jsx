// The AG-UI example's page in CopilotKit (React, `@copilotkit/react-core/v2`): CopilotKit's
// `HttpAgent` on the person's thread as a self-managed agent, `CopilotChat` as the chat, and the
// package's unchanged Dock and action card rendered from the `task-surface` and `task-surface-card`
// activities, over `createAgUiTaskSurface(agent)` with CopilotKit's own `runAgent`. Served by the
// AG-UI example's server (`npm run demo:copilotkit`); see docs/ag-ui.md.
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { CopilotChat, CopilotKitProvider, HttpAgent, useCopilotKit } from '@copilotkit/react-core/v2';
import '@copilotkit/react-core/v2/styles.css';
import { z } from 'zod';
import { CARD_ACTIVITY, PANEL_ACTIVITY, PREVIEW_ACTIVITY, createAgUiTaskSurface } from 'task-surface/ag-ui';
import 'task-surface/components';
import { registerShippedCardBodies } from '../../components/action-card/index.js';
import './page.css';

registerShippedCardBodies();

async function post(path, body) {
  const response = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const answer = await response.json();
  if (!response.ok) throw new Error(answer.message ?? answer.error ?? `${path} answered ${response.status}`);
  return answer;
}

/**
 * CopilotChat connects its agent to the thread when it mounts. AG-UI's `connect` is a reconnect; to
 * the adapter that is a run with no messages, which answers the thread's transcript and activities
 * and writes nothing (a reload, a second tab).
 */
class ThreadAgent extends HttpAgent {
  connect(input) {
    return this.run({ ...input, messages: [] });
  }
  async connectAgent(parameters, subscriber) {
    const result = await super.connectAgent(parameters, subscriber);
    requestAnimationFrame(() => (document.body.dataset.ready = 'true'));
    return result;
  }
}

const { threadId } = await (await fetch('/api/thread')).json();
const agent = new ThreadAgent({ url: '/api/ag-ui', threadId });
/** CopilotKit's core, once the provider made it: the transport's runs are its runs. */
let copilotkit;
const { transport, sessionId } = createAgUiTaskSurface(agent, {
  run: () => copilotkit.runAgent({ agent }),
  dismiss: (request) => post('/api/ag-ui/dismiss', request),
  act: (request) => post('/api/ag-ui/act', request),
  locale: document.documentElement.lang,
});

function Core({ children }) {
  copilotkit = useCopilotKit().copilotkit;
  return children;
}

/** The Dock: the open panel (or the one being written) and its answer. */
const Dock = () => <task-surface-dock transport={transport} sessionId={sessionId} lang={document.documentElement.lang} />;

/** A panel: the Dock while it is open or pending, then one line with how it closed. */
function Panel({ content }) {
  if (content.status === 'open' || content.status === 'pending') return <Dock />;
  return (
    <p className="ts-closed">
      {content.model?.title ?? 'A panel'}: {content.status}
    </p>
  );
}

/** The read-only preview while the model writes a panel: the Dock shows it growing. */
const Preview = ({ content }) => (content.model ? <Dock /> : null);

/** A card: the unchanged <action-card> for its call. */
const Card = ({ content }) => <action-card transport={transport} sessionId={sessionId} callId={content.callId} />;

const renderActivityMessages = [
  { activityType: PANEL_ACTIVITY, content: z.looseObject({ surfaceId: z.string(), status: z.string() }), render: Panel },
  { activityType: PREVIEW_ACTIVITY, content: z.looseObject({ turnId: z.string() }), render: Preview },
  { activityType: CARD_ACTIVITY, content: z.looseObject({ callId: z.string() }), render: Card },
];

/** Names for the chat input's icon-only buttons and its text area, which CopilotKit leaves unnamed. */
const input = {
  textArea: { 'aria-label': 'Message' },
  sendButton: { 'aria-label': 'Send' },
  addMenuButton: { 'aria-label': 'Add attachments' },
};

function App() {
  const [agents] = useState(() => ({ default: agent }));
  return (
    <CopilotKitProvider selfManagedAgents={agents} renderActivityMessages={renderActivityMessages} enableInspector={false}>
      <Core>
        <CopilotChat threadId={threadId} labels={{ chatInputPlaceholder: 'Message' }} input={input} />
      </Core>
    </CopilotKitProvider>
  );
}

createRoot(document.getElementById('chat')).render(<App />);
