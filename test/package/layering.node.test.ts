import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { PACKAGE_LAYERS, browserSafetyViolations, layeringViolations, repositoryViolations } from './layering.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

describe('layering', () => {
  it('every source file of the package, fixtures, bench and demo keeps the layering', () => {
    const { files, problems } = repositoryViolations(root);
    for (const layer of Object.keys(PACKAGE_LAYERS)) assert.ok(files[layer]! > 0, `${layer}/ has source files`);
    assert.deepEqual(problems, []);
  });

  it('catches a transport file that imports the host, however it imports it', () => {
    const ways = [
      "import type { Host } from '../host/types.js';",
      "import { type Host } from '../host/types.js';",
      "export type { Host } from '../host/types.js';",
      "export * from '../host/index.js';",
      "const host = await import('../host/index.js');",
      "let host: import('../host/types.js').Host;",
      'const host = await import(`../host/index.js`);',
    ];
    for (const code of ways) {
      const problems = layeringViolations('transport/local.ts', code);
      assert.equal(problems.length, 1, code);
      assert.match(problems[0]!, /transport\/ may not import host\//);
    }
  });

  it('lets each layer import the layers below it and refuses the ones above', () => {
    assert.deepEqual(
      layeringViolations('host/x.ts', "import { a } from '../machines/a.js'; import type { B } from '../protocol/b.js';"),
      [],
    );
    assert.deepEqual(layeringViolations('components/dock/x.ts', "import { t } from '../../transport/types.js';"), []);
    assert.equal(layeringViolations('protocol/x.ts', "import type { M } from '../machines/index.js';").length, 1);
    assert.equal(layeringViolations('machines/x.ts', "import type { H } from '../host/types.js';").length, 1);
    assert.equal(layeringViolations('host/x.ts', "import type { T } from '../transport/types.js';").length, 1);
    assert.equal(layeringViolations('components/x.ts', "import type { H } from '../host/types.js';").length, 1);
    assert.equal(layeringViolations('host/x.ts', "import { d } from '../agents/openai.js';").length, 1);
  });

  it('keeps the WebSocket server and the cluster apart but for the server-defined interface', () => {
    assert.match(
      layeringViolations('transport/ws/server.ts', "import { createSessionRouter } from '../cluster/routing.js';")[0]!,
      /transport\/ws\/ knows nothing of transport\/cluster\//,
    );
    assert.equal(layeringViolations('transport/ws/handler.ts', "import type { ClusterNode } from '../cluster/node.js';").length, 1);
    assert.match(
      layeringViolations('transport/cluster/routing.ts', "import type { ConnectionContext } from '../ws/handler.js';")[0]!,
      /only the interface the server defines/,
    );
    assert.deepEqual(layeringViolations('transport/cluster/routing.ts', "import type { SessionRouter } from '../ws/router.js';"), []);
    assert.deepEqual(layeringViolations('transport/ws/server.ts', "import type { WebSocketCluster } from './router.js';"), []);
  });

  it('refuses package imports of demo, bench, test, fixtures and the repository root', () => {
    for (const target of [
      '../demo/agent.js',
      '../bench/index.js',
      '../test/host/helpers.js',
      '../fixtures/models.js',
      '../rollup.config.mjs',
      '../../outside.js',
    ]) {
      const problems = layeringViolations('host/x.ts', `import '${target}';`);
      assert.equal(problems.length, 1, target);
    }
    assert.equal(layeringViolations('bench/suites/x.ts', "import { m } from '../../test/protocol/fixtures/models.js';").length, 1);
    assert.deepEqual(layeringViolations('bench/suites/x.ts', "import { m } from '../../fixtures/models.js';"), []);
    assert.equal(layeringViolations('demo/x.ts', "import { m } from '../test/host/helpers.js';").length, 1);
  });

  it('refuses what it cannot check and self-imports, and ignores comments and strings', () => {
    assert.match(layeringViolations('host/x.ts', 'const m = await import(name);')[0]!, /not a string literal/);
    assert.match(layeringViolations('host/x.ts', "import { createHost } from 'task-surface/host';")[0]!, /never through its exports/);
    assert.deepEqual(layeringViolations('host/x.ts', "// import '../demo/agent.js'\nconst s = \"import '../demo/agent.js'\";"), []);
  });

  it('refuses Node modules in any file a browser-safe entry loads, and only there', () => {
    const files = new Map([
      ['transport/index.ts', "export * from './ws/client.js';\nexport type { Server } from './ws/server.js';"],
      ['transport/ws/client.ts', "import { helper } from './shared.js';\nimport type { Agent } from 'node:http';"],
      ['transport/ws/shared.ts', "const m = await import('node:os');"],
      ['transport/ws/server.ts', "import { createServer } from 'node:http';\nimport { WebSocketServer } from 'ws';"],
      ['host/store/sqlite.ts', "import Database from 'better-sqlite3';"],
    ]);
    const problems = browserSafetyViolations(files);
    assert.equal(problems.length, 1, problems.join('\n'));
    assert.match(
      problems[0]!,
      /^transport\/ws\/shared\.ts:1: imports 'node:os', but the browser-safe transport\/index\.ts loads this file/,
    );
  });
});
