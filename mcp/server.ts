import { RESOURCE_MIME_TYPE, registerAppResource, registerAppTool } from '@modelcontextprotocol/ext-apps/server';
import {
  fromJsonSchema,
  McpServer,
  type CallToolResult,
  type JsonSchemaType,
  type JsonSchemaValidator,
  type jsonSchemaValidator,
} from '@modelcontextprotocol/server';
import { createMemoryStore } from '../host/store/memory.js';
import type { SessionLogStore } from '../host/store/types.js';
import { SHOW_TASK_SURFACE, showTaskSurfaceTool, type TaskSurfaceLimitsInput, type ToolMode } from '../protocol/index.js';
import { ANSWER_TOOL_ANNOTATIONS, handleAnswerCall, shownText, taskSurfaceAnswerTool } from './answerTool.js';
import { answerWithoutApps, clientCapabilities, supportsApps } from './fallbacks.js';
import { PANEL_URI, VIEW_TOOL } from './constants.js';
import { createPanelLedger, type PanelLedger } from './ledger.js';
import { handleViewCall, VIEW_TOOL_INPUT_SCHEMA } from './viewTool.js';

export { PANEL_URI };

/** The app document declares no origin at all: it loads nothing and connects nowhere. */
export const PANEL_CSP = { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] };

export interface TaskSurfaceMcpServerOptions {
  /** The app document's HTML (see `readPanelDocument` in `task-surface/mcp/node`). */
  appHtml: string;
  /**
   * Where panels are remembered (answered or not). Share one ledger between the servers of one
   * process (Streamable HTTP builds a server per request). Default: a ledger over `store`.
   */
  ledger?: PanelLedger;
  /** The store of a ledger made here. Default: in memory (answers are forgotten on restart). */
  store?: SessionLogStore;
  limits?: TaskSurfaceLimitsInput;
  /** `code`: show_task_surface is not advertised, and a call is refused with the Host's text. */
  toolMode?: ToolMode;
  /**
   * How long a call waits for the person to answer an elicitation form (a client without MCP Apps,
   * 2025 era); then the call fails with a timeout, and the wait is released. Default 10 minutes.
   * A closed session releases its waits at once, whatever this is.
   */
  elicitationTimeoutMs?: number;
  name?: string;
  version?: string;
}

const text = (t: string): CallToolResult['content'] => [{ type: 'text', text: t }];

/** Our JSON Schema goes out as it is; the Host's parser checks the call and names every issue. */
const passThrough: jsonSchemaValidator = {
  getValidator<T>(): JsonSchemaValidator<T> {
    return (data) => ({ valid: true, data: data as T, errorMessage: undefined });
  },
};
const schemaOf = (schema: object) => fromJsonSchema(schema as JsonSchemaType, passThrough);

/**
 * An MCP server with `show_task_surface` as an MCP App (`ui://task-surface/panel`), its app-only
 * view tool, and the elicitation and text fallbacks for hosts without apps.
 */
export function createTaskSurfaceMcpServer(options: TaskSurfaceMcpServerOptions): McpServer {
  const toolMode = options.toolMode ?? 'native';
  const ledger =
    options.ledger ??
    createPanelLedger({
      store: options.store ?? createMemoryStore(),
      toolMode,
      ...(options.limits ? { limits: options.limits } : {}),
    });
  const server = new McpServer(
    { name: options.name ?? 'task-surface', version: options.version ?? '0.1.0' },
    { capabilities: { tools: { listChanged: false }, resources: {} } },
  );
  const toolMeta = { ui: { resourceUri: PANEL_URI } };
  const viewMeta = { ui: { resourceUri: PANEL_URI, visibility: ['app'] } };

  registerAppTool(
    server,
    SHOW_TASK_SURFACE,
    { description: showTaskSurfaceTool.description, inputSchema: schemaOf(showTaskSurfaceTool.inputSchema), _meta: toolMeta },
    async (args, ctx): Promise<CallToolResult> => {
      const capabilities = clientCapabilities(server, ctx);
      const apps = supportsApps(capabilities);
      // Code-only mode refuses the call here too when the ledger was made elsewhere (and shared).
      const shown = await ledger.show(args, toolMode === 'code' ? 'code' : 'model', { record: apps });
      if (!shown.ok) return { isError: true, content: text(shown.content) };
      if (!apps) return answerWithoutApps(shown.model, capabilities, ctx, ledger.limits, options.elicitationTimeoutMs);
      return {
        content: text(shownText(shown.viewId, shown.model.title)),
        structuredContent: { surfaceId: shown.surfaceId, model: shown.model },
        _meta: { viewUUID: shown.viewId },
      };
    },
  );
  registerAppTool(
    server,
    VIEW_TOOL,
    {
      description: "The Task Surface panel's own state (answered or not); called by the panel, not by the model.",
      inputSchema: schemaOf(VIEW_TOOL_INPUT_SCHEMA),
      _meta: viewMeta,
    },
    (args) => handleViewCall(ledger, args),
  );
  server.registerTool(
    taskSurfaceAnswerTool.name,
    {
      description: taskSurfaceAnswerTool.description,
      inputSchema: schemaOf(taskSurfaceAnswerTool.inputSchema),
      annotations: ANSWER_TOOL_ANNOTATIONS,
    },
    (args) => handleAnswerCall(ledger, args),
  );

  // tools/list carries the project's JSON Schema object itself (the SDK's own listing would copy it),
  // and leaves show_task_surface out in code-only mode.
  server.server.removeRequestHandler('tools/list');
  server.server.setRequestHandler('tools/list', () => ({
    tools: [
      ...(toolMode === 'code'
        ? []
        : [
            {
              name: SHOW_TASK_SURFACE,
              description: showTaskSurfaceTool.description,
              inputSchema: showTaskSurfaceTool.inputSchema,
              _meta: toolMeta,
            },
          ]),
      ...(toolMode === 'code' ? [] : [{ ...taskSurfaceAnswerTool, annotations: ANSWER_TOOL_ANNOTATIONS }]),
      {
        name: VIEW_TOOL,
        description: 'The Task Surface panel state (for the panel itself).',
        inputSchema: VIEW_TOOL_INPUT_SCHEMA,
        _meta: viewMeta,
      },
    ] as never,
  }));

  registerAppResource(
    server,
    'Task Surface panel',
    PANEL_URI,
    {
      description: 'The panel show_task_surface opens: one self-contained document.',
      _meta: { ui: { csp: PANEL_CSP, prefersBorder: true } },
    },
    (uri) => ({
      contents: [
        { uri: uri.href, mimeType: RESOURCE_MIME_TYPE, text: options.appHtml, _meta: { ui: { csp: PANEL_CSP, prefersBorder: true } } },
      ],
    }),
  );
  return server;
}
