import type { Scenario } from './scenarios.js';

/** The settings form: every field kind in one panel, with a two-column grid of facts above it. */
export const settings: Scenario = {
  name: 'settings',
  triggers: /\b(settings?|form|preferences?|notifications?)\b|设置|表单|通知/i,
  intro: {
    en: 'Let’s set up your notifications. Everything is in one form below.',
    zh: '我们来设置你的通知。所有选项都在下面的表单里。',
  },
  model: {
    en: {
      version: 1,
      title: 'Notification settings',
      description: 'These apply to the ledger workspace only.',
      sections: [
        {
          id: 'current',
          title: 'Right now',
          layout: { kind: 'grid', columns: 2 },
          blocks: [
            {
              kind: 'metrics',
              items: [
                { label: 'Alerts last week', value: '37' },
                { label: 'Read', value: '12', detail: '32%' },
              ],
            },
            { kind: 'markdown', text: 'Most alerts arrive **outside working hours**. Quiet hours hold them until 08:00.' },
          ],
        },
      ],
      fields: [
        { kind: 'text', id: 'name', label: 'Name on reports', required: true, initial: 'Ada' },
        {
          kind: 'choice',
          id: 'digest',
          label: 'Digest',
          initial: 'daily',
          options: [
            { id: 'daily', label: 'Daily' },
            { id: 'weekly', label: 'Weekly' },
            { id: 'never', label: 'Never' },
          ],
        },
        {
          kind: 'multi-choice',
          id: 'channels',
          label: 'Channels',
          initial: ['email'],
          options: [
            { id: 'email', label: 'Email' },
            { id: 'chat', label: 'Chat' },
            { id: 'sms', label: 'SMS', detail: 'urgent only' },
          ],
        },
        { kind: 'toggle', id: 'quiet', label: 'Quiet hours (22:00–08:00)', initial: true },
        {
          kind: 'order',
          id: 'priority',
          label: 'Which alerts matter most',
          options: [
            { id: 'outage', label: 'Outages' },
            { id: 'billing', label: 'Billing' },
            { id: 'review', label: 'Review requests' },
          ],
        },
        { kind: 'text', id: 'note', label: 'Anything else?', multiline: true },
      ],
      submit: { label: 'Save settings' },
    },
    zh: {
      version: 1,
      title: '通知设置',
      description: '仅适用于账本工作区。',
      sections: [
        {
          id: 'current',
          title: '当前情况',
          layout: { kind: 'grid', columns: 2 },
          blocks: [
            {
              kind: 'metrics',
              items: [
                { label: '上周提醒', value: '37' },
                { label: '已读', value: '12', detail: '32%' },
              ],
            },
            { kind: 'markdown', text: '大多数提醒在**非工作时间**到达。免打扰时段会把它们留到 08:00。' },
          ],
        },
      ],
      fields: [
        { kind: 'text', id: 'name', label: '报告中的名字', required: true, initial: 'Ada' },
        {
          kind: 'choice',
          id: 'digest',
          label: '摘要',
          initial: 'daily',
          options: [
            { id: 'daily', label: '每天' },
            { id: 'weekly', label: '每周' },
            { id: 'never', label: '从不' },
          ],
        },
        {
          kind: 'multi-choice',
          id: 'channels',
          label: '渠道',
          initial: ['email'],
          options: [
            { id: 'email', label: '邮件' },
            { id: 'chat', label: '聊天' },
            { id: 'sms', label: '短信', detail: '仅紧急' },
          ],
        },
        { kind: 'toggle', id: 'quiet', label: '免打扰时段（22:00–08:00）', initial: true },
        {
          kind: 'order',
          id: 'priority',
          label: '哪些提醒最重要',
          options: [
            { id: 'outage', label: '故障' },
            { id: 'billing', label: '账单' },
            { id: 'review', label: '审查请求' },
          ],
        },
        { kind: 'text', id: 'note', label: '还有别的吗？', multiline: true },
      ],
      submit: { label: '保存设置' },
    },
  },
};
