// Every fenced block of README.md and docs/ is accounted for: a test runs it as written (the test
// named here names the block, or reads its page), or it is shown only (a command the project's own
// steps run, a diagram, an output) and says why, or it is a todo that says what it still needs. A
// block in none of these lists, or an entry whose block is gone, fails.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { docPages, fencesOf } from './docsFences.js';

const SNIPPETS = 'test/docsSnippets.node.test.ts';
const KIT = 'test/conformance/docsRoute.ts';
const BROWSER = 'test/e2e/snippets.e2e.ts';

/** Blocks a test runs as written: the test file. */
const RUN: Record<string, string> = {
  'README.md § Quick start · ts 1': SNIPPETS,
  'README.md § Quick start · ts 2': SNIPPETS,
  // The same text as docs/ai-sdk.md's route, which the kit runs (the test compares the two).
  'README.md § Inside an AI SDK app · ts 1': 'test/conformance/table.node.test.ts',
  'README.md § In Claude, VS Code and other MCP hosts · json 1': 'test/mcp/snippets.node.test.ts',
  'README.md § In Claude, VS Code and other MCP hosts · json 2': 'test/mcp/demo.node.test.ts',
  'README.md § Connecting a model · ts 1': SNIPPETS,
  'docs/action-cards.md § Host: `host.actionCards` · ts 1': SNIPPETS,
  'docs/agents.md § Model drivers (`task-surface/agents`) · ts 1': SNIPPETS,
  'docs/ai-sdk.md § The server · ts 1': KIT,
  'docs/ai-sdk.md § Action cards · ts 1': KIT,
  'docs/ai-sdk.md § The page · tsx 1': 'test/e2e/ai-sdk-page.e2e.ts',
  'docs/ai-sdk.md § Messages written while a reply streams · ts 1': KIT,
  'docs/ag-ui.md § The server · ts 1': 'test/ag-ui/docs.node.test.ts',
  'docs/ag-ui.md § The page · ts 1': 'test/ag-ui/docs.node.test.ts',
  'docs/conformance.md § Run it on your own adapter · ts 1': 'test/conformance/host.node.test.ts',
  'docs/demo.md § Driving the machines from host code · ts 1': SNIPPETS,
  'docs/demo.md § Authentication · ts 1': SNIPPETS,
  'docs/demo.md § The WebSocket transport · ts 1': SNIPPETS,
  'docs/demo.md § The WebSocket transport · ts 2': BROWSER,
  'docs/demo.md § Embedding the elements · html 1': 'test/e2e/snippets-embed.e2e.ts',
  'docs/demo.md § Embedding the elements · js 1': 'test/e2e/snippets-embed.e2e.ts',
  'docs/demo.md § Embedding the elements · jsx 1': 'test/e2e/snippets-embed.e2e.ts',
  'docs/host.md § The Host (`task-surface/host`) · ts 1': SNIPPETS,
  'docs/host.md § Stepping the loop by hand (`autoAdmit: false`) · ts 1': SNIPPETS,
  'docs/host.md § PostgreSQL (`task-surface/host/postgres`) · ts 1': SNIPPETS,
  'docs/cluster.md § Several host processes (`task-surface/transport/cluster`) · ts 1': SNIPPETS,
  'docs/protocol.md § The Task Surface contract (`task-surface/protocol`) · ts 1': SNIPPETS,
  'docs/security.md § Host limits, per principal · ts 1': SNIPPETS,
  'README.md § Quick start · html 1': BROWSER,
  'README.md § Languages · ts 1': BROWSER,
  'docs/action-cards.md § Browser: `<action-card>` · ts 1': BROWSER,
  'docs/components.md § Components (`task-surface/components`, `dist/task-surface.js`) · js 1': BROWSER,
  'docs/components.md § Components (`task-surface/components`, `dist/task-surface.js`) · html 1': BROWSER,
  'docs/components.md § Languages · ts 1': BROWSER,
};

/** Blocks shown, not run as code: why. */
const SHOWN: Record<string, string> = {
  'README.md § The two commands · sh 1':
    'the commands themselves: CI runs `npm ci && npm test` (.ci/run), and npm test builds the docs site',
  'README.md § How it fits together · text 1': 'a diagram',
  'README.md § Connecting a model · sh 1':
    'commands that need a provider’s key; the variables they set are read by test/agents/demoModel.node.test.ts',
  'README.md § Several host processes · sh 1':
    'a command and its startup line; --workers 3 runs in test/demo/balancer.node.test.ts and test/e2e/cluster.e2e.ts',
  'README.md § Working on it · text 1': 'the folders, a listing',
  'docs/action-cards.md § Status notice · text 1':
    'the notice as the model reads it, an output (its texts are host/actionCards/texts.ts’s, checked below)',
  'docs/demo.md § Run the demo · sh 1':
    'commands: npm start and its options; the server they start is tested by test/demo/server.node.test.ts',
  'docs/demo.md § Content Security Policy and Trusted Types · text 1':
    'the header the demo sends, an output (demo/csp.ts; test/demo/server.node.test.ts)',
  'docs/host.md § The turn loop statechart (`turnMachine`) · text 1': 'a diagram',
  'docs/action-cards.md § Browser: `<action-card>` · html 1':
    'the element’s attributes, a template: its ids are the answer’s card (`…`); test/action-cards/action-card.test.ts mounts it with real ones',
  'docs/mutation.md § Mutation testing · text 1': 'commands of `npm run mutate`, which is not part of npm test (docs/mutation.md says why)',
};

/** Blocks no test runs yet: what each still needs. Reported as todo, never as passing. */
const TODO: Record<string, string> = {};

const fences = docPages().flatMap(fencesOf);
const keys = new Set(fences.map((f) => f.key));

it('every block of README.md and docs/ is run, shown with a reason, or a todo that says what it needs', () => {
  const lists = [RUN, SHOWN, TODO];
  const unaccounted = fences.filter((f) => lists.filter((list) => f.key in list).length !== 1).map((f) => `${f.page}:${f.line} "${f.key}"`);
  assert.deepEqual(unaccounted, [], 'each block in exactly one of RUN, SHOWN, TODO (test/docsFences.node.test.ts)');
  const gone = lists.flatMap(Object.keys).filter((key) => !keys.has(key));
  assert.deepEqual(gone, [], 'entries whose block is no longer in its page');
  assert.ok(fences.length > 40, `the blocks were found (${fences.length})`);
});

it('each test that runs a block exists and names the block, or reads its page', () => {
  const wrong = Object.entries(RUN).flatMap(([key, file]) => {
    if (!existsSync(file)) return [`${key}: ${file} does not exist`];
    const text = readFileSync(file, 'utf8');
    return text.includes(key) || text.includes(key.split(' § ')[0]!) ? [] : [`${key}: ${file} neither names it nor reads its page`];
  });
  assert.deepEqual(wrong, []);
});

it('the status notice shown is the texts the Host writes', () => {
  const notice = fences.find((f) => f.key === 'docs/action-cards.md § Status notice · text 1')!.code.split('\n');
  const texts = readFileSync('host/actionCards/texts.ts', 'utf8');
  for (const line of [notice[0]!, notice[4]!]) assert.ok(texts.includes(line), `host/actionCards/texts.ts has "${line}"`);
});

describe('blocks no test runs yet', () => {
  for (const [key, needs] of Object.entries(TODO)) it(`${key} runs as written`, { todo: needs }, () => {});
});
