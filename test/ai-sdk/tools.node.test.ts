// The tool and the stop rule inside streamText, with the AI SDK's own mock model.
import { TURN_CONCLUDED_TEXT } from '../../host/turn.js';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { foldTaskSurface, taskSurfaceStopWhen, taskSurfaceTools } from '../../ai-sdk/index.js';
import { isStepCount, jsonSchema, streamText, tool } from 'ai';
import { respond, sampleModel, scriptedModel, showStep, textParts, toolCallParts, userText } from './helpers.js';

/** The Host's refusal while a panel is open, word for word. */
const alreadyOpen = (surfaceId: string) =>
  `A task surface (${surfaceId}) is already open in this conversation. Wait for the user to submit or dismiss it ` +
  '(or to answer with an ordinary message) before showing another.';

const showPart = (messages: { parts: { type: string }[] }[]) =>
  messages.flatMap((m) => m.parts).filter((p) => p.type === 'tool-show_task_surface') as unknown as { state: string; output: any }[];

describe('taskSurfaceTools + taskSurfaceStopWhen', () => {
  it('a successful show concludes the turn: one model call, the surface open with its normalised model', async () => {
    const model = scriptedModel(showStep(), textParts('never reached'));
    const messages = await respond([userText('help me pick')], model);
    assert.equal(model.doStreamCalls.length, 1, 'the step loop stopped after the show');
    const [part] = showPart(messages);
    assert.equal(part!.state, 'output-available');
    assert.equal(part!.output.ok, true);
    assert.equal(part!.output.kind, 'task-surface');
    assert.match(part!.output.text, /is now shown to the user/);
    const state = foldTaskSurface(messages);
    assert.equal(state.open?.surfaceId, part!.output.surfaceId);
    assert.equal(state.open?.model.title, 'Pick a plan');
  });

  it('hands a malformed model back with its paths; the model corrects it in the next step', async () => {
    const bad = { version: 1, title: '', fields: [], sections: [], submit: { label: 'Go' } };
    const model = scriptedModel(showStep(bad), showStep());
    const messages = await respond([userText('pick')], model);
    assert.equal(model.doStreamCalls.length, 2);
    const second = model.doStreamCalls[1]!.prompt;
    const result = second.find((m) => m.role === 'tool')!.content[0] as any;
    assert.equal(result.output.type, 'error-text');
    assert.match(result.output.value, /title/);
    const parts = showPart(messages);
    assert.deepEqual(
      parts.map((p) => p.output.ok),
      [false, true],
    );
    assert.ok(foldTaskSurface(messages).open);
  });

  it('the model reads the short result text, not the whole panel', async () => {
    const model = scriptedModel(showStep(), textParts('ok'));
    const messages = await respond([userText('pick')], model);
    const next = scriptedModel(textParts('fine'));
    await respond([...messages, userText('hello')], next);
    const tool = next.doStreamCalls[0]!.prompt.find((m) => m.role === 'tool')!.content[0] as any;
    assert.equal(tool.output.type, 'text');
    assert.match(tool.output.value, /^Task surface "Pick a plan" \(.+\) is now shown to the user/);
  });

  it('refuses a second surface while one is open, and a second call in the same step', async () => {
    const model = scriptedModel(showStep(), textParts('x'));
    const messages = await respond([userText('pick')], model);
    const open = foldTaskSurface(messages).open!;
    const tools = taskSurfaceTools({ messages });
    const again: any = await tools.show_task_surface.execute!({ model: sampleModel() }, { toolCallId: 'c2', messages: [], context: {} });
    assert.equal(again.ok, false);
    assert.equal(again.text, alreadyOpen(open.surfaceId));

    const fresh = taskSurfaceTools();
    const first: any = await fresh.show_task_surface.execute!({ model: sampleModel() }, { toolCallId: 'c1', messages: [], context: {} });
    const second: any = await fresh.show_task_surface.execute!({ model: sampleModel() }, { toolCallId: 'c2', messages: [], context: {} });
    assert.equal(first.ok, true);
    assert.equal(second.ok, false);
    // The first show concluded the request's turn, as on the Host (the kit's surface.second-in-one-response).
    assert.equal(second.text, TURN_CONCLUDED_TEXT);
  });

  it('two calls in one step: one opens, the other is refused, and the turn still ends', async () => {
    const both = [...showStep(sampleModel(), 'call_1').slice(0, 1), ...showStep(sampleModel(), 'call_2')];
    const model = scriptedModel(both, textParts('never'));
    const messages = await respond([userText('pick')], model);
    assert.equal(model.doStreamCalls.length, 1);
    assert.deepEqual(
      showPart(messages).map((p) => p.output.ok),
      [true, false],
    );
    assert.equal(foldTaskSurface(messages).open?.callId, 'call_1');
  });

  it('code-only mode refuses with the spec text', async () => {
    const tools = taskSurfaceTools({ toolMode: 'code' });
    const out: any = await tools.show_task_surface.execute!({ model: sampleModel() }, { toolCallId: 'c', messages: [], context: {} });
    assert.equal(out.ok, false);
    assert.equal(
      out.text,
      'show_task_surface cannot be called from code: a nested call cannot carry its panel to the conversation. Call it directly as a tool.',
    );
  });

  it('larger limits travel in the output, so the page renders what was accepted', async () => {
    const tools = taskSurfaceTools({ limits: { fields: 40 } });
    const out: any = await tools.show_task_surface.execute!({ model: sampleModel() }, { toolCallId: 'c', messages: [], context: {} });
    assert.equal(out.limits.fields, 40);
  });
});

describe("taskSurfaceTools({ tools }): the app's own tools in the request's turn", () => {
  it('runs them in the model order, and not after a show in the same response', async () => {
    let ran = 0;
    const lookup = tool({
      description: 'Looks something up.',
      inputSchema: jsonSchema<Record<string, never>>({ type: 'object', properties: {} }),
      execute: async () => `found ${++ran}`,
    });
    const before = [
      ...toolCallParts('lookup', {}, 'c0').slice(0, 1),
      ...toolCallParts('show_task_surface', { model: sampleModel() }, 'c1').slice(0, 1),
      ...toolCallParts('lookup', {}, 'c2'),
    ];
    const result = streamText({
      model: scriptedModel(before, textParts('never')),
      messages: [{ role: 'user', content: 'plan' }],
      tools: taskSurfaceTools({ messages: [userText('plan')], tools: { lookup } }),
      stopWhen: [isStepCount(5), taskSurfaceStopWhen],
    });
    const [step] = await result.steps;
    assert.equal(ran, 1, 'the call before the show ran, the one after it did not');
    const after = step!.content.find((part) => part.type === 'tool-error' && part.toolCallId === 'c2') as { error: Error } | undefined;
    assert.equal(after?.error.message, TURN_CONCLUDED_TEXT);
  });
});
