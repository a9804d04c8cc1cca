// The docs site: docs/rules.md, the mapping and the conformance table, rendered (the cases are in test/docs-site/cases.ts; one small file each, within
// the runner's per-file time limit).
import { describe } from 'node:test';
import { documentCases } from '../docs-site/cases.js';
import { docsSuite } from '../docs-site/harness.js';

const site = docsSuite();
describe('the docs site: docs/rules.md and the mapping, rendered', { timeout: 50_000 }, () => {
  documentCases(site, ['rules.html', 'spec-mapping.html', 'conformance.html']);
});
