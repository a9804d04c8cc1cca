// Prompt building for a 1,000-event session: the effective log to prompt messages to each
// provider's native request (OpenAI Chat Completions, Anthropic Messages), against JSON.stringify
// of the same request (what the SDK does to it anyway), warm medians.
import { anthropicMessages } from '../../agents/anthropic.js';
import { openAIMessages } from '../../agents/openai.js';
import { DEFAULT_SYSTEM_PROMPT, promptMessages } from '../../host/prompt.js';
import { showTaskSurfaceTool, toAnthropicTool, toOpenAITool, type NewSessionEvent, type SessionEvent } from '../../protocol/index.js';
import { compare } from '../stats.js';

/** A session of `turns` turns: a question, a surface shown and answered, a tool call, a reply; notices. */
function session(events: number): SessionEvent[] {
  const log: SessionEvent[] = [];
  const add = (event: NewSessionEvent) => void log.push({ ...event, seq: log.length + 1, at: log.length } as SessionEvent);
  const model = {
    version: 1,
    title: 'Pick',
    sections: [],
    fields: [
      {
        kind: 'choice',
        id: 'p',
        label: 'Plan',
        options: [
          { id: 'a', label: 'A' },
          { id: 'b', label: 'B' },
        ],
      },
    ],
    submit: { label: 'Go' },
  };
  for (let t = 0; log.length < events; t++) {
    const turnId = `turn-${t}` as never;
    add({
      type: 'user/message',
      messageId: `m-${t}` as never,
      text: `Question ${t}: which plan fits a team of ${t} people?`,
      source: { kind: 'user', rpcId: `r-${t}` as never },
    });
    add({ type: 'turn/started', turnId });
    add({
      type: 'tool/call',
      callId: `lookup-${t}` as never,
      turnId,
      name: 'skill',
      args: { name: 'create-page' },
      origin: 'model',
      agent: 'root',
    });
    add({
      type: 'tool/result',
      callId: `lookup-${t}` as never,
      turnId,
      name: 'skill',
      ok: true,
      content: 'Use when the answer is worth keeping as a page.',
    });
    add({ type: 'assistant/message', messageId: `a-${t}` as never, turnId, text: 'Here are the options; pick one in the panel.' });
    add({
      type: 'tool/call',
      callId: `show-${t}` as never,
      turnId,
      name: 'show_task_surface',
      args: { model },
      origin: 'model',
      agent: 'root',
    });
    add({
      type: 'tool/result',
      callId: `show-${t}` as never,
      turnId,
      name: 'show_task_surface',
      ok: true,
      content: 'Task surface "Pick" is now shown to the user; your turn ends here.',
    });
    add({ type: 'turn/ended', turnId, outcome: 'concluded' });
    add({ type: 'task-surface/dismissed', callId: `show-${t}` as never, surfaceId: `s-${t}` as never, dismissalId: `d-${t}` as never });
    add({ type: 'action-cards/notice', through: log.length, text: 'Latest status of action cards: none changed.' });
  }
  return log.slice(0, events);
}

export default {
  title: 'Prompt building, 1,000-event session: log → native request, against JSON.stringify of that request',
  async run() {
    const log = session(1000);
    const tools = [showTaskSurfaceTool];
    const providers = [
      [
        'OpenAI Chat Completions',
        () => ({
          model: 'm',
          messages: openAIMessages({ tools, messages: promptMessages(log) }, DEFAULT_SYSTEM_PROMPT, 'developer'),
          tools: tools.map(toOpenAITool),
        }),
      ],
      [
        'Anthropic Messages',
        () => ({
          model: 'm',
          system: DEFAULT_SYSTEM_PROMPT,
          messages: anthropicMessages({ tools, messages: promptMessages(log) }),
          tools: tools.map(toAnthropicTool),
        }),
      ],
    ] as const;
    for (const [name, build] of providers) {
      const request = build();
      let sink = 0;
      const { subject, baseline, ratio } = compare(
        () => {
          sink += build().messages.length;
        },
        () => {
          sink += JSON.stringify(request).length;
        },
        200,
        50,
      );
      console.log(
        `${name}: ${log.length} events → ${request.messages.length} messages, ${JSON.stringify(request).length} bytes; ` +
          `JSON.stringify ${baseline.toFixed(3)} ms; building ${subject.toFixed(3)} ms; ratio ${ratio.toFixed(2)}${sink < 0 ? '' : ''}`,
      );
    }
  },
};
