/*
 * A snippet of the docs, run as written: read from its page, written to a module of its own and
 * imported. Node-only. Only package specifiers change (the module lives outside the package).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The first ` ```ts ` block after `heading` in the Markdown file at `url`, as written there. */
export function snippetOf(url: URL, heading: string): string {
  const page = readFileSync(url, 'utf8');
  const at = page.indexOf(heading);
  if (at < 0) throw new Error(`${url.pathname} has no "${heading}"`);
  const match = /```ts\n([\s\S]*?)```/.exec(page.slice(at));
  if (!match) throw new Error(`${url.pathname} has no ts snippet under "${heading}"`);
  return match[1]!;
}

/**
 * Imports `code` as a module. `.mts`: outside this package a `.ts` file would load as CommonJS, with
 * its own copies of the modules it imports (another formatter registry than the test's).
 */
export async function importSnippet<T>(code: string): Promise<T> {
  const file = join(mkdtempSync(join(tmpdir(), 'task-surface-snippet-')), 'snippet.mts');
  writeFileSync(file, code);
  return (await import(pathToFileURL(file).href)) as T;
}

/** `code` with each `from '<specifier>'` of `specifiers` pointed at the given URL. */
export function pointImports(code: string, specifiers: Record<string, string>): string {
  let out = code;
  for (const [specifier, url] of Object.entries(specifiers)) {
    const from = `from '${specifier}';`;
    if (!out.includes(from)) throw new Error(`the snippet does not import '${specifier}'`);
    out = out.split(from).join(`from ${JSON.stringify(url)};`);
  }
  return out;
}
