// A conversation with one card, as an AI SDK app records it, and the acts over it.
import type { UIMessage } from 'ai';
import { createActionCardActs } from '../../ai-sdk/index.js';
import { createMemoryPageStore, createPageKind } from '../../host/index.js';
import { respond, scriptedModel, textParts, toolCallParts, userText } from './helpers.js';

export const details = { pageTitle: 'Trip plan', sections: ['Where', 'When'] };
export const proposal = (over: object = {}) => ({
  action: 'create_page',
  title: 'Save as a page',
  brief: 'Keeps the plan.',
  details,
  ...over,
});
export const skillStep = () => toolCallParts('skill', { name: 'create-page' });
export const proposeStep = (over: object = {}, callId?: string) => toolCallParts('propose_action', proposal(over), callId);

/** Tool results the model read in its second and later calls, in order. */
export const results = (model: ReturnType<typeof scriptedModel>) =>
  model.doStreamCalls.flatMap((c) => (c.prompt.at(-1)!.role === 'tool' ? (c.prompt.at(-1)!.content as any[]) : [])).map((r) => r.output);

/** A conversation with one card, and the acts over a JSON "database" the test can read. */
export async function withCard(kinds = [createPageKind({ pages: createMemoryPageStore() })]) {
  const model = scriptedModel(skillStep(), proposeStep({}, 'call-card-1'), textParts('Use the card to save it.'));
  const db = new Map<string, UIMessage[]>([['chat-1', await respond([userText('plan a trip')], model, kinds)]]);
  const saves: UIMessage[][] = [];
  const acts = createActionCardActs({
    kinds,
    load: (id) => structuredClone(db.get(id) ?? []),
    save: (id, messages) => {
      saves.push(messages);
      db.set(id, structuredClone(messages));
    },
  });
  return { kinds, model, db, saves, acts, messages: () => db.get('chat-1')! };
}

export const phases = (messages: UIMessage[]) =>
  messages
    .flatMap((m) => m.parts)
    .filter((p) => p.type === 'data-action-card-decision')
    .map((p: any) => p.data.phase);
