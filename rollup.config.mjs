import { nodeResolve } from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import esbuild from 'rollup-plugin-esbuild';
import { browserPunycode, browserUcMicro, inertLinkify, smallEntities } from './scripts/browserShims.mjs';

/** protocol modules the entry itself uses: they build no schema (see "manualChunks" below). */
const ZOD_FREE_PROTOCOL = /\/protocol\/(mint|limitDefaults|wireConstants|utf8|tool|locale|format)\.ts$/;

/**
 * zod and every schema of the protocol go to one chunk, `schemas`, which the ws client's checks,
 * the transcript row's parser and the card bodies share: one larger file compresses better than the
 * four pieces rollup would cut by who imports what (1 KB gzip in all). The entry module and the
 * zod-free protocol modules it uses are named as the entry's own chunk, so that the schemas chunk
 * does not pull them in (rollup puts a manual chunk's dependencies into it) and the entry still
 * imports nothing statically.
 */
function manualChunks(id) {
  if (id.endsWith('/components/bundle.ts') || ZOD_FREE_PROTOCOL.test(id)) return 'task-surface';
  if (/\/node_modules\/zod\//.test(id) || /\/protocol\//.test(id)) return 'schemas';
  return undefined;
}

/** The browser build's plugins (markdown-it's shims, lit's production build, minified); the MCP app document uses them too. */
export const browserPlugins = () => [
  inertLinkify,
  browserPunycode,
  browserUcMicro,
  smallEntities,
  nodeResolve({ browser: true, exportConditions: ['production'] }),
  esbuild({ target: 'es2022', tsconfig: 'tsconfig.json' }),
  terser({ ecma: 2022, module: true, compress: { passes: 2 }, format: { comments: false } }),
];

/**
 * The drop-in browser bundle: the entry `dist/task-surface.js` defines every custom element and
 * exports the browser transports; what only some pages need (markdown-it, the diff library, card bodies) is
 * split into `dist/chunks/`, which the entry imports with `import()` relative to its own URL.
 */
export default {
  input: 'components/bundle.ts',
  // The entry may export more than the page's import needs: the chunks import lit from it.
  preserveEntrySignatures: 'allow-extension',
  output: {
    dir: 'dist',
    format: 'es',
    sourcemap: true,
    entryFileNames: 'task-surface.js',
    chunkFileNames: 'chunks/[name]-[hash].js',
    manualChunks,
  },
  plugins: browserPlugins(),
};
