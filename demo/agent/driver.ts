import type { AgentDriver, AgentTurn, PromptMessage } from '../../host/types.js';
import type { JsonValue, SessionId, UserMessageEvent } from '../../protocol/index.js';
import { conclude, readBack } from './answers.js';
import { cards, type CardOffer } from './cards.js';
import { compare, plan, review, type Lang, type Scenario } from './scenarios.js';
import { settings } from './settings.js';

export const SCENARIOS: readonly Scenario[] = [compare, plan, review, settings];

export interface ScriptedAgentOptions {
  /** Pause before answering, so the page shows the agent working. Default 0. */
  thinkMs?: number;
  /**
   * Writes each panel's call as a model streams it: its JSON text in 4-character tokens at this
   * many a second (`turn.showToolInput`), so the page shows the panel's preview grow. Default: at once.
   */
  tokensPerSecond?: number;
}

const HELP = {
  en: 'I’m a scripted demo agent. Try: “compare databases”, “reorder the launch plan”, “review the change”, “notification settings”, “save this as a page” or “remind me to follow up”.',
  zh: '我是一个脚本化的演示助手。试试：“比较数据库”“排序发布计划”“审查代码改动”“通知设置”“保存为页面”或“提醒我跟进”。',
};
/** How the agent opens its answer to a message, by what became of the panel it showed last. */
const PANEL_OUTCOME = {
  bypassed: {
    en: 'You wrote a message instead of using the panel, so I closed it. ',
    zh: '你直接发了消息而没有使用面板，所以我关闭了它。',
  },
  dismissed: {
    en: 'You dismissed the panel, so I’ve set that question aside. ',
    zh: '你关闭了面板，那个问题先放一放。',
  },
  none: { en: '', zh: '' },
} as const;

type PanelOutcome = keyof typeof PANEL_OUTCOME;

/**
 * What became of the agent's last panel before this turn's messages, read from the request as a
 * model reads it: a dismissal is a developer message after the panel's result; a user message after
 * it (a submission, or an earlier message) means it was already answered; neither means the message
 * that starts this turn bypassed the panel.
 */
export function panelOutcome(messages: readonly PromptMessage[], firstInputSeq: number): PanelOutcome {
  const shownAt = messages.findLastIndex(
    (m) => m.role === 'tool' && m.seq < firstInputSeq && /^\[result show_task_surface \S+\]/.test(m.text),
  );
  if (shownAt < 0) return 'none';
  const since = messages.slice(shownAt + 1).filter((m) => m.seq < firstInputSeq);
  if (since.some((m) => m.role === 'user')) return 'none';
  return since.some((m) => m.role === 'developer' && m.text.startsWith('The user dismissed task surface')) ? 'dismissed' : 'bypassed';
}

const langOf = (text: string): Lang => (/[\u3400-\u9fff]/.test(text) ? 'zh' : 'en');

/**
 * A scripted AgentDriver: no model, no network. It reacts to keywords in what the person writes by
 * showing a task surface or offering an action card, and answers each submission by reading the
 * structured values back from `source.taskSurface.values`.
 */
export function createScriptedAgent(options: ScriptedAgentOptions = {}): AgentDriver {
  /** Sessions where this agent showed a surface that no submission answered yet (process memory). */
  const shown = new Map<SessionId, Scenario>();

  async function think(turn: AgentTurn) {
    if (!options.thinkMs) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, options.thinkMs);
      turn.signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          resolve();
        },
        { once: true },
      );
    });
  }

  /** A model writing the call's arguments: the page sees the preview grow, then the call runs. */
  async function stream(turn: AgentTurn, args: JsonValue) {
    const rate = options.tokensPerSecond;
    if (!rate) return;
    const text = JSON.stringify(args);
    const started = Date.now();
    for (let at = 4; at < text.length + 4 && !turn.signal.aborted; at += 4) {
      const wait = started + (at / 4 / rate) * 1000 - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      turn.showToolInput('show_task_surface', text.slice(0, at));
    }
  }

  async function offer(turn: AgentTurn, card: CardOffer, lang: Lang) {
    turn.step();
    await turn.callTool('skill', { name: card.skill });
    turn.step();
    await turn.callTool('propose_action', card.proposal(lang));
  }

  async function answerSubmission(turn: AgentTurn, message: UserMessageEvent) {
    const correlation = message.source.taskSurface!;
    const values = correlation.values;
    const lang = langOf(message.text);
    const scenario = SCENARIOS.find((s) => (s.model.en.fields ?? []).some((f) => f.id in values)) ?? shown.get(turn.sessionId);
    shown.delete(turn.sessionId);
    if (!scenario) return turn.reply(lang === 'zh' ? '收到你的提交。' : 'Got your submission.');
    const lines = readBack(scenario.model[lang], values, lang);
    const card = scenario.name === 'plan' ? cards.page : scenario.name === 'compare' ? cards.followUp : undefined;
    if (card) await offer(turn, card, lang);
    turn.reply([lang === 'zh' ? '我收到的是：' : 'Here is what I got:', ...lines, '', conclude(scenario, values, lang)].join('\n'));
  }

  async function answerText(turn: AgentTurn, message: UserMessageEvent, messages: readonly PromptMessage[]) {
    const lang = langOf(message.text);
    const prefix = PANEL_OUTCOME[panelOutcome(messages, turn.input[0]?.seq ?? message.seq)][lang];
    shown.delete(turn.sessionId);
    const scenario = SCENARIOS.find((s) => s.triggers.test(message.text));
    if (scenario) {
      turn.reply(prefix + scenario.intro[lang]);
      await stream(turn, { model: scenario.model[lang] });
      if (turn.signal.aborted) return;
      const outcome = await turn.callTool('show_task_surface', { model: scenario.model[lang] });
      if (outcome.ok) shown.set(turn.sessionId, scenario);
      return;
    }
    const card = Object.values(cards).find((c) => c.triggers.test(message.text));
    if (card) {
      await offer(turn, card, lang);
      return turn.reply(prefix + card.answer[lang]);
    }
    turn.reply(prefix + HELP[lang]);
  }

  return {
    async runTurn(turn) {
      const request = turn.step();
      await think(turn);
      const message = turn.input.at(-1);
      if (!message || turn.signal.aborted) return;
      if (message.source.taskSurface) await answerSubmission(turn, message);
      else await answerText(turn, message, request.messages);
    },
  };
}
