// The docs site: Japanese and Arabic (right to left) (the cases are in test/docs-site/cases.ts; one small file each, within
// the runner's per-file time limit).
import { describe } from 'node:test';
import { languagesCase } from '../docs-site/cases.js';
import { docsSuite } from '../docs-site/harness.js';

const site = docsSuite();
describe('the docs site: Japanese and Arabic (right to left)', { timeout: 50_000 }, () => {
  languagesCase(site, ['ja', 'ar']);
});
