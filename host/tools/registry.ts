import type { SessionId, ToolDefinition, ToolMode } from '../../protocol/index.js';
import type { HostTool } from '../types.js';

/** The host's tools by name. A tool is advertised to a session by its mode and its `when`. */
export class ToolRegistry {
  readonly #tools = new Map<string, HostTool>();

  register(tool: HostTool): () => void {
    const name = tool.definition.name;
    if (this.#tools.has(name)) throw new Error(`a tool named ${name} is already registered`);
    this.#tools.set(name, tool);
    return () => {
      if (this.#tools.get(name) === tool) this.#tools.delete(name);
    };
  }

  get(name: string): HostTool | undefined {
    return this.#tools.get(name);
  }

  /** A tool offered only under a condition (`when`): its arrival is announced to the model. */
  isConditional(name: string): boolean {
    return this.#tools.get(name)?.when !== undefined;
  }

  /** Whether `tool` is offered to this session's agent now. A throwing `when` hides the tool. */
  isAdvertised(tool: HostTool, toolMode: ToolMode, ctx: { sessionId: SessionId; agent: 'root' | 'subagent' }): boolean {
    if (!tool.modes.includes(toolMode)) return false;
    try {
      return tool.when?.(ctx) ?? true;
    } catch {
      return false;
    }
  }

  /** The definitions to send, in registration order (stable, so the request prefix is stable). */
  advertised(toolMode: ToolMode, ctx: { sessionId: SessionId; agent: 'root' | 'subagent' }): ToolDefinition[] {
    return [...this.#tools.values()].filter((t) => this.isAdvertised(t, toolMode, ctx)).map((t) => t.definition);
  }
}
