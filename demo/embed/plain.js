// The plain-page quick start (README): no build step, the drop-in bundle by URL.
import { createWebSocketTransport } from '/assets/task-surface.js';

const transport = createWebSocketTransport({ url: `ws://${location.host}/ws` });
const sessionId = new URLSearchParams(location.search).get('session');

// One Dock above the composer: the only editor of the session's active surface.
const dock = document.querySelector('task-surface-dock');
dock.transport = transport;
dock.sessionId = sessionId;

// The transcript: messages as text, a read-only row for each show_task_surface result.
const transcript = document.querySelector('#transcript');
let shown = 0;
transport.watchSession(sessionId, async (view) => {
  if (view.lastSeq <= shown) return;
  const { events } = await transport.readLog(sessionId, { limit: 100 });
  for (const event of events) {
    // Views can arrive while a read is in flight: append each event once.
    if (event.seq <= shown) continue;
    shown = event.seq;
    const item = document.createElement('li');
    if (event.type === 'tool/result' && event.name === 'show_task_surface') {
      const row = document.createElement('task-surface-toolview');
      Object.assign(row, { transport, sessionId, name: event.name, content: event.content, meta: event.meta });
      item.append(row);
    } else if (event.type === 'user/message' || event.type === 'assistant/message') {
      item.textContent = `${event.type === 'user/message' ? 'You' : 'Agent'}: ${event.text}`;
    } else continue;
    transcript.append(item);
  }
});

document.querySelector('#composer').addEventListener('submit', async (e) => {
  e.preventDefault();
  const input = e.target.elements.text;
  await transport.session.send({ sessionId, messageId: crypto.randomUUID(), rpcId: crypto.randomUUID(), text: input.value });
  input.value = '';
});
