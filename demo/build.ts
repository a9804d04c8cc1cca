import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { build } from 'esbuild';

/** Pages copied with their `/assets/<entry>.js|css` references rewritten to the hashed names. */
const PAGES = ['demo/page/index.html', 'demo/embed/embed-plain.html', 'demo/embed/embed-react.html'];

const ENTRIES = {
  app: 'demo/page/main.ts',
  'app-style': 'demo/page/app.css',
  'task-surface': 'components/bundle.ts',
  'embed-plain': 'demo/embed/plain.js',
  'embed-react': 'demo/embed/react.jsx',
} as const;

/**
 * Builds the demo page, the embedding examples and the drop-in element bundle into `outdir`
 * (ES modules, split chunks, lit's production build, minified). Every file is named by its content
 * hash (`app-<hash>.js`, `chunk-<hash>.js`), so the server can cache it forever; the pages name the
 * hashed files. `task-surface.js` is also written under its stable name, the URL a page without a
 * build step imports. Takes about a second.
 */
export async function buildDemo(outdir = 'dist/demo'): Promise<string> {
  rmSync(outdir, { recursive: true, force: true }); // no stale hashed files from earlier builds
  mkdirSync(outdir, { recursive: true });
  const result = await build({
    entryPoints: ENTRIES,
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
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
    metafile: true,
    logLevel: 'warning',
  });
  // `/assets/app.js` → `/assets/app-<hash>.js`, from what esbuild wrote for each entry.
  const hashed = new Map<string, string>();
  const entryName = new Map<string, string>(Object.entries(ENTRIES).map(([name, source]) => [source, name]));
  for (const [output, meta] of Object.entries(result.metafile.outputs)) {
    const name = meta.entryPoint ? entryName.get(meta.entryPoint) : undefined;
    if (name && !output.endsWith('.map'))
      hashed.set(`${name.replace(/-style$/, '')}${output.slice(output.lastIndexOf('.'))}`, basename(output));
  }
  for (const page of PAGES) {
    const html = readFileSync(page, 'utf8').replace(/\/assets\/([\w-]+\.(?:js|css))\b/g, (ref, file: string) => {
      const target = hashed.get(file);
      if (!target) throw new Error(`${page}: ${ref} names no built entry`);
      return `/assets/${target}`;
    });
    writeFileSync(join(outdir, basename(page)), html);
  }
  copyFileSync(join(outdir, hashed.get('task-surface.js')!), join(outdir, 'task-surface.js'));
  return outdir;
}
