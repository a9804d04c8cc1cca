import { nodeResolve } from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import esbuild from 'rollup-plugin-esbuild';

/** The drop-in browser bundle: every custom element and the browser transports, dependencies inside. */
export default {
  input: 'components/bundle.ts',
  output: { file: 'dist/task-surface.js', format: 'es', sourcemap: true },
  plugins: [
    nodeResolve({ browser: true, exportConditions: ['production'] }),
    esbuild({ target: 'es2022', tsconfig: 'tsconfig.json' }),
    terser({ ecma: 2022, module: true, compress: { passes: 2 }, format: { comments: false } }),
  ],
};
