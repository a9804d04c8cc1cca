// The docs site: the two specifications, rendered verbatim (the cases are in test/docs-site/cases.ts; one small file each, within
// the runner's per-file time limit).
import { describe } from 'node:test';
import { documentCases } from '../docs-site/cases.js';
import { docsSuite } from '../docs-site/harness.js';

const site = docsSuite();
describe('the docs site: the two specifications, rendered verbatim', { timeout: 50_000 }, () => {
  documentCases(site, ['spec-task-surface.html', 'spec-action-cards.html']);
});
