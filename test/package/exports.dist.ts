// The package as a user installs it: after `npm run build`, a throwaway project whose
// node_modules/task-surface links to this repository imports every subpath of package.json
// `exports` from dist/, type-checks with the root typescript (5.9, what most users run; strict,
// NodeNext) and runs the node-safe ones.
// Run by `npm test` after the build step (`node scripts/test.mjs exports`).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';

const root = fileURLToPath(new URL('../../', import.meta.url));
const consumerDir = fileURLToPath(new URL('./consumer/', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, string | { types?: string; default: string }>;
  files: string[];
};
const sources = ['node.ts', 'browser.ts'].map((f) => readFileSync(join(consumerDir, f), 'utf8'));
const importedSubpaths = new Set(sources.flatMap((code) => [...code.matchAll(/from 'task-surface\/([^']+)'/g)].map((m) => `./${m[1]}`)));
let project = '';

function run(command: string, args: string[]) {
  const { status, stdout, stderr } = spawnSync(command, args, { cwd: project, encoding: 'utf8' });
  return { status, output: `${stdout}${stderr}` };
}

describe('the built package, as a user imports it', () => {
  before(() => {
    assert.ok(existsSync(join(root, 'dist/lib')), 'dist/ is missing: run `npm run build` first');
    project = mkdtempSync(join(tmpdir(), 'task-surface-user-'));
    mkdirSync(join(project, 'node_modules'));
    symlinkSync(root, join(project, 'node_modules/task-surface'), 'dir');
    for (const dep of ['ws', 'pg', '@types']) symlinkSync(join(root, 'node_modules', dep), join(project, 'node_modules', dep), 'dir');
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'user', private: true, type: 'module' }));
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2023', 'DOM', 'DOM.Iterable'],
          strict: true,
          noUncheckedIndexedAccess: true,
          skipLibCheck: false,
          resolveJsonModule: true,
          types: ['node'],
          outDir: 'out',
          rootDir: '.',
        },
        include: ['node.ts', 'browser.ts'],
      }),
    );
    for (const f of ['node.ts', 'browser.ts']) copyFileSync(join(consumerDir, f), join(project, f));
  });
  after(() => rmSync(project, { recursive: true, force: true }));

  it('every subpath of package.json exports is imported by the user project', () => {
    assert.deepEqual([...importedSubpaths].sort(), Object.keys(pkg.exports).sort());
  });

  it('every exports target exists after the build and is in the published files', () => {
    for (const [subpath, target] of Object.entries(pkg.exports)) {
      for (const file of typeof target === 'string' ? [target] : [target.default, target.types ?? '']) {
        assert.ok(file !== '', `${subpath} has types`);
        assert.ok(existsSync(join(root, file)), `${subpath}: ${file} exists`);
        assert.ok(
          pkg.files.some((f) => file.slice(2) === f || file.slice(2).startsWith(`${f}/`)),
          `${subpath}: ${file} is published`,
        );
      }
    }
  });

  it('type-checks with tsc (strict, NodeNext, library declarations checked)', () => {
    const { status, output } = run(join(root, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json']);
    // Errors inside other packages' declarations (an SDK's missing @types) are theirs, not ours.
    const ours = output
      .split('\n')
      .filter((line) => /error TS/.test(line) && !(line.includes('/node_modules/') && !line.includes('node_modules/task-surface/')));
    assert.deepEqual(ours, []);
    assert.ok(status === 0 || output.includes('/node_modules/'), output);
  });

  it('runs on Node: host, stores, both transports, instanceof TransportError, agents, ai-sdk, ag-ui, conformance', () => {
    const { status, output } = run(process.execPath, ['out/node.js']);
    assert.equal(status, 0, output);
    assert.match(output, /consumer: 13 checks passed/);
  });
});
