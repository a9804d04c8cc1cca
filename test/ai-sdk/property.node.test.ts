// Any sequence the checks accept folds to at most one open surface and at most one message per
// submissionId, however shows, submissions (valid, invalid, stale, repeated), dismissals and
// ordinary messages interleave.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { UIMessage } from 'ai';
import {
  checkTaskSurfaceMessage,
  dismissTaskSurface,
  foldTaskSurface,
  taskSurfaceSubmissionMessage,
  taskSurfaceTools,
} from '../../ai-sdk/index.js';
import { sampleModel } from './helpers.js';

type Step =
  | { kind: 'show'; twice: boolean }
  | { kind: 'submit'; submissionId: string; target: 'open' | 'old'; valid: boolean }
  | { kind: 'message' }
  | { kind: 'resend' }
  | { kind: 'dismiss'; dismissalId: string };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('show' as const), twice: fc.boolean() }),
  fc.record({
    kind: fc.constant('submit' as const),
    submissionId: fc.constantFrom('s1', 's2', 's3'),
    target: fc.constantFrom('open' as const, 'old' as const),
    valid: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('message' as const) }),
  fc.record({ kind: fc.constant('resend' as const) }),
  fc.record({ kind: fc.constant('dismiss' as const), dismissalId: fc.constantFrom('d1', 'd2') }),
);

async function run(steps: Step[]): Promise<UIMessage[]> {
  let messages: UIMessage[] = [];
  let n = 0;
  const surfaces: string[] = [];
  let lastSent: unknown;
  const admit = (incoming: unknown) => {
    lastSent = incoming;
    const check = checkTaskSurfaceMessage(messages, incoming);
    if (check.accepted) messages = check.messages;
  };
  for (const s of steps) {
    if (s.kind === 'show') {
      const tools = taskSurfaceTools({ messages });
      const parts = [];
      for (let i = 0; i < (s.twice ? 2 : 1); i++) {
        const toolCallId = `c${++n}`;
        const output: any = await tools.show_task_surface.execute!({ model: sampleModel() }, { toolCallId, messages: [], context: {} });
        if (output.ok) surfaces.push(output.surfaceId);
        parts.push({ type: 'tool-show_task_surface', toolCallId, state: 'output-available', input: {}, output });
      }
      messages = [...messages, { id: `a${++n}`, role: 'assistant', parts } as UIMessage];
    } else if (s.kind === 'submit') {
      const surfaceId = s.target === 'open' ? (foldTaskSurface(messages).open?.surfaceId ?? 'ts_none') : (surfaces[0] ?? 'ts_none');
      const open = foldTaskSurface(messages).open;
      const values: Record<string, string> = s.valid ? { plan: 'a', why: 'x' } : { plan: 'q' };
      const built = taskSurfaceSubmissionMessage(messages, { surfaceId, submissionId: s.submissionId, values }, `m${++n}`);
      const text = built.accepted && !built.repeated ? built.message.parts : [{ type: 'text', text: 'Pick a plan' }];
      const taskSurface = { version: 1, submissionId: s.submissionId, callId: open?.callId ?? 'c0', surfaceId, values };
      admit({ id: `m${n}`, role: 'user', parts: text, metadata: { taskSurface } });
    } else if (s.kind === 'message') {
      admit({ id: `u${++n}`, role: 'user', parts: [{ type: 'text', text: 'hello' }] });
    } else if (s.kind === 'resend') {
      if (lastSent) admit(lastSent);
    } else {
      const open = foldTaskSurface(messages).open;
      const result = dismissTaskSurface(messages, {
        surfaceId: open?.surfaceId ?? surfaces.at(-1) ?? 'ts_none',
        dismissalId: s.dismissalId,
      });
      if (result.dismissed) messages = result.messages;
    }
  }
  return messages;
}

it('the fold of any accepted sequence has at most one open surface and one message per submissionId', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(step, { maxLength: 24 }), async (steps) => {
      const messages = await run(steps);
      const state = foldTaskSurface(messages);
      const shown = messages
        .flatMap((m) => m.parts)
        .filter((p: any) => p.type === 'tool-show_task_surface' && p.output?.ok)
        .map((p: any) => p.output.surfaceId as string);
      assert.equal(new Set(shown).size, shown.length, 'a surfaceId is never minted twice');
      const closed = new Set<string>(state.closed.map((c) => c.surfaceId));
      assert.ok(shown.filter((id) => !closed.has(id)).length <= 1, 'at most one surface is open');
      assert.equal(
        state.open === null,
        shown.every((id) => closed.has(id)),
      );
      const submissions = messages.flatMap((m) => ((m.metadata as any)?.taskSurface ? [(m.metadata as any).taskSurface.submissionId] : []));
      assert.equal(new Set(submissions).size, submissions.length, 'one message per submissionId');
      assert.equal(new Set(messages.map((m) => m.id)).size, messages.length, 'no message twice');
    }),
    { numRuns: 300 },
  );
});
