import type { CallId, JsonValue } from '../protocol/index.js';
import type { PromptMessage } from '../host/types.js';

/*
 * The effective log's prompt messages as a provider-neutral conversation that every provider's
 * native shape can be read from: each assistant step holds its tool calls, and the step's results
 * follow it together, paired by callId, before anything else. The three drivers map this one
 * structure, so pairing, ordering and notices are decided once.
 */

/** `args` is a string only for a call whose arguments could not be read (the raw text). */
export interface NativeCall {
  callId: CallId;
  name: string;
  args: JsonValue;
}
export interface NativeResult {
  callId: CallId;
  name: string;
  ok: boolean;
  content: string;
}

export type NativeItem =
  | { kind: 'user'; text: string }
  /** A developer notice (dismissal, card status, tool change): never dropped. */
  | { kind: 'developer'; text: string }
  | { kind: 'assistant'; text: string; calls: NativeCall[] }
  /** The results of the preceding assistant step's calls, one per call, in call order. */
  | { kind: 'results'; results: NativeResult[] };

/** Result text for a call whose result was never logged (the process stopped mid-call). */
export const MISSING_RESULT = 'The call did not finish: no result was recorded.';

/**
 * Builds the neutral conversation. Messages that land while a step's calls are unanswered (a
 * dismissal during a tool call, say) wait until the step's results are complete, because every
 * provider wants each call answered before the next message. A call left unanswered gets a failed
 * result saying so; a result whose call is not in the log becomes a developer notice.
 */
export function nativeConversation(messages: readonly PromptMessage[]): NativeItem[] {
  const out: NativeItem[] = [];
  let step: { item: Extract<NativeItem, { kind: 'assistant' }>; results: Map<string, NativeResult> } | null = null;
  let deferred: NativeItem[] = [];

  const closeStep = () => {
    if (!step) return;
    if (step.item.calls.length > 0) {
      out.push({
        kind: 'results',
        results: step.item.calls.map(
          (c) => step!.results.get(c.callId) ?? { callId: c.callId, name: c.name, ok: false, content: MISSING_RESULT },
        ),
      });
    }
    step = null;
    out.push(...deferred);
    deferred = [];
  };
  const pending = () => (step ? step.item.calls.some((c) => !step!.results.has(c.callId)) : false);
  const say = (item: NativeItem) => {
    if (pending()) deferred.push(item);
    else {
      closeStep();
      out.push(item);
    }
  };

  for (const message of messages) {
    if (message.toolCall) {
      // A call joins the open step unless that step already has results (then a new step begins).
      if (!step || step.results.size > 0) {
        closeStep();
        step = { item: { kind: 'assistant', text: '', calls: [] }, results: new Map() };
        out.push(step.item);
      }
      step.item.calls.push({ ...message.toolCall });
    } else if (message.toolResult) {
      const { callId } = message.toolResult;
      if (step && step.item.calls.some((c) => c.callId === callId) && !step.results.has(callId)) {
        step.results.set(callId, { ...message.toolResult });
        if (!pending()) closeStep();
      } else {
        say({ kind: 'developer', text: message.text });
      }
    } else if (message.role === 'assistant') {
      closeStep();
      step = { item: { kind: 'assistant', text: message.text, calls: [] }, results: new Map() };
      out.push(step.item);
    } else {
      say({ kind: message.role === 'user' ? 'user' : 'developer', text: message.text });
    }
  }
  closeStep();
  return out;
}
