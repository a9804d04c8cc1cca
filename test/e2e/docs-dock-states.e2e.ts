// The docs site: the Dock's states from the Host (the cases are in test/docs-site/cases.ts; one small file each, within
// the runner's per-file time limit).
import { describe } from 'node:test';
import { dockStatesCase } from '../docs-site/cases.js';
import { docsSuite } from '../docs-site/harness.js';

const site = docsSuite();
describe("the docs site: the Dock's states from the Host", { timeout: 50_000 }, () => {
  dockStatesCase(site);
});
