import { copyFileSync, mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { build } from 'esbuild';

/** Static files copied as they are. */
const STATIC = ['demo/page/index.html', 'demo/page/app.css', 'demo/embed/embed-plain.html', 'demo/embed/embed-react.html'];

/**
 * Builds the demo page, the embedding examples and the drop-in element bundle into `outdir`
 * (ES modules, split chunks, lit's production build, minified). Takes about a second.
 */
export async function buildDemo(outdir = 'dist/demo'): Promise<string> {
  mkdirSync(outdir, { recursive: true });
  await build({
    entryPoints: {
      'app': 'demo/page/main.ts',
      'task-surface': 'components/bundle.ts',
      'embed-plain': 'demo/embed/plain.js',
      'embed-react': 'demo/embed/react.jsx',
    },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    conditions: ['production'],
    define: { 'process.env.NODE_ENV': '"production"' },
    // The plain example imports the drop-in bundle by URL, as a page without a build step would.
    external: ['/assets/task-surface.js'],
    jsx: 'automatic',
    // The React example imports the package by name, as an app would; here that is the source.
    alias: { 'task-surface/components': './components/index.ts', 'task-surface/transport': './transport/index.ts' },
    minify: true,
    sourcemap: true,
    logLevel: 'warning',
  });
  for (const file of STATIC) copyFileSync(file, join(outdir, basename(file)));
  return outdir;
}
