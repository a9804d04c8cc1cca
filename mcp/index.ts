export { createTaskSurfaceMcpServer, PANEL_CSP, PANEL_URI, type TaskSurfaceMcpServerOptions } from './server.js';
export { createPanelLedger, VIEW_TOOL, type PanelLedger, type PanelLedgerOptions, type PanelState, type ShowOutcome } from './ledger.js';
export { createMcpHttpHandler, MCP_REQUEST_RATES, type McpHttpHandler, type McpHttpOptions, type RequestRate } from './http.js';
export { panelDocumentPath, readPanelDocument } from './document.js';
export { elicitationOf, valuesOfElicitation } from './elicitation.js';
export { panelText } from './textForm.js';
export { startStdioServer, type StdioServerOptions } from './stdio.js';
