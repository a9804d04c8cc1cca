import type { JsonObject } from './json.js';

/** A tool as a model sees it. Serialised with JSON.stringify, it must be byte-stable. */
export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: JsonObject;
}
