import { createActionCardsService, type ActionCardsOptions } from '../../host/actionCards/index.js';
import { createMemoryFollowUps, createMemoryPageStore, createPageKind, scheduleFollowUpKind } from '../../host/actionCards/kinds/index.js';
import * as z from 'zod/mini';
import type { CardKind, HostPluginApi } from '../../host/types.js';
import type { CallId, JsonValue, SessionId } from '../../protocol/index.js';
import { createFakeHost, type FakeTurn } from './fakeHost.js';

export const NOW = Date.parse('2026-11-29T12:00:00Z');

/** A fake host with the service and both shipped kinds registered. */
export function setup(options: ActionCardsOptions & { inspect?: HostPluginApi['inspect'] } = {}) {
  const host = createFakeHost(options.inspect ? { inspect: options.inspect } : {});
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

const skillOf: Record<string, string> = { create_page: 'create-page', schedule_follow_up: 'schedule-follow-up', test_action: 'test-skill' };

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

/** A promise with its resolver outside (Node 20 has no Promise.withResolvers). */
export function gate<T = void>() {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** A minimal kind for tests, with hooks to pause its reconcile and handler. */
export function testKind(overrides: Partial<CardKind> = {}): CardKind {
  return {
    action: 'test_action',
    skill: { name: 'test-skill', text: 'Propose test_action with details { "n": number }.' },
    invitation: 'Invite the user to try it.',
    details: z.strictObject({ n: z.number() }),
    verbs: {
      run: {
        checks: ['writes'],
        handler: async (ctx) => {
          ctx.record('done', { n: 1 });
          return { status: 'accepted' };
        },
      },
    },
    ...overrides,
  };
}

export const testArgs = (): JsonValue => ({ action: 'test_action', title: 'Try it', brief: 'Runs the test action.', details: { n: 1 } });
