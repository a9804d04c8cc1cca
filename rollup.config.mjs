import { nodeResolve } from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import esbuild from 'rollup-plugin-esbuild';

/**
 * markdown-it always constructs a LinkifyIt, but only calls it when `linkify: true`, which the
 * markdown policy never sets. Swapping in an inert class keeps ~11 KB of URL grammar out of the
 * bundle; test/components/markdown.test.ts checks that bare URLs stay text (linkify off).
 */
const inertLinkify = {
  name: 'inert-linkify-it',
  resolveId: (id) => (id === 'linkify-it' ? '\0inert-linkify-it' : null),
  load: (id) =>
    id === '\0inert-linkify-it'
      ? 'export class LinkifyIt { test() { return false; } match() { return null; } matchAtStart() { return null; } }'
      : null,
};

/**
 * markdown-it turns a link's host into ASCII with punycode.js (and back, for an autolink's text).
 * In a browser the URL parser does the first (`new URL()` applies the same IDNA mapping; a host it
 * refuses throws, which markdown-it catches as it does punycode's errors), and an autolink's text
 * keeps the host as written in ASCII (`xn--…`), which is also the form that shows a look-alike host.
 * Saves ~1 KB gzip; test/e2e/bundle.e2e.ts checks an internationalised link in the built bundle.
 */
const browserPunycode = {
  name: 'browser-punycode',
  resolveId: (id) => (id === 'punycode.js' ? '\0browser-punycode' : null),
  load: (id) =>
    id === '\0browser-punycode'
      ? 'export default { toASCII: (host) => new URL(`http://${host}/`).hostname, toUnicode: (host) => host };'
      : null,
};

/**
 * The drop-in browser bundle: the entry `dist/task-surface.js` defines every custom element and
 * exports the browser transports; what only some pages need (markdown-it, the diff library, card bodies) is
 * split into `dist/chunks/`, which the entry imports with `import()` relative to its own URL.
 */
export default {
  input: 'components/bundle.ts',
  // The entry may export more than the page's import needs: the chunks import lit and zod from it.
  preserveEntrySignatures: 'allow-extension',
  output: {
    dir: 'dist',
    format: 'es',
    sourcemap: true,
    entryFileNames: 'task-surface.js',
    chunkFileNames: 'chunks/[name]-[hash].js',
  },
  plugins: [
    inertLinkify,
    browserPunycode,
    nodeResolve({ browser: true, exportConditions: ['production'] }),
    esbuild({ target: 'es2022', tsconfig: 'tsconfig.json' }),
    terser({ ecma: 2022, module: true, compress: { passes: 2 }, format: { comments: false } }),
  ],
};
