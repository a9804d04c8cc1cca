import type { ActRefusalReason } from '../../protocol/index.js';

/*
 * The action card's chrome strings. Kept beside the element (the shared `components/i18n` table
 * belongs to the Task Surface elements); same languages and same fallback: anything but `zh` is English.
 */

export type CardLang = 'en' | 'zh';

/** The service's own refusal reasons, named; anything else reads as `unavailable`. */
export type KnownReason = 'closing' | 'not-live-root' | 'unknown' | 'unavailable' | 'access-denied' | 'read-only';

const en = {
  suggested: 'Suggested action:',
  notNow: 'Not now',
  actions: 'Card actions',
  status: 'Status',
  working: 'Working…',
  phase: { proposed: 'Not started', dismissed: 'Dismissed', replaced: 'Replaced by a newer suggestion' } as Record<string, string>,
  reason: {
    closing: 'The assistant is shutting down. Try again in a moment.',
    'not-live-root': 'This conversation is not active right now. Reopen it and try again.',
    unknown: 'This card is no longer known to the conversation.',
    unavailable: 'This action is not available right now.',
    'access-denied': 'You do not have permission to do this here.',
    'read-only': 'This conversation is read-only, so this action cannot run.',
  } satisfies Record<KnownReason, string>,
  unconfirmed: 'The result could not be confirmed yet. Check back shortly.',
  transport: 'Could not reach the assistant. Try again.',
  unsupported: 'This card cannot be shown here.',
};

export type CardStrings = typeof en;

const zh: CardStrings = {
  suggested: '建议操作：',
  notNow: '暂不',
  actions: '卡片操作',
  status: '状态',
  working: '处理中…',
  phase: { proposed: '未开始', dismissed: '已忽略', replaced: '已被更新的建议取代' },
  reason: {
    closing: '助手正在关闭，请稍后再试。',
    'not-live-root': '此对话当前未激活。请重新打开后再试。',
    unknown: '对话中已找不到这张卡片。',
    unavailable: '此操作当前不可用。',
    'access-denied': '你无权在此执行此操作。',
    'read-only': '此对话为只读，无法执行此操作。',
  },
  unconfirmed: '暂时无法确认结果，请稍后查看。',
  transport: '无法连接到助手，请重试。',
  unsupported: '无法在此显示这张卡片。',
};

export function cardStrings(lang: string | undefined): CardStrings {
  return lang === 'zh' ? zh : en;
}

export function isKnownReason(reason: ActRefusalReason): reason is KnownReason {
  return Object.hasOwn(en.reason, reason);
}
