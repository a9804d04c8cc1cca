#!/usr/bin/env node
// `task-surface-mcp`: the Task Surface MCP server on stdio (see docs/mcp.md).
//   --data-dir <dir>   where answered panels are remembered (default: $TASK_SURFACE_DATA_DIR, else ~/.task-surface)
//   --memory           remember nothing across restarts
//   several processes may share one data folder: each reads and answers every panel
//   DATABASE_URL=postgres://…  panels in PostgreSQL, shared with every process on it: schema
//                      <$DATABASE_SCHEMA or $TASK_SURFACE_PG_SCHEMA, default public>_mcp, as `npm start`'s /mcp
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
  const databaseUrl = process.env['DATABASE_URL'] || undefined;
  const databaseSchema = process.env['DATABASE_SCHEMA'] || process.env['TASK_SURFACE_PG_SCHEMA'] || undefined;
  const server = await startStdioServer({
    dataDir,
    ...(databaseUrl ? { databaseUrl } : {}),
    ...(databaseSchema ? { databaseSchema } : {}),
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void server.close().then(() => process.exit(0)));
} catch (error) {
  process.stderr.write(`task-surface-mcp: ${(error as Error).message}\n`);
  process.exit(1);
}
