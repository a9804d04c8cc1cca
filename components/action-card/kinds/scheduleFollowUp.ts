import { html, nothing } from 'lit';
import * as z from 'zod/mini';
import { displayText } from '../../view/text.js';
import { localized, type CardBody, type Localized } from '../bodies.js';

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
/** The chosen time in the page's language and region (`formatLang`), through `Intl`. */
const format = (iso: string, tag: string) =>
  new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

const TIME_LABEL: Localized = {
  en: 'Follow-up time',
  zh: '跟进时间',
  es: 'Hora del seguimiento',
  de: 'Zeitpunkt der Nachfrage',
  ja: 'フォローアップの日時',
  ar: 'موعد المتابعة',
};
const TIME: Localized = { en: 'Time: ', zh: '时间：', es: 'Hora: ', de: 'Zeitpunkt: ', ja: '日時：', ar: 'الموعد: ' };

/** Browser body of `schedule_follow_up`: topic, note, and a time the person may change before scheduling. */
export const scheduleFollowUpBody: CardBody<z.infer<typeof ScheduleFollowUpBodySchema>> = {
  action: 'schedule_follow_up',
  details: ScheduleFollowUpBodySchema,
  verbs: [
    {
      verb: 'schedule',
      label: { en: 'Schedule', zh: '安排', es: 'Programar', de: 'Planen', ja: '予定に入れる', ar: 'جدولة' },
      phases: ['proposed'],
      primary: true,
    },
    {
      verb: 'cancel',
      label: {
        en: 'Cancel follow-up',
        zh: '取消跟进',
        es: 'Cancelar el seguimiento',
        de: 'Nachfrage absagen',
        ja: 'フォローアップを取り消す',
        ar: 'إلغاء المتابعة',
      },
      phases: ['scheduled'],
    },
  ],
  dismissibleIn: ['cancelled'],
  phases: {
    scheduled: { en: 'Scheduled', zh: '已安排', es: 'Programado', de: 'Geplant', ja: '予定済み', ar: 'مجدولة' },
    cancelled: { en: 'Cancelled', zh: '已取消', es: 'Cancelado', de: 'Abgesagt', ja: '取り消し済み', ar: 'أُلغيت' },
    done: {
      en: 'Follow-up sent',
      zh: '已跟进',
      es: 'Seguimiento enviado',
      de: 'Nachfrage gesendet',
      ja: 'フォローアップ送信済み',
      ar: 'أُرسلت المتابعة',
    },
  },
  reasons: {
    'in-the-past': {
      en: 'That time has passed. Choose a later time.',
      zh: '该时间已过，请选择更晚的时间。',
      es: 'Esa hora ya pasó. Elige una más tarde.',
      de: 'Dieser Zeitpunkt ist vorbei. Wählen Sie einen späteren.',
      ja: 'その日時はすでに過ぎています。もっと後の日時を選んでください。',
      ar: 'هذا الموعد قد مضى. اختر موعدًا لاحقًا.',
    },
    'bad-time': {
      en: 'That time is not valid.',
      zh: '时间无效。',
      es: 'Esa hora no es válida.',
      de: 'Dieser Zeitpunkt ist ungültig.',
      ja: 'その日時は無効です。',
      ar: 'هذا الموعد غير صالح.',
    },
    'not-scheduled': {
      en: 'This follow-up is not scheduled.',
      zh: '此跟进尚未安排。',
      es: 'Este seguimiento no está programado.',
      de: 'Diese Nachfrage ist nicht geplant.',
      ja: 'このフォローアップは予定されていません。',
      ar: 'هذه المتابعة غير مجدولة.',
    },
  },
  render(details, { lang, formatLang, phase, data, disabled, setPayload }) {
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
          ? html`<label>${localized(TIME_LABEL, lang)}
            <input type="datetime-local" .value=${toLocalInput(details.suggestedAt)} ?disabled=${disabled} @change=${onChange}></label>`
          : html`<p>${localized(TIME, lang)}<time datetime=${at}>${format(at, formatLang)}</time></p>`
      }`;
  },
};
