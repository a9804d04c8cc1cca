import { nodeResolve } from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import esbuild from 'rollup-plugin-esbuild';
import { browserPunycode, browserUcMicro, inertLinkify, smallEntities } from './scripts/browserShims.mjs';

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
    browserUcMicro,
    smallEntities,
    nodeResolve({ browser: true, exportConditions: ['production'] }),
    esbuild({ target: 'es2022', tsconfig: 'tsconfig.json' }),
    terser({ ecma: 2022, module: true, compress: { passes: 2 }, format: { comments: false } }),
  ],
};
