// The one function of the `diff` library the view uses, as its own module: the dynamic import of
// this file becomes a chunk holding only what `structuredPatch` needs.
export { structuredPatch } from 'diff/lib/patch/create.js';
