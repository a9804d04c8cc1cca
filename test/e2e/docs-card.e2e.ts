// The docs site: the action-card page (the cases are in test/docs-site/cases.ts; one small file each, within
// the runner's per-file time limit).
import { describe } from 'node:test';
import { elementPageCases } from '../docs-site/cases.js';
import { docsSuite } from '../docs-site/harness.js';

const site = docsSuite();
describe('the docs site: the action-card page', { timeout: 50_000 }, () => {
  elementPageCases(site, ['action-card']);
});
