/* Steps the scenarios share: open a panel, read what the model was sent. */
import { formatSubmission } from '../../protocol/format.js';
import type { JsonValue } from '../../protocol/json.js';
import { parseTaskSurfaceModel } from '../../protocol/parse.js';
import type { ActiveSurface, Conversation } from '../driver.js';
import { panelModel, show } from '../fixtures.js';
import { expectEqual, expectThat } from '../scenario.js';
import { shownText } from '../texts.js';

/** The person asks; the model shows the panel (`title`); the panel is open with the Host's result text. */
export async function openPanel(conversation: Conversation, title?: string): Promise<ActiveSurface> {
  conversation.script({ calls: [show(title)] });
  expectEqual(await conversation.say('Help me plan a trip'), { accepted: true }, 'the asking message');
  const active = await conversation.active();
  expectThat(active !== null, 'a successful show_task_surface opens the panel');
  const read = conversation.calls().at(-1);
  expectEqual(read, { tool: 'show_task_surface', ok: true, text: shownText(active.surfaceId, active.title) }, 'what the model reads');
  return active;
}

/** The submission text the person's language writes (the Host's formatter, the same words every path must use). */
export function submissionText(locale: string, values: Record<string, JsonValue>, note?: string, title?: string): string {
  const parsed = parseTaskSurfaceModel(panelModel(title));
  if (!parsed.ok) throw new Error('the kit panel does not parse');
  return formatSubmission(parsed.model, values as never, note, { locale });
}

/** The user messages of the model's latest request. */
export function lastUserTexts(conversation: Conversation): string[] {
  return (conversation.requests().at(-1)?.messages ?? []).filter((m) => m.role === 'user').map((m) => m.text);
}

/** How many of every request's user messages are exactly `text`, in the latest request. */
export function countInLatest(conversation: Conversation, text: string): number {
  return lastUserTexts(conversation).filter((t) => t === text).length;
}

/** The requests, counted. */
export const requestCount = (conversation: Conversation): number => conversation.requests().length;
