import type { JsonObject } from './json.js';
import type { ToolDefinition } from './tool.js';
import { SHOW_TASK_SURFACE } from './taskSurface.js';

/*
 * The one stable `show_task_surface` definition, as lean as a model can use: the rules JSON Schema
 * can say (strict objects, the id pattern, non-blank text, non-empty lists, the kinds) are in the
 * schema; the rest (unique ids, initials by option id, single-line text, limits) in one sentence
 * each of the description. The Host's parser stays strict and names every issue with its path.
 * Nothing here depends on a session, the configured limits or the time, so it serialises to the
 * same bytes in every call and process (pinned by test/protocol/show_task_surface.tool.json).
 */

const DESCRIPTION = [
  'Show the user a panel of content blocks and input fields. This ends your',
  'turn; the answer comes as the next user message or a plain reply. One panel at a time. No keys beyond',
  'the schema; labels, titles, texts not blank; at least one block or field; ids unique (sections + fields;',
  'options per field); initials use option ids; text without multiline: no line breaks; row keys are column',
  'ids; max 64 blocks, 32 fields, 200 rows per table.',
].join(' ');

const ref = (name: string) => ({ $ref: `#/$defs/${name}` });
// Strictness (no other keys) is one sentence of the description and the parser's job, not 20 repeats.
// Nested objects go without `type: 'object'`: `properties` says it, and every byte is sent on every request.
const obj = (required: string[], properties: Record<string, unknown>) => ({ properties, required });
const kind = (name: string) => ({ const: name });
const list = (items: unknown, minItems = 1) => (minItems > 0 ? { type: 'array', items, minItems } : { type: 'array', items });
const text = { type: 'string' };
const bool = { type: 'boolean' };

/** Built on first use only: a browser bundle that never advertises the tool drops all of it. */
function inputSchema(): JsonObject {
  const model = {
    type: 'object',
    ...obj(['version', 'title', 'sections', 'submit'], {
      version: { const: 1 },
      title: text,
      description: text,
      sections: list(
        obj(['id', 'blocks'], {
          id: ref('id'),
          title: text,
          layout: obj(['kind'], { kind: { enum: ['stack', 'grid'] }, columns: { description: 'grid only', enum: [2, 3] } }),
          blocks: list(ref('block')),
        }),
        0,
      ),
      fields: list(ref('field'), 0),
      submit: obj(['label'], { label: text }),
    }),
  };

  const schema = {
    type: 'object',
    ...obj(['model'], { model }),
    additionalProperties: false,
    $defs: {
      id: { type: 'string', pattern: '^[A-Za-z0-9][\\w.:-]{0,127}$' },
      options: list(obj(['id', 'label'], { id: ref('id'), label: text, detail: text })),
      block: {
        oneOf: [
          obj(['kind', 'text'], { kind: kind('markdown'), text }),
          obj(['kind', 'items'], {
            kind: kind('metrics'),
            items: list(obj(['label', 'value'], { label: text, value: text, detail: text })),
          }),
          obj(['kind', 'columns', 'rows'], {
            kind: kind('table'),
            columns: list(obj(['id', 'label'], { id: ref('id'), label: text })),
            rows: list({ type: 'object', additionalProperties: { type: ['string', 'number', 'boolean', 'null'] } }, 0),
          }),
          obj(['kind', 'before', 'after'], {
            kind: kind('diff'),
            path: text,
            before: { type: ['string', 'null'] },
            after: text,
            language: text,
          }),
          obj(['kind', 'tone', 'text'], { kind: kind('notice'), tone: { enum: ['neutral', 'info', 'warning'] }, text }),
        ],
      },
      // One object for the five field kinds (a oneOf of five costs 400 more characters); which keys go
      // with which kind is said in descriptions, and the parser names any key that does not belong.
      field: {
        description: 'options: choice, multi-choice, order only; multiline, required: text only',
        ...obj(['kind', 'id', 'label'], {
          kind: { enum: ['text', 'choice', 'multi-choice', 'toggle', 'order'] },
          id: ref('id'),
          label: text,
          options: ref('options'),
          multiline: bool,
          required: bool,
          initial: { description: 'text: string; toggle: boolean; choice: option id; multi-choice, order: option ids' },
        }),
      },
    },
  };
  return schema as JsonObject;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/** `show_task_surface` as advertised to the model: input `{ model: TaskSurfaceModelV1 }`. */
export const showTaskSurfaceTool: ToolDefinition = /* @__PURE__ */ deepFreeze({
  name: SHOW_TASK_SURFACE,
  description: DESCRIPTION,
  inputSchema: /* @__PURE__ */ inputSchema(),
});

/**
 * The plain result text of a successful call: what the model receives, and what a client that
 * cannot render the panel shows in its place.
 */
export function showTaskSurfaceResultText(surfaceId: string, title: string): string {
  return (
    `Task surface ${JSON.stringify(title)} (${surfaceId}) is now shown to the user; your turn ends here. ` +
    'Their answer will arrive as the next user message. If their client cannot show the panel, they can reply ' +
    'with an ordinary message instead, which closes the surface.'
  );
}
