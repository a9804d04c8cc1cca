import { html, nothing } from 'lit';
import * as z from 'zod/mini';
import { displayText } from '../../view/text.js';
import type { CardBody } from '../bodies.js';

/** The browser's own schema for schedule_follow_up `details`. */
export const ScheduleFollowUpBodySchema = z.object({
  topic: z.string().check(z.minLength(1), z.maxLength(160)),
  suggestedAt: z.string().check(z.refine((s) => !Number.isNaN(Date.parse(s)), 'must be a date-time')),
  note: z.optional(z.string()),
});

const pad = (n: number) => String(n).padStart(2, '0');
/** `datetime-local` wants local time without a zone. */
const toLocalInput = (iso: string) => {
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};
const format = (iso: string, lang: string) =>
  new Intl.DateTimeFormat(lang === 'zh' ? 'zh-Hans-CN' : 'en', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

/** Browser body of `schedule_follow_up`: topic, note, and a time the person may change before scheduling. */
export const scheduleFollowUpBody: CardBody<z.infer<typeof ScheduleFollowUpBodySchema>> = {
  action: 'schedule_follow_up',
  details: ScheduleFollowUpBodySchema,
  verbs: [
    { verb: 'schedule', label: { en: 'Schedule', zh: '安排' }, phases: ['proposed'], primary: true },
    { verb: 'cancel', label: { en: 'Cancel follow-up', zh: '取消跟进' }, phases: ['scheduled'] },
  ],
  dismissibleIn: ['cancelled'],
  phases: {
    scheduled: { en: 'Scheduled', zh: '已安排' },
    cancelled: { en: 'Cancelled', zh: '已取消' },
    done: { en: 'Follow-up sent', zh: '已跟进' },
  },
  reasons: {
    'in-the-past': { en: 'That time has passed. Choose a later time.', zh: '该时间已过，请选择更晚的时间。' },
    'bad-time': { en: 'That time is not valid.', zh: '时间无效。' },
    'not-scheduled': { en: 'This follow-up is not scheduled.', zh: '此跟进尚未安排。' },
  },
  render(details, { lang, phase, data, disabled, setPayload }) {
    const zh = lang === 'zh';
    const at = typeof data['at'] === 'string' ? data['at'] : details.suggestedAt;
    const onChange = (event: Event) => {
      const value = (event.target as HTMLInputElement).value;
      setPayload('schedule', value === '' ? undefined : { at: new Date(value).toISOString() });
    };
    return html`
      <p dir="auto"><strong>${displayText(details.topic)}</strong></p>
      ${details.note ? html`<p dir="auto">${displayText(details.note)}</p>` : nothing}
      ${
        phase === 'proposed'
          ? html`<label>${zh ? '跟进时间' : 'Follow-up time'}
            <input type="datetime-local" .value=${toLocalInput(details.suggestedAt)} ?disabled=${disabled} @change=${onChange}></label>`
          : html`<p>${zh ? '时间：' : 'Time: '}<time datetime=${at}>${format(at, lang)}</time></p>`
      }`;
  },
};
