import { ar, de, es, ja } from './i18nMore.js';

/** The demo page's own chrome strings (the elements bring theirs). */
const base = {
  en: {
    appName: 'Task Surface demo',
    sessions: 'Chats',
    newChat: 'New chat',
    untitled: 'Untitled chat',
    loadOlder: 'Load earlier messages',
    loadingOlder: 'Loading…',
    start: 'This is the start of the chat.',
    placeholder: 'Message the agent…  (try “compare databases”)',
    send: 'Send',
    working: 'Agent is working…',
    waitingForModel: 'Waiting for the model (many requests right now)…',
    queued: 'Waiting for the agent',
    steer: 'Send now',
    edit: 'Edit',
    remove: 'Remove',
    withdraw: 'Withdraw answer',
    save: 'Save',
    cancel: 'Cancel',
    fromPanel: 'from the panel',
    dismissed: 'Panel dismissed',
    turnFailed: 'The agent could not answer:',
    conversation: 'Conversation',
    messages: 'Messages',
    you: 'You:',
    agent: 'Agent:',
    language: 'Language',
    theme: 'Theme',
    light: 'Light',
    dark: 'Dark',
    connecting: 'Connecting…',
    reconnecting: 'Reconnecting…',
    close: 'Close',
    record: 'Record a voice note',
    recording: 'Recording… (the panel and its draft are kept)',
    sendVoice: 'Send voice note',
    voiceNote: '🎤 Voice note (0:04)',
    refused: {
      'task-surface-row': 'A panel answer can only be withdrawn, not edited or sent early.',
      'queue-item-not-found': 'That message already left the queue.',
    },
    notSent: {
      'queue-full': 'Too many messages are waiting in this chat. Wait for the agent, then send again.',
      'read-only': 'This chat is read-only.',
      'unknown-session': 'This chat no longer exists.',
      'quota-exceeded': 'You have sent too many messages or stored too much for now. Wait a little, then send again.',
      'too-busy': 'The agent is already working on several of your chats. Send again when one finishes.',
    },
    suggestions: ['compare databases', 'reorder the launch plan', 'review the change', 'notification settings', 'save this as a page'],
  },
  zh: {
    appName: 'Task Surface 演示',
    sessions: '对话',
    newChat: '新对话',
    untitled: '未命名对话',
    loadOlder: '加载更早的消息',
    loadingOlder: '加载中…',
    start: '这是对话的开始。',
    placeholder: '给助手发消息…（试试“比较数据库”）',
    send: '发送',
    working: '助手正在处理…',
    waitingForModel: '正在等待模型（当前请求较多）…',
    queued: '等待助手处理',
    steer: '立即发送',
    edit: '编辑',
    remove: '移除',
    withdraw: '撤回回答',
    save: '保存',
    cancel: '取消',
    fromPanel: '来自面板',
    dismissed: '面板已关闭',
    turnFailed: '助手未能回答：',
    conversation: '对话记录',
    messages: '消息',
    you: '你：',
    agent: '助手：',
    language: '语言',
    theme: '主题',
    light: '浅色',
    dark: '深色',
    connecting: '正在连接…',
    reconnecting: '正在重新连接…',
    close: '关闭',
    record: '录制语音消息',
    recording: '正在录音…（面板和草稿都会保留）',
    sendVoice: '发送语音',
    voiceNote: '🎤 语音消息（0:04）',
    refused: { 'task-surface-row': '面板回答只能撤回，不能编辑或提前发送。', 'queue-item-not-found': '这条消息已经离开队列。' },
    notSent: {
      'queue-full': '这个对话中等待的消息太多。请等助手处理后再发送。',
      'read-only': '这个对话是只读的。',
      'unknown-session': '这个对话已不存在。',
      'quota-exceeded': '你暂时发送的消息或存储的数据太多。请稍等后再发送。',
      'too-busy': '助手正在同时处理你的多个对话。请等其中一个完成后再发送。',
    },
    suggestions: ['比较数据库', '排序发布计划', '审查代码改动', '通知设置', '保存为页面'],
  },
} as const;

/** One language's page strings: the English shape, any wording. */
export type PageStrings = {
  readonly [K in keyof (typeof base)['en']]: (typeof base)['en'][K] extends string
    ? string
    : (typeof base)['en'][K] extends readonly string[]
      ? readonly string[]
      : { readonly [R in keyof (typeof base)['en'][K]]: string };
};

/** Every language the demo's switch lists, in its order: the six the elements ship. */
export const pageStrings: Record<PageLang, PageStrings> = { en: base.en, zh: base.zh, es, de, ja, ar };

export type PageLang = 'en' | 'zh' | 'es' | 'de' | 'ja' | 'ar';
export const PAGE_LANGS: readonly PageLang[] = ['en', 'zh', 'es', 'de', 'ja', 'ar'];

/** Reads a stored language back, `en` when it is not one the page lists. */
export function pageLangOf(value: string | null): PageLang {
  return (PAGE_LANGS as readonly string[]).includes(value ?? '') ? (value as PageLang) : 'en';
}
