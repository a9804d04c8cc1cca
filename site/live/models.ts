/* The models the docs' examples and the playground show: the demo agent's panels, and a few more. */
import { compare, plan, review } from '../../demo/agent/scenarios.js';
import { settings } from '../../demo/agent/settings.js';
import { everyKindModel, maximalModel } from '../../fixtures/models.js';
import type { TaskSurfaceModelV1 } from '../../protocol/index.js';

export { everyKindModel };

/** A short panel whose answer is valid as it opens (one choice made, one optional text). */
export const pickPlan = (): TaskSurfaceModelV1 => ({
  version: 1,
  title: 'Pick a rollout plan',
  description: 'The agent waits for your choice before it changes anything.',
  sections: [{ id: 'context', blocks: [{ kind: 'markdown', text: 'Plan **B** is cheaper; plan **A** is faster to undo.' }] }],
  fields: [
    {
      kind: 'choice',
      id: 'plan',
      label: 'Plan',
      options: [
        { id: 'a', label: 'Plan A', detail: 'blue-green' },
        { id: 'b', label: 'Plan B', detail: 'in place' },
      ],
      initial: 'b',
    },
    { kind: 'text', id: 'why', label: 'Why (optional)' },
  ],
  submit: { label: 'Use this plan' },
});

/** A 200-row table (the default limit; the largest model's): the renderer shows the first rows and a button for the rest. */
export const bigTable = (): TaskSurfaceModelV1 => ({
  version: 1,
  title: 'Services to restart',
  sections: [{ id: 'services', blocks: [maximalModel().sections[0]!.blocks[0]!] }],
  fields: [{ kind: 'toggle', id: 'restart', label: 'Restart the unhealthy ones', initial: true }],
  submit: { label: 'Go' },
});

/** The review panel: a diff (TypeScript), a notice, toggles and a comment. */
export const reviewModel = (): TaskSurfaceModelV1 => review.model.en;

/** A model with mistakes an agent makes: the playground shows the issues the agent would read. */
export const badModel = () => ({
  version: 1,
  title: '',
  sections: [{ id: 'intro', blocks: [{ kind: 'markdwn', text: 'Typo in the kind' }] }],
  fields: [
    { kind: 'choice', id: 'env', label: 'Environment', options: [] },
    { kind: 'toggle', id: 'env', label: 'Duplicate id' },
  ],
  submit: {},
});

/** The playground's examples, by name. */
export const PLAYGROUND_EXAMPLES: Record<string, { label: string; model: () => unknown }> = {
  compare: { label: 'Compare databases (choice, text, table, metrics)', model: () => compare.model.en },
  plan: { label: 'Launch plan (order, grid layout)', model: () => plan.model.en },
  review: { label: 'Review a change (diff, toggles)', model: reviewModel },
  settings: { label: 'Notification settings (multi-choice, toggles)', model: () => settings.model.en },
  every: { label: 'Every block and field kind', model: everyKindModel },
  table: { label: 'The big table (200 rows)', model: bigTable },
  bad: { label: 'A model with mistakes', model: badModel },
};
