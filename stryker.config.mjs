// Mutation testing (`npm run mutate`; not part of `npm test`). See docs/mutation.md for why the TAP
// runner, the scope, and the survivors written down as equivalent.
import { GROUPS } from './scripts/mutate.mjs';

const name = process.env.MUTATE_NAME ?? 'mutation';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  // The rule-bearing code (what users, models and operators rely on): the groups of scripts/mutate.mjs.
  mutate: Object.values(GROUPS).flatMap((group) => group.mutate),
  testRunner: 'tap',
  tap: {
    // Each node test file is one run (its own process); coverage per file picks the files a mutant can meet.
    // MUTATE_TEST_FILES (comma-separated globs) narrows them; scripts/mutate.mjs sets it per group.
    testFiles: process.env.MUTATE_TEST_FILES?.split(',') ?? [
      ...new Set(Object.values(GROUPS).flatMap((group) => group.tests.map((t) => (t.endsWith('.ts') ? t : `${t}/*.node.test.ts`)))),
    ],
    nodeArgs: ['-r', '{{hookFile}}', '--import', 'tsx', '--import', './scripts/testTimeout.mjs', '{{testFile}}'],
  },
  coverageAnalysis: 'perTest',
  // Module-level mutants would rerun every test file for each: too slow for two shared cores.
  ignoreStatic: true,
  incremental: true,
  // MUTATE_NAME keeps a one-folder run's results apart from the whole scope's (its own incremental
  // file and report), so runs over different folders do not forget each other's mutants.
  incrementalFile: `reports/mutation/${name}-incremental.json`,
  concurrency: 1,
  timeoutMS: 20_000,
  reporters: ['clear-text', 'html', 'json', 'progress-append-only'],
  htmlReporter: { fileName: `reports/mutation/${name}.html` },
  jsonReporter: { fileName: `reports/mutation/${name}.json` },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  tempDirName: 'reports/.stryker-tmp',
  cleanTempDir: true,
  thresholds: { high: 90, low: 80, break: null },
};
