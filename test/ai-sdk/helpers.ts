// Conversations as an AI SDK app records them: streamText with the Task Surface tools and stop
// rule, the AI SDK's MockLanguageModelV4, and the messages `toUIMessageStreamResponse` hands onFinish.
import { convertToModelMessages, isStepCount, streamText, type UIMessage } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { taskSurfaceDataPart, taskSurfaceStopWhen, taskSurfaceTools } from '../../ai-sdk/index.js';
import type { CardKind } from '../../host/types.js';
import type { TaskSurfaceChat } from '../../ai-sdk/chat.js';
import { partsStream, textParts, toolCallParts } from '../../demo/ai-sdk/model.js';
import { sampleModel } from '../host/helpers.js';

export { sampleModel, textParts, toolCallParts };

/** A model that streams one scripted step per call (the last one again when the script runs out). */
export function scriptedModel(...steps: LanguageModelV4StreamPart[][]): MockLanguageModelV4 {
  let call = 0;
  return new MockLanguageModelV4({
    doStream: async () => ({ stream: partsStream(steps[Math.min(call++, steps.length - 1)]!) }),
  });
}

/** A step that shows `model` (the sample by default). */
export const showStep = (model: unknown = sampleModel(), callId?: string) => toolCallParts('show_task_surface', { model }, callId);

let ids = 0;
/** A user message with one text part. */
export const userText = (text: string, metadata?: unknown): UIMessage => ({
  id: `u${++ids}`,
  role: 'user',
  parts: [{ type: 'text', text }],
  ...(metadata === undefined ? {} : { metadata }),
});

/**
 * One request of an app's chat route: the model answers `messages` (tools and stop rule as the
 * README says), and the conversation onFinish persists comes back.
 */
export async function respond(messages: UIMessage[], model: MockLanguageModelV4, kinds?: readonly CardKind[]): Promise<UIMessage[]> {
  const tools = kinds ? taskSurfaceTools({ messages, kinds }) : taskSurfaceTools({ messages });
  const result = streamText({
    model,
    instructions: 'test',
    messages: await convertToModelMessages(messages, { tools, convertDataPart: taskSurfaceDataPart }),
    tools,
    stopWhen: [isStepCount(5), taskSurfaceStopWhen],
  });
  let persisted: UIMessage[] | undefined;
  const response = result.toUIMessageStreamResponse({
    originalMessages: messages,
    generateMessageId: () => `a${++ids}`,
    onFinish: ({ messages: all }) => {
      persisted = all;
    },
  });
  await response.text();
  if (!persisted) throw new Error('onFinish did not run');
  return persisted;
}

/** A chat whose sendMessage and setMessages change its messages at once, as the AI SDK's Chat does. */
export function fakeChat(messages: UIMessage[]) {
  const sent: UIMessage[] = [];
  const chat: any = {
    id: 'chat-1',
    messages,
    status: 'ready',
    sent,
    async sendMessage(message: UIMessage) {
      sent.push(message);
      chat.messages = [...chat.messages, message];
    },
    setMessages(next: UIMessage[]) {
      chat.messages = next;
    },
  };
  return chat as TaskSurfaceChat & { sent: UIMessage[] };
}
