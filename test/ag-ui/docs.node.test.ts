// docs/ag-ui.md's two blocks, run as written: the server's routes behind a door that names the
// person, and the page's HttpAgent and transport, its relative fetches answered by those routes. The
// person asks, the panel opens, the answer is one user message, a dismissal adds none.
import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import type { AgUiRoutes, AgUiTaskSurface } from '../../ag-ui/index.js';
import { scriptedAgent } from '../../conformance/drivers/host.js';
import { ModelScript } from '../../conformance/drivers/script.js';
import type { Conversation } from '../../conformance/driver.js';
import { answer, show } from '../../conformance/fixtures.js';
import { createHost } from '../../host/createHost.js';
import { createMemoryStore } from '../../host/store/memory.js';
import type { Principal, SessionId, SessionView } from '../../protocol/index.js';
import { pointImports, importSnippet } from '../conformance/snippet.js';
import { fence } from '../docsFences.js';

const PERSON: Principal = { id: 'person', name: 'person' };
const script = new ModelScript();
const host = createHost({ store: createMemoryStore(), driver: scriptedAgent(script, () => ({}) as Conversation), onError: () => {} });
const scope = globalThis as unknown as Record<string, unknown>;
const realFetch = globalThis.fetch;
after(async () => {
  globalThis.fetch = realFetch;
  await host.dispose();
});

const source = (url: string) => new URL(url, import.meta.url).href;

it("docs/ag-ui.md's server and page blocks, as written, answer a panel once and dismiss one without a message", async () => {
  scope['__host'] = host;
  scope['__signedIn'] = async (request: Request) => (request.headers.get('cookie') === 'who=person' ? PERSON : null);
  const server = await importSnippet<{ agUi: AgUiRoutes; openThread(p: Principal): SessionId }>(
    'const host = globalThis.__host; const signedIn = globalThis.__signedIn;\n' +
      pointImports(fence('docs/ag-ui.md § The server · ts 1').code, { 'task-surface/ag-ui': source('../../ag-ui/index.ts') }),
  );
  const threadId = server.openThread(PERSON);
  // The page's relative fetches, with the person's cookie, reach the routes as the app mounts them.
  const routes: Record<string, (request: Request) => Promise<Response>> = {
    '/api/ag-ui': server.agUi.run,
    '/api/ag-ui/dismiss': server.agUi.dismiss,
    '/api/ag-ui/act': server.agUi.act,
  };
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://app.test');
    const request = new Request(url, { ...init, headers: { ...(init?.headers as Record<string, string>), cookie: 'who=person' } });
    return routes[url.pathname]!(request);
  }) as typeof fetch;
  const dock: Partial<AgUiTaskSurface> = {};
  scope['__threadId'] = threadId;
  scope['__dock'] = dock;
  const page = await importSnippet<AgUiTaskSurface & { agent: { messages: { role: string }[] } }>(
    'const threadId = globalThis.__threadId; const dock = globalThis.__dock;\n' +
      pointImports(fence('docs/ag-ui.md § The page · ts 1').code, {
        '@ag-ui/client': import.meta.resolve('@ag-ui/client'),
        'task-surface/ag-ui': source('../../ag-ui/index.ts'),
      }),
  );
  assert.equal(dock.transport, page.transport, 'the Dock has the transport');
  assert.equal(dock.sessionId, threadId);

  let view: SessionView | undefined;
  page.transport.watchSession(threadId, (next) => (view = next));
  const log = async () => (await host.readLog(threadId, { limit: 1000 })).events;
  const userMessages = async () => (await log()).filter((e) => e.type === 'user/message').length;

  script.push([{ calls: [show()] }]);
  await page.transport.session.send({ sessionId: threadId, messageId: 'm-1' as never, rpcId: 'r-1' as never, text: 'Help me plan' });
  const open = view?.taskSurface.active;
  assert.ok(open, 'the panel is open on the page');
  // A refused answer (values the panel does not offer) leaves no message on the page either.
  const refused = await page.transport.taskSurface.submit({
    sessionId: threadId,
    surfaceId: open.surfaceId,
    submissionId: 'sub-0' as never,
    values: { ...answer(), place: 'moon' },
  });
  assert.deepEqual(refused, { accepted: false, reason: 'invalid-submission' });
  assert.equal(page.agent.messages.filter((m) => m.role === 'user').length, 1, 'the refused answer was taken out again');
  const submission = { sessionId: threadId, surfaceId: open.surfaceId, submissionId: 'sub-1' as never, values: answer() };
  const both = await Promise.all([page.transport.taskSurface.submit(submission), page.transport.taskSurface.submit(submission)]);
  assert.deepEqual(
    both.map((r) => r.accepted),
    [true, true],
  );
  assert.equal(await userMessages(), 2, 'the question and one answer');
  assert.equal(page.agent.messages.filter((m) => m.role === 'user').length, 2, "the page's messages: the same two");

  script.push([{ calls: [show('Second')] }]);
  await page.transport.session.send({ sessionId: threadId, messageId: 'm-2' as never, rpcId: 'r-2' as never, text: 'Another' });
  const second = view?.taskSurface.active;
  assert.ok(second);
  const dismissed = await page.transport.taskSurface.dismiss({
    sessionId: threadId,
    surfaceId: second.surfaceId,
    dismissalId: 'd-1' as never,
  });
  assert.equal(dismissed.dismissed, true);
  assert.equal(view?.taskSurface.active, null, 'the panel closed on the page');
  assert.equal(await userMessages(), 3, 'no user message for the dismissal');
});
