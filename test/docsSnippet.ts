/*
 * Runs a block of the docs as written (test/docsFences.ts finds it): a prelude gives it the names its
 * page says are the app's own, its `task-surface/*` imports point at this checkout's source, and an
 * epilogue exports what it made, for the test to look at. Nothing between is changed.
 */
import { importSnippet } from './conformance/snippet.js';
import { fence } from './docsFences.js';

/** Each public subpath a block may import, as this checkout's source. */
const SOURCE: Record<string, string> = {
  'task-surface/host': '../host/index.js',
  'task-surface/host/sqlite': '../host/store/sqlite.js',
  'task-surface/host/postgres': '../host/store/postgres/index.js',
  'task-surface/protocol': '../protocol/index.js',
  'task-surface/transport/server': '../transport/ws/server.js',
  'task-surface/transport/cluster': '../transport/cluster/index.js',
  'task-surface/agents/openai': '../agents/openai.js',
};

/** A module specifier of this checkout for `path` (from the repository's root, e.g. `host/index.js`). */
export const source = (path: string): string => JSON.stringify(new URL(`../${path}`, import.meta.url).href);

/** The block `key` as a module: `prelude`, the block with its package imports pointed here, `epilogue`. */
export async function runFence<T>(key: string, prelude: string, epilogue = ''): Promise<T> {
  // A commented-out import (`// or: import …`) stays as written.
  const code = fence(key)
    .code.split('\n')
    .map((line) =>
      line.trimStart().startsWith('//')
        ? line
        : line
            .replace(/from '(task-surface\/[\w/-]+)';/g, (_, specifier: string) => {
              const path = SOURCE[specifier];
              if (path === undefined) throw new Error(`${key}: imports '${specifier}', which test/docsSnippet.ts does not map`);
              return `from ${JSON.stringify(new URL(path, import.meta.url).href)};`;
            })
            // A dependency the app has too (the block's module lives outside this checkout's node_modules).
            .replace(/from '(pg)';/g, (_, specifier: string) => `from ${JSON.stringify(import.meta.resolve(specifier))};`),
    )
    .join('\n');
  return importSnippet<T>(`${prelude}\n${code}\n${epilogue}\n`);
}
