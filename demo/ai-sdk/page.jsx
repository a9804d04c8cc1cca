// The example page: useChat from @ai-sdk/react, the app's own messages, and the package's Dock
// above the composer. The page sends only the new message; the server holds the conversation.
import './jitless.js';
import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport } from 'ai';
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import {
  TaskSurfaceActionCard,
  TaskSurfaceDock,
  TaskSurfaceToolview,
  isActionCardPart,
  isTaskSurfacePart,
} from 'task-surface/ai-sdk/react';

const transport = new DefaultChatTransport({
  api: '/api/chat',
  prepareSendMessagesRequest: ({ id, messages }) => ({ body: { id, message: messages.at(-1) } }),
});

/** Records a dismissal on the server: no model call, the messages gain the dismissal part. */
async function persistDismissal({ chatId, surfaceId, dismissalId }) {
  const response = await fetch('/api/chat/dismiss', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id: chatId, surfaceId, dismissalId }),
  });
  if (!response.ok) throw new Error(`the dismissal was not recorded (${response.status})`);
}

/** Sends a card's action to the server; its answer carries the card's recorded decisions. */
async function act(request) {
  const response = await fetch('/api/chat/act', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(request),
  });
  if (!response.ok) throw new Error(`the action was not recorded (${response.status})`);
  return response.json();
}

function Chat({ id, initialMessages }) {
  const chat = useChat({ id, messages: initialMessages, transport });
  const [text, setText] = useState('');
  const busy = chat.status === 'submitted' || chat.status === 'streaming';

  const send = (event) => {
    event.preventDefault();
    if (!text.trim() || busy) return;
    chat.sendMessage({ text });
    setText('');
  };

  return (
    <main>
      <h1>Trip planner</h1>
      <ol aria-label="Conversation">
        {chat.messages.map((message) =>
          message.role === 'user' ? (
            <li key={message.id} className="user">
              {message.parts.map((part) => (part.type === 'text' ? part.text : '')).join('')}
            </li>
          ) : (
            <li key={message.id} className="assistant">
              {message.parts.map((part, i) =>
                part.type === 'text' ? (
                  <p key={i}>{part.text}</p>
                ) : isTaskSurfacePart(part) ? (
                  <TaskSurfaceToolview key={i} chat={chat} part={part} />
                ) : part.type === 'tool-skill' && part.state === 'output-available' ? (
                  <p key={i} className="step">
                    Read the skill {part.input?.name}
                  </p>
                ) : null,
              )}
              {/* The card goes under the answer it belongs to: the model proposes it before writing the answer. */}
              {message.parts.map((part, i) =>
                isActionCardPart(part) ? <TaskSurfaceActionCard key={`card-${i}`} chat={chat} part={part} onAct={act} /> : null,
              )}
            </li>
          ),
        )}
      </ol>
      {chat.error ? <p className="error">Something went wrong: {chat.error.message}</p> : null}
      <TaskSurfaceDock chat={chat} onDismiss={persistDismissal} />
      <form onSubmit={send}>
        <input aria-label="Message" value={text} onChange={(e) => setText(e.target.value)} placeholder="Ask for a panel to plan a trip" />
        <button disabled={busy}>Send</button>
      </form>
    </main>
  );
}

const params = new URLSearchParams(location.search);
let id = params.get('chat');
if (!id) {
  id = crypto.randomUUID();
  params.set('chat', id);
  history.replaceState(null, '', `?${params}`);
}
const initialMessages = await (await fetch(`/api/chats/${encodeURIComponent(id)}`)).json();
createRoot(document.getElementById('root')).render(<Chat id={id} initialMessages={initialMessages} />);
