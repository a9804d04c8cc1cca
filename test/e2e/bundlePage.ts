// A page's module bundled in memory as demo/ai-sdk and the demo's embed pages are built (React,
// the package from source by its public names, its lazily loaded modules as chunks): for the tests
// that run the docs' page blocks as written.
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const checkout = fileURLToPath(new URL('../..', import.meta.url));

/** `contents` (a `jsx` or `tsx` module) bundled: `page.js` and its chunks, by file name. */
export async function bundlePage(contents: string, loader: 'jsx' | 'tsx', alias: Record<string, string>): Promise<Map<string, string>> {
  const result = await build({
    stdin: { contents, loader, resolveDir: checkout, sourcefile: `page.${loader}` },
    bundle: true,
    splitting: true,
    outdir: 'assets',
    entryNames: 'page',
    chunkNames: 'chunk-[hash]',
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    conditions: ['production'],
    define: { 'process.env.NODE_ENV': '"production"' },
    jsx: 'automatic',
    alias,
    write: false,
    logLevel: 'silent',
  });
  return new Map(result.outputFiles.map((file) => [basename(file.path), file.text]));
}
