import type { JsonValue } from '../../protocol/index.js';
import type { Lang } from './scenarios.js';

/** An action card the scripted agent offers: the kind's skill, then one propose_action call. */
export interface CardOffer {
  skill: string;
  triggers: RegExp;
  answer: Record<Lang, string>;
  proposal(lang: Lang): JsonValue;
}

const inAWeek = () => new Date(Date.now() + 7 * 86_400_000).toISOString().replace(/\.\d+Z$/, 'Z');

export const cards = {
  page: {
    skill: 'create-page',
    triggers: /\b(page|save|guide|notes)\b|页面|保存|笔记/i,
    answer: {
      en: 'Here is a short launch checklist:\n\n1. Turn on feature flags for staff\n2. Run the data migration\n3. Watch the dashboards for a day\n\nYou can keep it as a page with the card below.',
      zh: '这是一份简短的发布清单：\n\n1. 为员工打开功能开关\n2. 执行数据迁移\n3. 观察仪表盘一天\n\n你可以用下面的卡片把它保存为页面。',
    },
    proposal: (lang: Lang): JsonValue => ({
      action: 'create_page',
      title: lang === 'zh' ? '保存为页面' : 'Save as a page',
      brief: lang === 'zh' ? '把发布计划保存为一个可以再次打开的页面。' : 'Keep the launch plan as a page you can reopen and edit.',
      details: {
        pageTitle: lang === 'zh' ? '发布计划' : 'Launch plan',
        sections: lang === 'zh' ? ['步骤', '负责人'] : ['Steps', 'Owners'],
      },
    }),
  },
  followUp: {
    skill: 'schedule-follow-up',
    triggers: /\b(remind|follow[ -]?up|later)\b|提醒|跟进/i,
    answer: {
      en: 'Sure — I can check back on this next week. Use the card below to schedule it.',
      zh: '好的——我可以下周再来跟进。用下面的卡片安排时间。',
    },
    proposal: (lang: Lang): JsonValue => ({
      action: 'schedule_follow_up',
      title: lang === 'zh' ? '一周后跟进' : 'Follow up in a week',
      brief: lang === 'zh' ? '一周后检查账本服务的延迟。' : 'Check the ledger service latency in a week.',
      details: { topic: lang === 'zh' ? '账本服务延迟' : 'Ledger service latency', suggestedAt: inAWeek() },
    }),
  },
} satisfies Record<string, CardOffer>;
