import type { SessionEvent } from '../protocol/index.js';
import { INTERRUPTED_TURN_TEXT } from './recovery.js';
import type { PromptMessage } from './types.js';

/**
 * The prompt messages of an effective log. User, assistant and tool text go as they are; a tool
 * call is shown to the model as its own assistant step; notices and dismissals are developer
 * messages so the model learns what happened without a user turn (also that a crash interrupted a turn).
 */
export function promptMessages(events: Iterable<SessionEvent>): PromptMessage[] {
  const out: PromptMessage[] = [];
  for (const event of events) {
    const message = promptMessage(event);
    if (message) out.push(message);
  }
  return out;
}

function promptMessage(event: SessionEvent): PromptMessage | null {
  const { seq } = event;
  switch (event.type) {
    case 'user/message':
      return { role: 'user', text: event.text, seq };
    case 'assistant/message':
      return { role: 'assistant', text: event.text, seq };
    case 'tool/call':
      return { role: 'assistant', text: `[call ${event.name} ${event.callId}] ${JSON.stringify(event.args)}`, seq };
    case 'tool/result':
      return { role: 'tool', text: `[result ${event.name} ${event.callId}${event.ok ? '' : ' failed'}] ${event.content}`, seq };
    case 'task-surface/dismissed':
      return {
        role: 'developer',
        text: `The user dismissed task surface ${event.surfaceId} without submitting it.`,
        seq,
      };
    case 'action-cards/notice':
      return { role: 'developer', text: event.text, seq };
    case 'turn/ended':
      // A crash cut the turn short: its events stay, but the model must not take them as complete.
      return event.outcome === 'interrupted' ? { role: 'developer', text: INTERRUPTED_TURN_TEXT, seq } : null;
    default:
      return null;
  }
}
