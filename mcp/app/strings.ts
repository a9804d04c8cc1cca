import type { Lang } from '../../components/i18n/index.js';

/** The panel app's own chrome (the view's comes from the components' tables), one table per language. */
const en = {
  documentTitle: 'Task panel',
  preparing: 'Preparing the panel…',
  sending: 'Sending your answer…',
  submittedNote: 'Your answer was sent to the chat.',
  dismissedNote: 'You dismissed this panel; nothing was sent.',
  notTaken: 'The chat did not take your answer. It is saved here; send it again when you are ready.',
  unsure: 'Your answer was saved, but this panel cannot tell whether it reached the chat. If it is not there, send it again.',
  sendAgain: 'Send again',
  unreachable: 'This panel cannot reach its server, so it cannot take your answer here. Answer in the chat instead.',
  refused: 'Some answers do not fit this panel. Check them and try again.',
  unknown: 'This panel is no longer available. Answer in the chat instead.',
  invalidModel: 'The panel could not be shown.',
  dismissedContext: (title: string) =>
    `The person dismissed the panel ${JSON.stringify(title)} without answering. Do not wait for an answer to it.`,
};

export type AppStrings = typeof en;

const zh: AppStrings = {
  documentTitle: '任务面板',
  preparing: '正在准备面板…',
  sending: '正在发送你的回答…',
  submittedNote: '你的回答已发送到对话中。',
  dismissedNote: '你已关闭此面板，没有发送任何内容。',
  notTaken: '对话没有接收你的回答。回答已保存在这里，准备好后请再次发送。',
  unsure: '你的回答已保存，但此面板无法确认它是否已到达对话。如果对话中没有，请再次发送。',
  sendAgain: '再次发送',
  unreachable: '此面板无法连接到它的服务器，因此无法在这里接收你的回答。请直接在对话中回答。',
  refused: '有些回答不符合此面板。请检查后重试。',
  unknown: '此面板已不可用。请直接在对话中回答。',
  invalidModel: '无法显示此面板。',
  // The model reads this one: it stays in English whatever the person's language.
  dismissedContext: en.dismissedContext,
};

const tables: Partial<Record<Lang, AppStrings>> = { en, zh };

/** The app's chrome in `lang` (English for a language it has no table for). */
export const appStrings = (lang: Lang): AppStrings => tables[lang] ?? en;
