// The docs site: the playground: its link (the cases are in test/docs-site/cases.ts; one small file each, within
// the runner's per-file time limit).
import { describe } from 'node:test';
import { playgroundCases } from '../docs-site/cases.js';
import { docsSuite } from '../docs-site/harness.js';

const site = docsSuite();
describe('the docs site: the playground: its link', { timeout: 50_000 }, () => {
  playgroundCases(site, 'link');
});
