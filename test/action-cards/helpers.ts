import { createActionCardsService, type ActionCardsOptions } from '../../host/actionCards/index.js';
import {
  createMemoryFollowUps, createMemoryPageStore, createPageKind, scheduleFollowUpKind,
} from '../../host/actionCards/kinds/index.js';
import type { CallId, JsonValue, SessionId } from '../../protocol/index.js';
import { createFakeHost, type FakeTurn } from './fakeHost.js';

export const NOW = Date.parse('2026-11-29T12:00:00Z');

/** A fake host with the service and both shipped kinds registered. */
export function setup(options: ActionCardsOptions = {}) {
  const host = createFakeHost();
  const service = createActionCardsService(host.api, options);
  const pages = createMemoryPageStore({ limit: 3 });
  const followUps = createMemoryFollowUps();
  const unregister = {
    createPage: service.register(createPageKind({ pages })),
    followUp: service.register(scheduleFollowUpKind({ scheduler: followUps, now: () => NOW })),
  };
  const sessionId = host.open();
  return { host, service, pages, followUps, unregister, sessionId };
}

export const pageArgs = (overrides: Record<string, JsonValue> = {}): JsonValue => ({
  action: 'create_page',
  title: 'Save as a page',
  brief: 'Keeps this trip plan as an editable page.',
  details: { pageTitle: 'Kyoto in three days', sections: ['Day 1', 'Day 2', 'Day 3'] },
  ...overrides,
});

export const followUpArgs = (overrides: Record<string, JsonValue> = {}): JsonValue => ({
  action: 'schedule_follow_up',
  title: 'Follow up next week',
  brief: 'Check how the visa application went.',
  details: { topic: 'Visa application', suggestedAt: '2026-12-06T09:00:00Z' },
  ...overrides,
});

const skillOf: Record<string, string> = { create_page: 'create-page', schedule_follow_up: 'schedule-follow-up' };

/** The model's happy path in one turn: load the kind's skill, then propose. */
export async function propose(turn: FakeTurn, args: JsonValue = pageArgs()): Promise<CallId> {
  const action = (args as { action: string }).action;
  await turn.callTool('skill', { name: skillOf[action] ?? action });
  const result = await turn.callTool('propose_action', args);
  if (!result.ok) throw new Error(`proposal refused: ${result.content}`);
  return result.callId;
}

/** A whole turn that leaves one card. */
export async function cardTurn(host: ReturnType<typeof createFakeHost>, sessionId: SessionId, args?: JsonValue): Promise<CallId> {
  const turn = host.turn(sessionId);
  const callId = await propose(turn, args);
  turn.end();
  return callId;
}
