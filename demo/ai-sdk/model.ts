// The example's scripted model: the AI SDK's own MockLanguageModelV4 (from 'ai/test'), streaming
// what a real model would. A one-line user message that mentions a panel gets a show_task_surface
// call; one that asks to save or keep loads the create-page skill and proposes a card; anything
// else (a submission's text, an ordinary reply) gets a short text answer.
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';

/** The example's panel: one choice and one required text. */
export const tripModel = () => ({
  version: 1,
  title: 'Plan the trip',
  sections: [{ id: 'intro', blocks: [{ kind: 'markdown', text: 'Pick a destination and say why.' }] }],
  fields: [
    {
      kind: 'choice',
      id: 'place',
      label: 'Destination',
      options: [
        { id: 'coast', label: 'The coast' },
        { id: 'hills', label: 'The hills' },
      ],
    },
    { kind: 'text', id: 'why', label: 'Why', required: true },
  ],
  submit: { label: 'Send' },
});

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** A stream of model parts, as a provider would send them. */
export function partsStream(parts: LanguageModelV4StreamPart[]): ReadableStream<LanguageModelV4StreamPart> {
  return new ReadableStream({
    start(controller) {
      for (const part of [{ type: 'stream-start', warnings: [] } as LanguageModelV4StreamPart, ...parts]) controller.enqueue(part);
      controller.close();
    },
  });
}

/** One model step that calls a tool. */
export function toolCallParts(toolName: string, input: unknown, toolCallId = `call_${crypto.randomUUID()}`): LanguageModelV4StreamPart[] {
  return [
    { type: 'tool-call', toolCallId, toolName, input: JSON.stringify(input) },
    { type: 'finish', finishReason: { unified: 'tool-calls', raw: undefined }, usage },
  ];
}

/** One model step that answers `text`, in a few deltas. */
export function textParts(text: string): LanguageModelV4StreamPart[] {
  const words = text.split(/(?<= )/);
  return [
    { type: 'text-start', id: 't' },
    ...words.map((delta) => ({ type: 'text-delta' as const, id: 't', delta })),
    { type: 'text-end', id: 't' },
    { type: 'finish', finishReason: { unified: 'stop', raw: undefined }, usage },
  ];
}

type Prompt = Parameters<MockLanguageModelV4['doStream']>[0]['prompt'];

/** The text of the prompt's last message (its first part: a notice may follow), its role, and the tool it answers. */
function last(prompt: Prompt): { role: string; text: string; tool?: string } {
  const message = prompt.at(-1);
  if (!message) return { role: 'none', text: '' };
  const content = message.content;
  if (typeof content === 'string') return { role: message.role, text: content };
  const first = content[0];
  const text = first?.type === 'text' ? first.text : '';
  return first?.type === 'tool-result' ? { role: message.role, text, tool: first.toolName } : { role: message.role, text };
}

/** The card the scripted model offers: save the trip plan as a page. */
export const tripCard = () => ({
  action: 'create_page',
  title: 'Save the plan as a page',
  brief: 'Keeps the trip plan as a page you can reopen.',
  details: { pageTitle: 'Trip plan', sections: ['Where', 'Why'] },
});

/** What the scripted model answers to a prompt. */
export function scriptedReply(prompt: Prompt): LanguageModelV4StreamPart[] {
  const { role, text, tool } = last(prompt);
  // A card: load the kind's skill, propose it, then invite the person to it.
  if (tool === 'skill') return toolCallParts('propose_action', tripCard());
  if (tool === 'propose_action') return textParts('You can save the plan as a page with the card below.');
  if (role === 'tool') return textParts('The panel did not open; please answer in the chat.');
  if (role === 'user' && !text.includes('\n') && /\b(save|keep)\b/i.test(text)) return toolCallParts('skill', { name: 'create-page' });
  if (role === 'user' && !text.includes('\n') && /panel|plan/i.test(text))
    return toolCallParts('show_task_surface', { model: tripModel() });
  if (text.includes('\n')) return textParts(`Thanks, noted: ${text.split('\n').slice(1).join('; ')}.`);
  return textParts(`You said: ${text}. Ask for a panel to plan the trip.`);
}

/** The example's default model: scripted, no network, no key. */
export function scriptedModel(): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    provider: 'scripted',
    modelId: 'task-surface-example',
    doStream: async ({ prompt }) => ({ stream: partsStream(scriptedReply(prompt)) }),
  });
}
