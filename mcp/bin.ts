#!/usr/bin/env node
// `task-surface-mcp`: the Task Surface MCP server on stdio (see docs/mcp.md).
//   --data-dir <dir>   where answered panels are remembered (default: $TASK_SURFACE_DATA_DIR, else ~/.task-surface)
//   --memory           remember nothing across restarts
import { homedir } from 'node:os';
import { join } from 'node:path';
import { startStdioServer } from './stdio.js';

const USAGE = 'usage: task-surface-mcp [--data-dir <dir>] [--memory]';
const args = process.argv.slice(2);
let dataDir: string | null = process.env['TASK_SURFACE_DATA_DIR'] || join(homedir(), '.task-surface');
for (let i = 0; i < args.length; i++) {
  const arg = args[i];
  if (arg === '--memory') dataDir = null;
  else if (arg === '--data-dir' && args[i + 1] !== undefined) dataDir = args[++i]!;
  else if (arg === '--help' || arg === '-h') {
    process.stderr.write(`${USAGE}\n`);
    process.exit(0);
  } else {
    process.stderr.write(`task-surface-mcp: unknown argument ${JSON.stringify(arg)}\n${USAGE}\n`);
    process.exit(2);
  }
}
try {
  const server = await startStdioServer({ dataDir });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void server.close().then(() => process.exit(0)));
} catch (error) {
  process.stderr.write(`task-surface-mcp: ${(error as Error).message}\n`);
  process.exit(1);
}
