// The demo page's entry: connects to the host over WebSocket and mounts the chat app.
// `?inspect` opens the Stately inspector with the Dock's actors and, when the host was started with
// `--inspect`, the host's actors relayed over `/inspect`.
import type { InspectionEvent, Observer } from 'xstate';
import { registerShippedCardBodies } from '../../components/action-card/index.js';
import { createWebSocketTransport } from '../../transport/ws/client.js';
import './chat-app.js';

// The card bodies of the two shipped kinds (create a page, schedule a follow-up).
registerShippedCardBodies();

const wsUrl = (path: string) => `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${path}`;

async function inspector(): Promise<Observer<InspectionEvent> | undefined> {
  if (!new URLSearchParams(location.search).has('inspect')) return undefined;
  const { openInspectorWindow } = await import('./inspectorWindow.js');
  const browser = openInspectorWindow();
  const relay = new WebSocket(wsUrl('/inspect'));
  relay.onmessage = (event) => {
    try {
      const message = JSON.parse(String(event.data)) as { type?: unknown };
      if (typeof message.type === 'string' && message.type.startsWith('@xstate.')) browser.send(message);
    } catch {
      /* not an inspection event */
    }
  };
  return browser.inspect;
}

const app = document.querySelector('demo-chat-app')!;
const transport = createWebSocketTransport({ url: wsUrl('/ws') });
app.transport = transport;
(window as unknown as { demo: unknown }).demo = { transport };
app.inspect = await inspector();
