import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/*
 * The app document (`ui://task-surface/panel`) is built by the package's build into
 * `dist/mcp/panel.html`; this module finds it both from the built package (`dist/lib/mcp/`) and
 * from a checkout running the sources (`mcp/`).
 */
const CANDIDATES = ['../../mcp/panel.html', '../dist/mcp/panel.html'];

/** Where the built app document is, or null when it has not been built. */
export function panelDocumentPath(): string | null {
  for (const candidate of CANDIDATES) {
    const path = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(path)) return path;
  }
  return null;
}

/** The app document's HTML. Throws, saying how to build it, when it is missing. */
export function readPanelDocument(): string {
  const path = panelDocumentPath();
  if (path === null) throw new Error('the MCP app document dist/mcp/panel.html is missing: run `npm run build` first');
  return readFileSync(path, 'utf8');
}
