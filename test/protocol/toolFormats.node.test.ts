// The one tool definition as each model API takes it, and the errors a Host raises at its edge as a
// host developer (or a transport answering a client) reads them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HostInputError, UnknownSessionError } from '../../protocol/hostApi.js';
import { showTaskSurfaceTool } from '../../protocol/index.js';
import { toAnthropicTool, toMcpTool, toOpenAITool, type ToolDefinition } from '../../protocol/tool.js';

const tool: ToolDefinition = { name: 'pick_date', description: 'Ask for a date.', inputSchema: { type: 'object', required: ['day'] } };

describe('tool formats', () => {
  it('OpenAI: a function tool whose parameters are the input schema', () => {
    assert.deepEqual(toOpenAITool(tool), {
      type: 'function',
      function: { name: 'pick_date', description: 'Ask for a date.', parameters: { type: 'object', required: ['day'] } },
    });
  });

  it('Anthropic: input_schema', () => {
    assert.deepEqual(toAnthropicTool(tool), {
      name: 'pick_date',
      description: 'Ask for a date.',
      input_schema: { type: 'object', required: ['day'] },
    });
  });

  it('MCP: inputSchema', () => {
    assert.deepEqual(toMcpTool(tool), {
      name: 'pick_date',
      description: 'Ask for a date.',
      inputSchema: { type: 'object', required: ['day'] },
    });
  });

  it('all three carry the same show_task_surface definition, byte for byte', () => {
    const { name, description, inputSchema } = showTaskSurfaceTool;
    const same = JSON.stringify({ name, description, schema: inputSchema });
    const openai = toOpenAITool(showTaskSurfaceTool).function;
    const anthropic = toAnthropicTool(showTaskSurfaceTool);
    const mcp = toMcpTool(showTaskSurfaceTool);
    assert.equal(JSON.stringify({ name: openai.name, description: openai.description, schema: openai.parameters }), same);
    assert.equal(JSON.stringify({ name: anthropic.name, description: anthropic.description, schema: anthropic.input_schema }), same);
    assert.equal(JSON.stringify({ name: mcp.name, description: mcp.description, schema: mcp.inputSchema }), same);
  });
});

describe('host edge errors', () => {
  it('HostInputError names the operation and the worded issues', () => {
    const issues = [
      { path: ['limit'], message: 'limit must be at most 500' },
      { path: [], message: 'Invalid input' },
    ];
    const error = new HostInputError('readLog', issues);
    assert.equal(error.name, 'HostInputError');
    assert.equal(error.message, 'readLog: invalid input: limit: limit must be at most 500; Invalid input');
    assert.equal(String(error), 'HostInputError: readLog: invalid input: limit: limit must be at most 500; Invalid input');
    assert.equal(error.operation, 'readLog');
    assert.equal(error.issues, issues);
    assert.ok(error instanceof Error);
  });

  it('UnknownSessionError names the session', () => {
    const error = new UnknownSessionError('s-42');
    assert.equal(String(error), 'UnknownSessionError: unknown session s-42');
    assert.equal(error.sessionId, 's-42');
  });
});
