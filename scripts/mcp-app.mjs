// The MCP app document (`ui://task-surface/panel`): mcp/app/panel.ts and everything it imports
// (lit, task-surface-view, markdown-it, the ext-apps App) as one inline module script in one HTML
// file, dist/mcp/panel.html. Nothing is fetched from any origin: no src, no href, no import().
// `node scripts/mcp-app.mjs` builds it; scripts/build.mjs, the tests and the bench call buildMcpApp.
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { rollup } from 'rollup';
import { browserPlugins } from '../rollup.config.mjs';

export const PANEL_FILE = 'dist/mcp/panel.html';

const STYLE = `:root{color-scheme:light dark}
:root[data-theme=light]{color-scheme:light}:root[data-theme=dark]{color-scheme:dark}
body{margin:0;padding:12px;font-family:var(--font-sans,system-ui,sans-serif);background:var(--color-background-primary,Canvas);color:var(--color-text-primary,CanvasText)}
task-surface-view{--task-surface-bg:var(--color-background-primary);--task-surface-fg:var(--color-text-primary);--task-surface-muted:var(--color-text-secondary);--task-surface-border:var(--color-border-primary);--task-surface-radius:var(--border-radius-md);--task-surface-font:var(--font-sans)}
.quiet{opacity:.75;margin:0}
h1{font-size:1.1em;margin:0 0 8px}
.outcome{margin-top:12px}.outcome p{margin:4px 0}#outcome:focus{outline:none}
button{font:inherit;padding:6px 14px;border-radius:var(--border-radius-md,6px);border:1px solid currentColor;background:transparent;color:inherit;cursor:pointer}
button.primary{background:#1d4ed8;border-color:#1d4ed8;color:#fff}
button:focus-visible{outline:2px solid #2563eb;outline-offset:2px}
button:disabled{opacity:.6;cursor:default}
.problem:empty{display:none}`;

/** The document around the bundled script (`<\/script` inside the code is escaped). */
function documentOf(code) {
  const script = code.replace(/<\/(script)/gi, '<\\/$1');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Task panel</title><style>${STYLE}</style></head>
<body><main></main><script type="module">${script}</script></body></html>
`;
}

/** Builds the app document into `file`; returns its size in bytes (raw and gzip). */
export async function buildMcpApp(file = PANEL_FILE) {
  const bundle = await rollup({
    input: 'mcp/app/panel.ts',
    plugins: browserPlugins(),
    onwarn(warning, warn) {
      if (!['CIRCULAR_DEPENDENCY', 'THIS_IS_UNDEFINED', 'INVALID_ANNOTATION'].includes(warning.code)) warn(warning);
    },
  });
  const { output } = await bundle.generate({ format: 'es', inlineDynamicImports: true });
  await bundle.close();
  const html = documentOf(output[0].code);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, html);
  return { bytes: Buffer.byteLength(html), gzip: gzipSync(html, { level: 9 }).length };
}

/** Whether the built document is older than any source it is made of (or missing). */
export function panelIsStale(file = PANEL_FILE) {
  if (!existsSync(file)) return true;
  const built = statSync(file).mtimeMs;
  return ['mcp', 'components', 'protocol', 'package-lock.json'].some((dir) =>
    statSync(dir).isFile()
      ? statSync(dir).mtimeMs > built
      : readdirSync(dir, { recursive: true }).some((f) => statSync(join(dir, f)).mtimeMs > built),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // `--if-missing` (npm run mcp): build only when the document is missing or older than its sources.
  if (process.argv.includes('--if-missing') && !panelIsStale()) process.exit(0);
  const { bytes, gzip } = await buildMcpApp();
  process.stderr.write(`${PANEL_FILE}: ${(bytes / 1024).toFixed(1)} KB, ${(gzip / 1024).toFixed(1)} KB gzip\n`);
}
