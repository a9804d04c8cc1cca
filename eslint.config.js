// ESLint: typescript-eslint's recommended rules, Lit's and the web-components plugin's, for every
// source folder. Formatting is Prettier's (`npm run format`), not ESLint's.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import lit from 'eslint-plugin-lit';
import wc from 'eslint-plugin-wc';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist/**', '.data/**', 'custom-elements.json', 'node_modules/**'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  lit.configs['flat/recommended'],
  wc.configs['flat/recommended'],
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      // `interface HTMLElementEventMap extends …Map {}` is how a global event map is augmented.
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['test/**'],
    languageOptions: { globals: { ...globals.mocha } },
    rules: {
      // Tests read provider frames, fakes and internals loosely typed on purpose.
      '@typescript-eslint/no-explicit-any': 'off',
      // A focused test runs alone in Mocha (the browser suites) and hides every other one; a skipped one
      // says why (`{ skip: 'why' }`, `t.skip('why')`, Mocha's `this.skip()` after a comment).
      'no-restricted-properties': [
        'error',
        ...['it', 'describe', 'test', 'suite', 'context'].flatMap((object) => [
          { object, property: 'only', message: 'a focused test hides the rest of the suite: remove .only before committing' },
          { object, property: 'skip', message: "say why it is skipped: { skip: 'why' } or t.skip('why')" },
        ]),
      ],
    },
  },
);
