// Builds dist/lib (ESM per file), dist/types (declarations) and dist/task-surface.js (the bundle's
// entry) with its lazily loaded dist/chunks/, then checks the two gzip budgets (entry, everything); then writes custom-elements.json (Custom Elements Manifest
// analyzer, from the elements' JSDoc) and builds the demo page into dist/demo.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { buildMcpApp, PANEL_FILE } from './mcp-app.mjs';

/**
 * gzip budgets: the entry a page loads first, and the entry with every chunk a page in one language
 * may load (95 KB before Spanish, German, Japanese and Arabic shipped: their card labels and the
 * largest of their tables, which a page loads only for the language it shows, took it to 100 KB;
 * Chinese loads the same way since, so English is the only table in the entry).
 */
const ENTRY_BUDGET_GZIP = 46 * 1024;
const TOTAL_BUDGET_GZIP = 100 * 1024;
/** The chrome tables that load on first use, one per language (`components/i18n/{zh,es,de,ja,ar}.ts`). */
const LOCALE_CHUNK = /^chunks\/(zh|es|de|ja|ar)-[\w-]+\.js$/;
const layers = ['protocol', 'machines', 'host', 'agents', 'transport', 'components', 'mcp', 'ai-sdk', 'ag-ui', 'conformance'];

function run(command, args) {
  const { status } = spawnSync(command, args, { stdio: 'inherit' });
  if (status !== 0) process.exit(status ?? 1);
}

rmSync('dist', { recursive: true, force: true });
const entryPoints = layers
  .flatMap((layer) => readdirSync(layer, { recursive: true }).map((f) => `${layer}/${f}`))
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
await build({
  entryPoints,
  outdir: 'dist/lib',
  outbase: '.',
  format: 'esm',
  target: 'es2022',
  platform: 'neutral',
  sourcemap: true,
  logLevel: 'warning',
});
run('node', ['node_modules/typescript-native/bin/tsc', '-p', 'tsconfig.build.json']); // TypeScript 7 (see scripts/test.mjs)
run('npx', ['rollup', '-c', '--silent']);

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const sizes = [
  'task-surface.js',
  ...readdirSync('dist/chunks')
    .filter((f) => f.endsWith('.js'))
    .map((f) => `chunks/${f}`),
].map((file) => {
  const bytes = readFileSync(`dist/${file}`);
  return { file, min: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
});
for (const { file, min, gzip } of sizes) console.log(`dist/${file}: ${kb(min)} min, ${kb(gzip)} gzip`);
// What a page loads first: the entry and any chunk it imports statically (none today; a chunk it
// imported that way would be fetched by every page, so it counts as the entry).
const staticChunks = [
  ...readFileSync('dist/task-surface.js', 'utf8').matchAll(/(?:^|[;}])import\s*(?:[^;"'()]*?from\s*)?["']\.\/(chunks\/[^"']+)["']/g),
].map((m) => m[1]);
const entry = sizes.filter((s) => s.file === 'task-surface.js' || staticChunks.includes(s.file)).reduce((sum, s) => sum + s.gzip, 0);
if (staticChunks.length > 0) console.log(`the entry imports ${staticChunks.join(', ')} statically: counted as the entry`);
// One language's table counts (the largest): a page shows one language at a time.
const largestLocale = Math.max(0, ...sizes.filter((s) => LOCALE_CHUNK.test(s.file)).map((s) => s.gzip));
const total = sizes.filter((s) => !LOCALE_CHUNK.test(s.file)).reduce((sum, s) => sum + s.gzip, 0) + largestLocale;
console.log(
  `bundle: entry ${kb(entry)} gzip (budget ${kb(ENTRY_BUDGET_GZIP)}), with every chunk of one language ${kb(total)} gzip (budget ${kb(TOTAL_BUDGET_GZIP)})`,
);
if (entry > ENTRY_BUDGET_GZIP) {
  console.error(
    `bundle entry dist/task-surface.js over budget by ${kb(entry - ENTRY_BUDGET_GZIP)} (aim: at most ${kb(ENTRY_BUDGET_GZIP)} gzip)`,
  );
  process.exit(1);
}
if (total > TOTAL_BUDGET_GZIP) {
  console.error(`bundle with every chunk over budget by ${kb(total - TOTAL_BUDGET_GZIP)} (aim: at most ${kb(TOTAL_BUDGET_GZIP)} gzip)`);
  process.exit(1);
}

// custom-elements.json: each element's properties, attributes, events, parts, slots and CSS
// properties, read from its class JSDoc (@fires, @csspart, @cssproperty, @slot).
run('npx', [
  'cem',
  'analyze',
  '--globs',
  'components/**/*.ts',
  '--exclude',
  'components/**/*.styles.ts',
  '--litelement',
  '--quiet',
  '--outdir',
  '.',
]);
const manifest = JSON.parse(readFileSync('custom-elements.json', 'utf8'));
const tags = manifest.modules.flatMap((m) => (m.declarations ?? []).filter((d) => d.customElement).map((d) => d.tagName));
const missing = ['task-surface-dock', 'task-surface-toolview', 'task-surface-view', 'action-card'].filter((t) => !tags.includes(t));
if (missing.length > 0) {
  console.error(`custom-elements.json lacks ${missing.join(', ')}`);
  process.exit(1);
}
console.log(`custom-elements.json: ${tags.length} elements (${tags.join(', ')})`);

const panel = await buildMcpApp();
console.log(`${PANEL_FILE}: the MCP app document, ${kb(panel.bytes)}, ${kb(panel.gzip)} gzip`);

// tsx as a file URL (scripts/test.mjs says why a bare `--import tsx` fails on a loaded machine).
run('node', [
  '--import',
  import.meta.resolve('tsx'),
  '--input-type=module',
  '-e',
  "const { buildDemo } = await import('./demo/build.ts'); await buildDemo('dist/demo');",
]);
console.log('dist/demo: demo page built');
