/** The surface every turn of the load and scale benches shows: one choice, answered `{ pick: 'a' }`. */
export const BENCH_MODEL = {
  version: 1,
  title: 'Pick one',
  sections: [{ id: 's', blocks: [{ kind: 'markdown', text: 'Choose.' }] }],
  fields: [
    {
      kind: 'choice',
      id: 'pick',
      label: 'Pick',
      options: [
        { id: 'a', label: 'A' },
        { id: 'b', label: 'B' },
      ],
    },
  ],
  submit: { label: 'Send' },
};
