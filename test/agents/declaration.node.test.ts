// The lean show_task_surface declaration: what a model sees is enough to get a valid model on the
// first try, every rule it states is enforced by the host parser, and the three exported formats
// (OpenAI, Anthropic, MCP) come from one source, pinned by snapshots.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import {
  parseShowTaskSurfaceArgs,
  showTaskSurfaceTool,
  toAnthropicTool,
  toMcpTool,
  toOpenAITool,
  type JsonValue,
} from '../../protocol/index.js';
import { compare, plan, review } from '../../demo/agent/scenarios.js';
import { PROPOSE_ACTION_DEFINITION, skillDefinition } from '../../host/actionCards/tools.js';
import { DEFAULT_SYSTEM_PROMPT } from '../../host/prompt.js';
import { modelCalls } from './fixtures/modelCalls.js';
import { schemaErrors } from './jsonSchema.js';

const schema = showTaskSurfaceTool.inputSchema as Record<string, any>;

describe('first-try validity of the lean declaration', () => {
  it('every fixture call a model wrote from the declaration parses on the first try', () => {
    const valid = modelCalls.filter(({ args }) => parseShowTaskSurfaceArgs(JSON.parse(args) as JsonValue).ok);
    assert.equal(`${valid.length}/${modelCalls.length}`, `${modelCalls.length}/${modelCalls.length}`);
    for (const { task, args } of modelCalls) assert.deepEqual(schemaErrors(schema, JSON.parse(args)), [], task);
  });

  it('the advertised schema accepts every model the demo shows (it is never stricter than the parser)', () => {
    for (const scenario of [compare, plan, review]) {
      for (const model of Object.values(scenario.model)) assert.deepEqual(schemaErrors(schema, { model }), [], scenario.name);
    }
  });

  const base = () => JSON.parse(modelCalls[1]!.args).model;
  const broken: [string, (m: any) => void][] = [
    [
      'No keys beyond the schema',
      (m) => {
        m.theme = 'dark';
      },
    ],
    [
      'labels, titles, texts not blank',
      (m) => {
        m.title = '   ';
      },
    ],
    [
      'at least one block or field',
      (m) => {
        m.fields = [];
      },
    ],
    [
      'ids unique (sections + fields',
      (m) => {
        m.sections = [{ id: 'steps', blocks: [{ kind: 'markdown', text: 'x' }] }];
      },
    ],
    [
      'options per field',
      (m) => {
        m.fields[0].options.push({ id: 'qa', label: 'Again' });
      },
    ],
    [
      'initials use option ids',
      (m) => {
        m.fields[0].initial = ['QA pass'];
      },
    ],
    [
      'text without multiline: no line breaks',
      (m) => {
        m.fields[1] = { kind: 'text', id: 'n', label: 'N', initial: 'a\nb' };
      },
    ],
    [
      'row keys are column ids',
      (m) => {
        m.sections = [{ id: 't', blocks: [{ kind: 'table', columns: [{ id: 'a', label: 'A' }], rows: [{ b: 1 }] }] }];
      },
    ],
    [
      'max 64 blocks',
      (m) => {
        m.sections = [{ id: 't', blocks: Array.from({ length: 65 }, () => ({ kind: 'markdown', text: 'x' })) }];
      },
    ],
    [
      '32 fields',
      (m) => {
        m.fields = Array.from({ length: 33 }, (_, i) => ({ kind: 'toggle', id: `f${i}`, label: 'F' }));
      },
    ],
    [
      '200 rows per table',
      (m) => {
        m.sections = [
          { id: 't', blocks: [{ kind: 'table', columns: [{ id: 'a', label: 'A' }], rows: Array.from({ length: 201 }, () => ({ a: 1 })) }] },
        ];
      },
    ],
  ];
  for (const [rule, breakIt] of broken) {
    it(`states "${rule}" and the parser enforces it`, () => {
      assert.ok(showTaskSurfaceTool.description.includes(rule), 'the description says it');
      const model = base();
      assert.ok(parseShowTaskSurfaceArgs({ model }).ok, 'the unbroken model is valid');
      breakIt(model);
      const parsed = parseShowTaskSurfaceArgs({ model });
      assert.equal(parsed.ok, false);
    });
  }
});

describe('tool definitions for OpenAI, Anthropic and MCP', () => {
  const tools = [
    showTaskSurfaceTool,
    skillDefinition([{ name: 'create-page', purpose: 'Offer to save an answer as a page.' }]),
    PROPOSE_ACTION_DEFINITION,
  ];
  for (const [format, convert] of [
    ['openai', toOpenAITool],
    ['anthropic', toAnthropicTool],
    ['mcp', toMcpTool],
  ] as const) {
    it(`${format}: matches the pinned snapshot (UPDATE_SNAPSHOTS=1 rewrites it)`, () => {
      const file = new URL(`./fixtures/tools.${format}.json`, import.meta.url);
      const text = `${JSON.stringify(
        tools.map((t) => convert(t)),
        null,
        2,
      )}\n`;
      if (process.env.UPDATE_SNAPSHOTS === '1') writeFileSync(file, text);
      assert.equal(text, readFileSync(file, 'utf8'));
    });
  }

  it('all three carry the same name, description and schema', () => {
    const o = toOpenAITool(showTaskSurfaceTool);
    const a = toAnthropicTool(showTaskSurfaceTool);
    const m = toMcpTool(showTaskSurfaceTool);
    assert.equal(o.function.parameters, a.input_schema);
    assert.equal(a.input_schema, m.inputSchema);
    assert.deepEqual([o.function.name, a.name, m.name], ['show_task_surface', 'show_task_surface', 'show_task_surface']);
  });

  it('sizes: the declaration is at most 3,000 characters; the default system prompt is short', () => {
    assert.ok(JSON.stringify(showTaskSurfaceTool).length <= 3000);
    assert.ok(DEFAULT_SYSTEM_PROMPT.length <= 2500, `${DEFAULT_SYSTEM_PROMPT.length}`);
  });
});

describe('the default system prompt', () => {
  it('follows the spec: when all of the conditions hold, the exclusions, that the call ends the turn, how the answer comes back', () => {
    for (const phrase of [
      /when all of these hold/,
      /belongs to this conversation and the current task/,
      /fits the panel's blocks/,
      /no background work and no new access or authority/,
      /the user's submitted answer, not the panel itself/,
      /short question that blocks you/,
      /plain explanation/,
      /ends your turn/,
      /arrives as their next message/,
      /reply in words/,
      /Only one panel/,
      /user asks for a panel/,
    ]) {
      assert.match(DEFAULT_SYSTEM_PROMPT, phrase);
    }
  });
});
