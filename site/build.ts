// `npm run docs`: builds the docs site into dist/docs/ with esbuild (the bundler the demo page
// already uses): one hashed script and style sheet for every page, a static HTML shell per page
// with its navigation, the elements' API taken from custom-elements.json, and docs/rules.md and the
// specs copied verbatim for the markdown element to render. No CDN, no inline script: the pages
// run offline under the demo's strict CSP and Trusted Types.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { extractApi, type Manifest } from './apiData.js';
import { SITE_PAGES, type SitePage } from './pages.js';

const MANIFEST = 'custom-elements.json';

/** The Custom Elements Manifest, generated (as `npm run build` does) when missing or older than a component. */
function manifest(): Manifest {
  const newest = Math.max(
    ...readdirSync('components', { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.ts'))
      .map((f) => statSync(join('components', f)).mtimeMs),
  );
  if (!existsSync(MANIFEST) || statSync(MANIFEST).mtimeMs < newest) {
    const args = ['cem', 'analyze', '--globs', 'components/**/*.ts', '--exclude', 'components/**/*.styles.ts', '--litelement', '--quiet'];
    const { status } = spawnSync('npx', [...args, '--outdir', '.'], { stdio: 'inherit' });
    if (status !== 0) throw new Error('the Custom Elements Manifest analyzer failed');
  }
  return JSON.parse(readFileSync(MANIFEST, 'utf8')) as Manifest;
}

const escape = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** A page's HTML shell: its title and navigation are static; the script fills `main`. */
function pageHtml(page: SitePage, script: string, style: string): string {
  const nav = SITE_PAGES.map(
    (p) =>
      `<li><a href="./${p.file === 'index.html' ? '' : p.file}"${p === page ? ' aria-current="page"' : ''}>${escape(p.title)}</a></li>`,
  ).join('');
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${escape(page.title)} · task-surface docs</title>
    <link rel="icon" href="data:," />
    <link rel="stylesheet" href="./assets/${style}" />
    <script type="module" src="./assets/${script}"></script>
  </head>
  <body data-page="${page.file}">
    <a class="skip" href="#main">Skip to content</a>
    <header class="top"><a class="brand" href="./">task-surface docs</a><div id="controls"></div></header>
    <div class="layout">
      <nav aria-label="Docs"><ul>${nav}</ul></nav>
      <main id="main" tabindex="-1"><h1>${escape(page.title)}</h1><p class="loading">Loading the live examples…</p></main>
    </div>
  </body>
</html>
`;
}

/**
 * Builds the site into `outdir` (default dist/docs) and returns it. About two seconds; the
 * package's own bundle and its budgets are untouched (the site has its own files).
 */
export async function buildDocs(outdir = 'dist/docs'): Promise<string> {
  const api = extractApi(manifest());
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(join(outdir, 'data'), { recursive: true });
  const result = await build({
    entryPoints: { docs: 'site/main.ts', site: 'site/site.css' },
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    outdir: join(outdir, 'assets'),
    bundle: true,
    splitting: true,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    conditions: ['production'],
    define: { 'process.env.NODE_ENV': '"production"' },
    minify: true,
    sourcemap: true,
    metafile: true,
    logLevel: 'warning',
  });
  const entry = (name: string, ext: string) => {
    const out = Object.entries(result.metafile.outputs).find(
      ([file, meta]) => meta.entryPoint && basename(file).startsWith(`${name}-`) && file.endsWith(ext),
    );
    if (!out) throw new Error(`esbuild wrote no ${name}${ext}`);
    return basename(out[0]);
  };
  const script = entry('docs', '.js');
  const style = entry('site', '.css');
  for (const page of SITE_PAGES) writeFileSync(join(outdir, page.file), pageHtml(page, script, style));
  writeFileSync(join(outdir, 'data', 'api.json'), JSON.stringify(api));
  // The documents, byte for byte: the site renders them with <task-surface-markdown>.
  for (const page of SITE_PAGES.filter((p) => p.kind === 'markdown')) {
    const target = join(outdir, 'data', page.subject!);
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(join('docs', page.subject!), target);
  }
  return outdir;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const out = await buildDocs(process.argv[2] || undefined);
  console.log(`${out}: the docs site (${SITE_PAGES.length} pages); npm start serves it at /docs/`);
}
