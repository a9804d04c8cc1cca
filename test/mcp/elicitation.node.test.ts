// The elicitation form uses only the shapes every client renders (Codex renders no number, integer
// or multi-select enum field): a string, a boolean, a single-select string enum with titles. A
// multi-choice becomes one toggle per option and comes back as the field's list.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { elicitationOf, optionKey, valuesOfElicitation } from '../../mcp/elicitation.js';
import { parseTaskSurfaceModel, resolveLimits, validateSubmission, type TaskSurfaceModelV1 } from '../../protocol/index.js';

const model: TaskSurfaceModelV1 = {
  version: 1,
  title: 'Trip',
  sections: [],
  fields: [
    { kind: 'text', id: 'why', label: 'Why', required: true },
    { kind: 'toggle', id: 'train', label: 'By train' },
    {
      kind: 'choice',
      id: 'place',
      label: 'Where',
      options: [
        { id: 'coast', label: 'Coast' },
        { id: 'hills', label: 'Hills' },
      ],
    },
    {
      kind: 'multi-choice',
      id: 'food',
      label: 'Food',
      options: [
        { id: 'fish', label: 'Fish' },
        { id: 'figs', label: 'Figs' },
        { id: 'rice', label: 'Rice' },
      ],
      initial: ['rice'],
    },
  ],
  submit: { label: 'Go' },
};

const parsed = parseTaskSurfaceModel(model);
assert.ok(parsed.ok);

/** A property every client documented renders: a string, a boolean, or a string with titled single-select options. */
function rendersEverywhere(schema: Record<string, unknown>): boolean {
  const keys = Object.keys(schema).sort().join(',');
  if (schema['type'] === 'boolean') return ['default,title,type', 'title,type'].includes(keys);
  if (schema['type'] !== 'string') return false;
  if (!('oneOf' in schema)) return ['default,title,type', 'title,type'].includes(keys);
  const options = schema['oneOf'] as Record<string, unknown>[];
  return options.every((o) => typeof o['const'] === 'string' && typeof o['title'] === 'string' && Object.keys(o).length === 2);
}

test('every field is a string, a boolean or a titled single-select string enum: no number, integer or array', () => {
  const form = elicitationOf(parsed.model)!;
  const properties = form.requestedSchema.properties as Record<string, Record<string, unknown>>;
  for (const [key, schema] of Object.entries(properties)) assert.ok(rendersEverywhere(schema), `${key}: ${JSON.stringify(schema)}`);
  assert.deepEqual(Object.keys(properties), ['why', 'train', 'place', 'food/fish', 'food/figs', 'food/rice']);
  assert.deepEqual(properties[optionKey('food', 'rice')], { type: 'boolean', title: 'Food: Rice', default: true });
  assert.deepEqual(form.requestedSchema.required, ['why']);
});

test("a multi-choice's toggles come back as the field's list, in option order, and pass the panel's check", () => {
  const content = { why: 'sun', train: true, place: 'hills', [optionKey('food', 'figs')]: true, [optionKey('food', 'fish')]: true };
  const values = valuesOfElicitation(parsed.model, content);
  assert.deepEqual(values['food'], ['fish', 'figs', 'rice'], 'an option left out keeps its initial state');
  const cleared = valuesOfElicitation(parsed.model, { why: 'x', [optionKey('food', 'rice')]: false });
  assert.deepEqual(cleared['food'], []);
  assert.deepEqual(
    valuesOfElicitation(parsed.model, { why: 'x', [optionKey('food', 'fish')]: 'yes' })['food'],
    ['rice'],
    'not a boolean: not chosen',
  );
  const valid = validateSubmission(parsed.model, { values }, resolveLimits());
  assert.ok(valid.ok);
});
