import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { createHost } from '../../host/createHost.js';
import { createMemoryStore } from '../../host/store/memory.js';
import type { Host } from '../../host/types.js';
import { mintTaskSurfaceDismissalId, type SessionId, type ToolResultEvent } from '../../protocol/index.js';
import { createLocalTransport } from '../../transport/local.js';
import type { HostTransport, TransportError } from '../../transport/types.js';
import type { TaskSurfaceToolview } from '../../components/toolview/task-surface-toolview.js';
import '../../components/toolview/task-surface-toolview.js';
import { manualSurface, ScriptedDriver, say, withOpenSurface } from '../host/helpers.js';
import { dismissButton, inState, inView, mountDock, statusText, submitButton, typeInto } from './dockHelpers.js';
import { inTime } from '../browser/waits.js';

async function setup() {
  const driver = new ScriptedDriver();
  const host = createHost({ store: createMemoryStore(), driver });
  const { sessionId } = await withOpenSurface(host, driver);
  const transport = createLocalTransport(host);
  const page = await host.readLog(sessionId, { limit: 50 });
  const result = page.events.find((e): e is ToolResultEvent => e.type === 'tool/result')!;
  return { host, sessionId, transport, result };
}

async function row(transport: HostTransport, sessionId: SessionId, result: ToolResultEvent) {
  return fixture<TaskSurfaceToolview>(html`<task-surface-toolview name=${result.name} .content=${result.content} .meta=${result.meta}
    session-id=${sessionId} .transport=${transport}></task-surface-toolview>`);
}
const statusOf = (el: TaskSurfaceToolview) => el.shadowRoot!.querySelector('.status')?.textContent ?? '';

describe('components with the real host (local transport)', () => {
  let host: Host | undefined;
  // No localStorage.clear(): test files share one origin; each host session here is new, so it has no drafts.
  afterEach(async () => {
    await host?.dispose();
    host = undefined;
  });

  it('shows, edits, submits exactly one message and closes the Dock and the row', async () => {
    const ctx = await setup();
    host = ctx.host;
    const dock = await mountDock(ctx.transport, ctx.sessionId);
    const toolview = await row(ctx.transport, ctx.sessionId, ctx.result);
    await inState(dock, 'editing');
    await waitUntil(() => statusOf(toolview).endsWith('Open'));
    // In-process the surface closes before submit resolves: the events still come, submitted first.
    const events: string[] = [];
    for (const type of ['task-surface-submitted', 'task-surface-closed']) dock.addEventListener(type, () => events.push(type));
    inView(dock, '[role="radio"][data-value="b"]').click();
    await typeInto(dock, 1, 'it is cheaper');
    submitButton(dock).click();
    submitButton(dock).click();
    await inState(dock, 'hidden');
    await inTime(ctx.host.whenIdle(ctx.sessionId), "the submission's turn to end");
    const log = await ctx.host.readLog(ctx.sessionId, { limit: 100 });
    const answers = log.events.filter((e) => e.type === 'user/message' && e.source.taskSurface);
    expect(answers.length).to.equal(1);
    expect(events).to.deep.equal(['task-surface-submitted', 'task-surface-closed']);
    expect(answers[0]!.type === 'user/message' && answers[0]!.source.taskSurface?.values).to.deep.equal({
      plan: 'b',
      why: 'it is cheaper',
    });
    await waitUntil(() => statusOf(toolview).endsWith('Submitted'));
    expect(localStorage.getItem(`task-surface:drafts:${ctx.sessionId}`)).to.equal(null);
  });

  it('a row renders what a host with larger limits accepted (a 400-row table), open and closed', async () => {
    const driver = new ScriptedDriver();
    host = createHost({ store: createMemoryStore(), driver, limits: { tableRows: 400 } });
    const rows = Array.from({ length: 400 }, (_, i) => ({ n: `row ${i}` }));
    const model = {
      version: 1,
      title: 'Inventory',
      sections: [{ id: 's', blocks: [{ kind: 'table', columns: [{ id: 'n', label: 'Name' }], rows }] }],
      submit: { label: 'OK' },
    };
    const { sessionId, surfaceId } = await withOpenSurface(host, driver, model);
    const transport = createLocalTransport(host);
    const page = await host.readLog(sessionId, { limit: 50 });
    const result = page.events.find((e): e is ToolResultEvent => e.type === 'tool/result')!;
    const el = await row(transport, sessionId, result);
    await waitUntil(() => el.shadowRoot!.querySelector('.pointer') !== null, 'open: a pointer to the Dock');
    await host.taskSurface.dismiss({ sessionId, surfaceId, dismissalId: mintTaskSurfaceDismissalId() });
    await waitUntil(() => statusOf(el).endsWith('Dismissed'));
    el.shadowRoot!.querySelector<HTMLButtonElement>('button.toggle')!.click();
    await el.updateComplete;
    const view = el.shadowRoot!.querySelector('task-surface-view')!;
    await view.updateComplete;
    expect(view.shadowRoot!.querySelector('.table-more')!.textContent).to.contain('Showing 50 of 400 rows');
  });

  it('the Dock follows queued → claiming → closed from the pushed view: one getActive in the whole cycle', async () => {
    const driver = new ScriptedDriver();
    host = createHost({ store: createMemoryStore(), driver, autoAdmit: false });
    const { sessionId } = await manualSurface(host, driver);
    const local = createLocalTransport(host);
    let getActiveCalls = 0;
    const transport: HostTransport = {
      ...local,
      taskSurface: {
        ...local.taskSurface,
        getActive: (input) => {
          getActiveCalls++;
          return local.taskSurface.getActive(input);
        },
      },
    };
    const dock = await mountDock(transport, sessionId);
    await inState(dock, 'editing');
    inView(dock, '[role="radio"][data-value="b"]').click();
    await typeInto(dock, 1, 'cheaper');
    submitButton(dock).click();
    await waitUntil(() => statusText(dock) === 'Sent. Waiting for the agent to pick it up.');
    const claim = host.inbox.claimNext(sessionId)!;
    await waitUntil(() => statusText(dock) === 'Sent. The agent is reading your answer.');
    expect(submitButton(dock).disabled).to.equal(true);
    claim.commit();
    await inState(dock, 'hidden');
    expect(getActiveCalls, 'getActive once, when the surface opened').to.equal(1);
  });

  it('a blank required field is caught before sending and nothing reaches the host', async () => {
    const ctx = await setup();
    host = ctx.host;
    const dock = await mountDock(ctx.transport, ctx.sessionId);
    await inState(dock, 'editing');
    submitButton(dock).click();
    await dock.updateComplete;
    expect(dock.state).to.equal('editing');
    expect(inView(dock, '#f1').getAttribute('aria-invalid')).to.equal('true');
  });

  it('dismisses with one event and a bypass is reported on the row', async () => {
    const ctx = await setup();
    host = ctx.host;
    const dock = await mountDock(ctx.transport, ctx.sessionId);
    await inState(dock, 'editing');
    const events: string[] = [];
    for (const type of ['task-surface-dismissed', 'task-surface-closed']) dock.addEventListener(type, () => events.push(type));
    dismissButton(dock).click();
    await inState(dock, 'hidden');
    expect(events).to.deep.equal(['task-surface-dismissed', 'task-surface-closed']);
    const log = await ctx.host.readLog(ctx.sessionId, { limit: 100 });
    expect(log.events.filter((e) => e.type === 'task-surface/dismissed').length).to.equal(1);
    const toolview = await row(ctx.transport, ctx.sessionId, ctx.result);
    await waitUntil(() => statusOf(toolview).endsWith('Dismissed'));

    const other = await setup();
    host = other.host;
    await say(other.host, other.sessionId, 'never mind, just do A');
    await inTime(other.host.whenIdle(other.sessionId), "the chat answer's turn to end");
    const bypassed = await row(other.transport, other.sessionId, other.result);
    await waitUntil(() => statusOf(bypassed).endsWith('Answered in chat'));
    await ctx.host.dispose();
  });

  it('the local transport stops delivering views and rejects calls once disposed', async () => {
    const ctx = await setup();
    host = ctx.host;
    let views = 0;
    ctx.transport.watchSession(ctx.sessionId, () => views++);
    await waitUntil(() => views > 0);
    ctx.transport.dispose();
    const seen = views;
    await say(ctx.host, ctx.sessionId, 'after dispose');
    await inTime(ctx.host.whenIdle(ctx.sessionId), 'the turn after dispose to end');
    expect(views).to.equal(seen);
    const error = await ctx.transport.taskSurface.getActive({ sessionId: ctx.sessionId, surfaceId: 'x' as never }).catch((e: unknown) => e);
    expect((error as TransportError).code).to.equal('disposed');
  });

  it('disposing the transport releases the Dock and changes nothing in the log', async () => {
    const ctx = await setup();
    host = ctx.host;
    const dock = await mountDock(ctx.transport, ctx.sessionId);
    await inState(dock, 'editing');
    const before = (await ctx.host.readLog(ctx.sessionId, { limit: 100 })).lastSeq;
    ctx.transport.dispose();
    dock.remove();
    expect((await ctx.host.readLog(ctx.sessionId, { limit: 100 })).lastSeq).to.equal(before);
  });
});
