import type { TaskSurfaceModelV1 } from '../../protocol/index.js';

/** A small model with one block of every kind and one field of every kind. */
export const everyKindModel: TaskSurfaceModelV1 = {
  version: 1,
  title: 'Pick a release plan',
  description: 'Compare the options and tell the agent what to do.',
  sections: [
    {
      id: 'overview',
      title: 'Overview',
      layout: { kind: 'grid', columns: 2 },
      blocks: [
        { kind: 'markdown', text: 'Two **options** are ready. See [the notes](https://example.com/notes).' },
        {
          kind: 'metrics',
          items: [
            { label: 'Open bugs', value: '12', detail: '3 critical' },
            { label: 'Coverage', value: '84%' },
          ],
        },
      ],
    },
    {
      id: 'details',
      blocks: [
        {
          kind: 'table',
          columns: [
            { id: 'name', label: 'Name' },
            { id: 'size', label: 'Size' },
            { id: 'ok', label: 'Passing' },
            { id: 'note', label: 'Note' },
          ],
          rows: [
            { name: 'core', size: 1200.5, ok: true, note: null },
            { name: 'ui', size: 80, ok: false, note: 'flaky' },
          ],
        },
        {
          kind: 'diff',
          path: 'src/app.ts',
          language: 'typescript',
          before: 'const a = 1;\nconst b = 2;\n',
          after: 'const a = 1;\nconst b = 3;\n',
        },
        { kind: 'diff', path: 'README.md', before: null, after: '# New\n' },
        { kind: 'notice', tone: 'warning', text: 'Shipping on Friday is risky.' },
        { kind: 'notice', tone: 'info', text: 'Staging is green.' },
        { kind: 'notice', tone: 'neutral', text: 'Nothing else changed.' },
      ],
    },
  ],
  fields: [
    { kind: 'text', id: 'name', label: 'Release name', required: true },
    { kind: 'text', id: 'notes', label: 'Notes', multiline: true, initial: 'none' },
    {
      kind: 'choice',
      id: 'plan',
      label: 'Plan',
      options: [
        { id: 'a', label: 'Ship now', detail: 'Today' },
        { id: 'b', label: 'Wait' },
        { id: 'c', label: 'Cancel' },
      ],
    },
    {
      kind: 'multi-choice',
      id: 'targets',
      label: 'Targets',
      options: [
        { id: 'web', label: 'Web' },
        { id: 'ios', label: 'iOS' },
        { id: 'android', label: 'Android' },
      ],
      initial: ['web'],
    },
    { kind: 'toggle', id: 'notify', label: 'Notify the team', initial: false },
    {
      kind: 'order',
      id: 'steps',
      label: 'Step order',
      options: [
        { id: 'build', label: 'Build' },
        { id: 'test', label: 'Test' },
        { id: 'deploy', label: 'Deploy' },
      ],
    },
  ],
  submit: { label: 'Send plan' },
};

/** The limits' maximum: 64 blocks (one a 200-row table) and 32 fields. */
export function maximalModel(): TaskSurfaceModelV1 {
  const rows = Array.from({ length: 200 }, (_, i) => ({
    id: `r${i}`,
    name: `Item ${i}`,
    qty: i * 3,
    ok: i % 2 === 0,
    note: i % 7 ? `note ${i}` : null,
  }));
  const blocks: TaskSurfaceModelV1['sections'][number]['blocks'] = [
    {
      kind: 'table',
      columns: [
        { id: 'id', label: 'Id' },
        { id: 'name', label: 'Name' },
        { id: 'qty', label: 'Quantity' },
        { id: 'ok', label: 'OK' },
        { id: 'note', label: 'Note' },
      ],
      rows,
    },
  ];
  for (let i = 1; i < 64; i++) {
    const k = i % 4;
    if (k === 0)
      blocks.push({
        kind: 'markdown',
        text: `### Part ${i}\n\nSome *text* with a [link](https://example.com/${i}) and \`code\`.\n\n- one\n- two`,
      });
    else if (k === 1)
      blocks.push({
        kind: 'metrics',
        items: [
          { label: 'A', value: String(i) },
          { label: 'B', value: `${i}%`, detail: 'up' },
        ],
      });
    else if (k === 2) blocks.push({ kind: 'notice', tone: i % 3 === 0 ? 'warning' : 'info', text: `Notice ${i}` });
    else blocks.push({ kind: 'diff', path: `src/f${i}.ts`, before: `a\nb\nc${i}\n`, after: `a\nb\nd${i}\n` });
  }
  const options = [
    { id: 'x', label: 'X' },
    { id: 'y', label: 'Y' },
    { id: 'z', label: 'Z' },
  ];
  const fields: NonNullable<TaskSurfaceModelV1['fields']> = [];
  for (let i = 0; i < 32; i++) {
    const k = i % 5;
    if (k === 0) fields.push({ kind: 'text', id: `t${i}`, label: `Text ${i}` });
    else if (k === 1) fields.push({ kind: 'choice', id: `c${i}`, label: `Choice ${i}`, options });
    else if (k === 2) fields.push({ kind: 'multi-choice', id: `m${i}`, label: `Multi ${i}`, options });
    else if (k === 3) fields.push({ kind: 'toggle', id: `g${i}`, label: `Toggle ${i}` });
    else fields.push({ kind: 'order', id: `o${i}`, label: `Order ${i}`, options });
  }
  return {
    version: 1,
    title: 'Maximal model',
    description: 'Every limit at its maximum.',
    sections: [
      { id: 'one', title: 'Data', blocks: blocks.slice(0, 32) },
      { id: 'two', title: 'More', layout: { kind: 'grid', columns: 2 }, blocks: blocks.slice(32) },
    ],
    fields,
    submit: { label: 'Submit' },
  };
}
