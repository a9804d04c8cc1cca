// Shared set-up of the driver tests: a memory host with both card kinds, driven by a real driver.
import { createHost } from '../../host/createHost.js';
import { createMemoryFollowUps, createMemoryPageStore, createPageKind, scheduleFollowUpKind } from '../../host/actionCards/kinds/index.js';
import { createMemoryStore } from '../../host/store/memory.js';
import type { AgentDriver, Host } from '../../host/types.js';
import type { SessionEvent, SessionId, SessionView } from '../../protocol/index.js';
import { counterIds, ids, say } from '../host/helpers.js';

export { ids, say };

export function driverHost(driver: AgentDriver): Host {
  const host = createHost({ store: createMemoryStore(), driver, ids: counterIds() });
  host.actionCards.register(createPageKind({ pages: createMemoryPageStore() }));
  host.actionCards.register(scheduleFollowUpKind({ scheduler: createMemoryFollowUps() }));
  return host;
}

/** Sends a user message and waits until the turn it starts has ended. */
export async function turn(host: Host, sessionId: SessionId, text: string): Promise<void> {
  await say(host, sessionId, text);
  await host.whenIdle(sessionId);
}

export async function log(host: Host, sessionId: SessionId): Promise<SessionEvent[]> {
  return (await host.readLog(sessionId, { limit: 1000 })).events;
}

export const lastTurnEnd = async (host: Host, sessionId: SessionId) =>
  (await log(host, sessionId)).filter((e) => e.type === 'turn/ended').at(-1) as Extract<SessionEvent, { type: 'turn/ended' }>;

/** Records every view a watcher gets. */
export function recordViews(host: Host, sessionId: SessionId): SessionView[] {
  const views: SessionView[] = [];
  host.watchSession(sessionId, (view) => views.push(structuredClone(view)));
  return views;
}

/** Submits the open surface with `values`; resolves when the next turn has ended. */
export async function submitOpen(host: Host, sessionId: SessionId, values: Record<string, string>): Promise<void> {
  const active = host.getView(sessionId).taskSurface.active;
  if (!active) throw new Error('no open surface');
  const result = await host.taskSurface.submit({ sessionId, surfaceId: active.surfaceId, submissionId: ids.submission(), values });
  if (!('accepted' in result) || !result.accepted) throw new Error(`submit refused: ${JSON.stringify(result)}`);
  await host.whenIdle(sessionId);
}
