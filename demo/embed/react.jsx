// The React quick start (README). React 19 sets properties on custom elements, so `transport`
// (an object) is handed over as a property; events are plain DOM events.
import { useEffect, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import 'task-surface/components';
import { createWebSocketTransport } from 'task-surface/transport';

function Chat({ sessionId }) {
  const transport = useMemo(() => createWebSocketTransport({ url: `ws://${location.host}/ws` }), []);
  useEffect(() => () => transport.dispose(), [transport]);
  const [events, setEvents] = useState([]);
  const [text, setText] = useState('');

  useEffect(
    () =>
      transport.watchSession(sessionId, async () => {
        setEvents((await transport.readLog(sessionId, { limit: 100 })).events);
      }),
    [transport, sessionId],
  );

  const send = async (e) => {
    e.preventDefault();
    await transport.session.send({ sessionId, messageId: crypto.randomUUID(), rpcId: crypto.randomUUID(), text });
    setText('');
  };

  return (
    <main>
      <ol>
        {events.map((event) =>
          event.type === 'tool/result' && event.name === 'show_task_surface' ? (
            <li key={event.seq}>
              <task-surface-toolview
                transport={transport}
                session-id={sessionId}
                name={event.name}
                content={event.content}
                meta={event.meta}
              />
            </li>
          ) : event.type === 'user/message' || event.type === 'assistant/message' ? (
            <li key={event.seq}>{event.text}</li>
          ) : null,
        )}
      </ol>
      <task-surface-dock transport={transport} session-id={sessionId} lang="en" />
      <form onSubmit={send}>
        <input aria-label="Message" value={text} onChange={(e) => setText(e.target.value)} />
        <button>Send</button>
      </form>
    </main>
  );
}

const sessionId = new URLSearchParams(location.search).get('session');
createRoot(document.getElementById('root')).render(<Chat sessionId={sessionId} />);
