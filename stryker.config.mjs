// Mutation testing (`npm run mutate`; not part of `npm test`). See docs/mutation.md for why the TAP
// runner, the scope, and the survivors written down as equivalent.
const name = process.env.MUTATE_NAME ?? 'mutation';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  // The rule-bearing code: what users, models and operators rely on.
  mutate: [
    'protocol/**/*.ts',
    'host/taskSurface/**/*.ts',
    'host/actionCards/**/*.ts',
    'host/scoped.ts',
    // createHost and the named parts it was split into (docs/host.md), with the quotas.
    'host/createHost.ts',
    'host/hostApi.ts',
    'host/lifecycle.ts',
    'host/liveInboxes.ts',
    'host/messages.ts',
    'host/unloading.ts',
    'host/limits/**/*.ts',
    'transport/ws/origin.ts',
    'transport/ws/connection.ts',
    'transport/ws/server.ts',
    'transport/ws/admission.ts',
    'demo/identity.ts',
    'components/drafts/**/*.ts',
  ],
  testRunner: 'tap',
  tap: {
    // Each node test file is one run (its own process); coverage per file picks the files a mutant can meet.
    // MUTATE_TEST_FILES (comma-separated globs) narrows them for a quick run over one folder.
    testFiles: process.env.MUTATE_TEST_FILES?.split(',') ?? [
      'test/protocol/**/*.node.test.ts',
      'test/host/**/*.node.test.ts',
      'test/action-cards/**/*.node.test.ts',
      // decide.ts is shared with the AI SDK integration, whose checks call it without the Host's reads.
      'test/ai-sdk/**/*.node.test.ts',
      'test/limits/**/*.node.test.ts',
      'test/transport/**/*.node.test.ts',
      'test/demo/identityCookie.node.test.ts',
      'test/components/*.node.test.ts',
      'test/machines/**/*.node.test.ts',
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
