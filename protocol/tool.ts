import type { JsonObject } from './json.js';

/** The tool's name: one stable definition for every model. */
export const SHOW_TASK_SURFACE = 'show_task_surface';

/** A tool as a model sees it. Serialised with JSON.stringify, it must be byte-stable. */
export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: JsonObject;
}

/** A tool as OpenAI Chat Completions takes it: a `function` tool whose `parameters` is the JSON Schema. */
export interface OpenAIToolDefinition {
  type: 'function';
  function: { name: string; description: string; parameters: JsonObject };
}

/** A tool as Anthropic Messages takes it. */
export interface AnthropicToolDefinition {
  name: string;
  description: string;
  input_schema: JsonObject;
}

/** A tool as an MCP server lists it (`tools/list`). */
export interface McpToolDefinition {
  name: string;
  description: string;
  inputSchema: JsonObject;
}

/** The same definition for OpenAI: one source, so the three formats never drift apart. */
export function toOpenAITool(tool: ToolDefinition): OpenAIToolDefinition {
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } };
}

/** The same definition for Anthropic (`input_schema`). */
export function toAnthropicTool(tool: ToolDefinition): AnthropicToolDefinition {
  return { name: tool.name, description: tool.description, input_schema: tool.inputSchema };
}

/** The same definition for MCP (`{ name, description, inputSchema }`). */
export function toMcpTool(tool: ToolDefinition): McpToolDefinition {
  return { name: tool.name, description: tool.description, inputSchema: tool.inputSchema };
}
