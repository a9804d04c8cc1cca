// The docs site: serving at /docs/, the overview, copying by keyboard, the system theme (the cases are in test/docs-site/cases.ts; one small file each, within
// the runner's per-file time limit).
import { describe } from 'node:test';
import { copyCase, documentCases, serveCase, systemThemeCase } from '../docs-site/cases.js';
import { docsSuite } from '../docs-site/harness.js';

const site = docsSuite();
describe('the docs site: serving at /docs/, the overview, copying by keyboard, the system theme', { timeout: 50_000 }, () => {
  serveCase(site);
  systemThemeCase(site);
  documentCases(site, ['index.html']);
  copyCase(site);
});
