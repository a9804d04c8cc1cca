import * as z from 'zod/mini';
import type { JsonValue } from '../../../protocol/index.js';
import type { CardKind } from '../../types.js';

/** Where follow-ups are kept. The demo and tests use `createMemoryFollowUps`. */
export interface FollowUpScheduler {
  schedule(input: { topic: string; at: string; sourceCallId: string }): Promise<{ followUpId: string }>;
  cancel(followUpId: string): Promise<boolean>;
  /** `pending`, `done` (it fired) or `gone` (removed outside the session). */
  status(followUpId: string): Promise<'pending' | 'done' | 'gone'>;
}

const isoDateTime = z
  .string()
  .check(
    z.refine(
      (s) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(s) && !Number.isNaN(Date.parse(s)),
      'must be an ISO 8601 date-time with a time zone, e.g. 2026-12-01T09:00:00Z',
    ),
  );

/** `details` of a schedule_follow_up card. */
export const ScheduleFollowUpDetailsSchema = z.strictObject({
  topic: z.string().check(z.trim(), z.minLength(1, 'must not be blank'), z.maxLength(160)),
  suggestedAt: isoDateTime,
  note: z.optional(z.string().check(z.maxLength(500))),
});
export type ScheduleFollowUpDetails = z.infer<typeof ScheduleFollowUpDetailsSchema>;

const PayloadSchema = z.optional(z.strictObject({ at: z.optional(isoDateTime) }));

const SKILL = `Use when the user would benefit from coming back to this topic later (checking results, a deadline, a next step).
After answering, call propose_action once with:
- action: "schedule_follow_up"
- title: short card title, e.g. "Follow up next week"
- brief: one sentence on what the follow-up is for
- details: { "topic": string (≤160 chars), "suggestedAt": ISO 8601 date-time with time zone, "note"?: string (≤500 chars) }
Suggest a time the user mentioned, or a sensible one; the user can change it on the card.`;

/** In-memory follow-ups (demo, tests); `fire` marks one done as a scheduler would. */
export function createMemoryFollowUps(): FollowUpScheduler & { fire(followUpId: string): void; remove(followUpId: string): void } {
  const items = new Map<string, 'pending' | 'done'>();
  let next = 1;
  return {
    async schedule() {
      const followUpId = `follow-up-${next++}`;
      items.set(followUpId, 'pending');
      return { followUpId };
    },
    async cancel(followUpId) {
      return items.get(followUpId) === 'pending' && items.delete(followUpId);
    },
    async status(followUpId) {
      return items.get(followUpId) ?? 'gone';
    },
    fire(followUpId) {
      if (items.has(followUpId)) items.set(followUpId, 'done');
    },
    remove(followUpId) {
      items.delete(followUpId);
    },
  };
}

/**
 * The `schedule_follow_up` kind ("schedule a follow-up"). Verb `schedule` (global, writes; payload
 * `{ at? }` overrides the suggested time) records `scheduled` with `followUpId` and `at`; `cancel`
 * (global, writes) records `cancelled`. Reconcile records `done` once the follow-up fired, or
 * `cancelled` when it disappeared. Own refusal reasons: `in-the-past`, `not-scheduled`, `bad-time`.
 */
export function scheduleFollowUpKind(options: { scheduler?: FollowUpScheduler; now?: () => number } = {}): CardKind {
  const scheduler = options.scheduler ?? createMemoryFollowUps();
  const now = options.now ?? Date.now;
  // The follow-up's id lives in the card's recorded decisions, so reconcile works after a restart.
  const idOf = (data: Record<string, JsonValue> | undefined) => (typeof data?.['followUpId'] === 'string' ? data['followUpId'] : undefined);
  return {
    action: 'schedule_follow_up',
    skill: { name: 'schedule-follow-up', text: SKILL },
    invitation: 'In one sentence in the user’s language, say they can schedule this follow-up from the card and change its time there.',
    details: ScheduleFollowUpDetailsSchema,
    dismissibleIn: ['cancelled'],
    statusGuidance: 'A scheduled follow-up reaches the user at its time; do not promise reminders beyond it.',
    reportedFields: ['at', 'followUpId'],
    async reconcile(ctx) {
      const followUpId = idOf(ctx.data);
      if (ctx.phase !== 'scheduled' || followUpId === undefined) return;
      const status = await scheduler.status(followUpId);
      if (status === 'done') ctx.record('done', { followUpId });
      else if (status === 'gone') ctx.record('cancelled', { followUpId });
    },
    verbs: {
      schedule: {
        checks: ['global', 'writes'],
        async handler(ctx, payload) {
          if (ctx.phase === 'scheduled' || ctx.phase === 'done') return { status: 'settled' };
          const parsed = PayloadSchema.safeParse(payload ?? undefined);
          if (!parsed.success) return { status: 'refused', reason: 'bad-time' };
          const details = ScheduleFollowUpDetailsSchema.parse(ctx.card.details);
          const at = parsed.data?.at ?? details.suggestedAt;
          if (Date.parse(at) <= now()) return { status: 'refused', reason: 'in-the-past' };
          const { followUpId } = await scheduler.schedule({ topic: details.topic, at, sourceCallId: ctx.callId });
          ctx.record('scheduled', { followUpId, at });
          return { status: 'accepted' };
        },
      },
      cancel: {
        checks: ['global', 'writes'],
        async handler(ctx) {
          const followUpId = idOf(ctx.data);
          if (ctx.phase === 'cancelled') return { status: 'settled' };
          if (ctx.phase !== 'scheduled' || followUpId === undefined) return { status: 'refused', reason: 'not-scheduled' };
          await scheduler.cancel(followUpId);
          ctx.record('cancelled', { followUpId });
          return { status: 'accepted' };
        },
      },
    },
  };
}
