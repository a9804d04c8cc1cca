import { expect, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { TaskSurfaceDock } from '../../components/dock/task-surface-dock.js';
import { createHost } from '../../host/createHost.js';
import { createMemoryStore } from '../../host/store/memory.js';
import type { Host } from '../../host/types.js';
import { formatSubmission, parseTaskSurfaceModel, type SessionId, type UserMessageEvent } from '../../protocol/index.js';
import { createLocalTransport } from '../../transport/local.js';
import { ScriptedDriver, sampleModel, withOpenSurface } from '../host/helpers.js';
import { deepActive, inDock, inState, inView, mountDock, statusText, submitButton, typeInto } from './dockHelpers.js';
import { inTime } from '../browser/waits.js';

async function setup() {
  const driver = new ScriptedDriver();
  const host = createHost({ store: createMemoryStore(), driver });
  const { sessionId } = await withOpenSurface(host, driver);
  return { host, sessionId, transport: createLocalTransport(host) };
}

async function answers(host: Host, sessionId: SessionId): Promise<UserMessageEvent[]> {
  await inTime(host.whenIdle(sessionId), "the answer's turn to end");
  const log = await host.readLog(sessionId, { limit: 100 });
  return log.events.filter((e): e is UserMessageEvent => e.type === 'user/message' && e.source.taskSurface !== undefined);
}

async function writeNote(dock: TaskSurfaceDock, text: string) {
  const note = inDock<HTMLTextAreaElement>(dock, '#note');
  note.value = text;
  note.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  await dock.updateComplete;
}

const model = () => {
  const parsed = parseTaskSurfaceModel(sampleModel());
  if (!parsed.ok) throw new Error('sample model');
  return parsed.model;
};

describe("task-surface-dock: the note and the answer's language (real host, local transport)", () => {
  let host: Host | undefined;
  afterEach(async () => {
    await host?.dispose();
    host = undefined;
  });

  it('the note is collapsed by default, kept in the draft, and reaches the user message', async () => {
    const ctx = await setup();
    host = ctx.host;
    const first = await mountDock(ctx.transport, ctx.sessionId);
    await inState(first, 'editing');
    expect(first.shadowRoot!.querySelector('#note'), 'collapsed by default').to.equal(null);
    const toggle = inDock<HTMLButtonElement>(first, '[part="note-toggle"]');
    expect(toggle.textContent).to.equal('Add a note');
    toggle.focus();
    await sendKeys({ press: 'Enter' });
    await first.updateComplete;
    expect(deepActive()).to.equal(inDock(first, '#note'));
    expect(inDock(first, 'label[for="note"]').textContent).to.equal('Note for the agent (optional)');
    await writeNote(first, 'Ask me before Friday.');
    inView(first, '[role="radio"][data-value="b"]').click();
    await typeInto(first, 1, 'cheaper');
    first.remove();

    const dock = await mountDock(ctx.transport, ctx.sessionId);
    await inState(dock, 'editing');
    expect(inDock<HTMLTextAreaElement>(dock, '#note').value, 'the draft kept the note').to.equal('Ask me before Friday.');
    submitButton(dock).click();
    await inState(dock, 'hidden');
    const [answer, ...more] = await answers(ctx.host, ctx.sessionId);
    expect(more).to.have.length(0);
    expect(answer!.text).to.equal(formatSubmission(model(), { plan: 'b', why: 'cheaper' }, 'Ask me before Friday.', { locale: 'en' }));
    expect(answer!.text).to.contain('Note: Ask me before Friday.');
    expect(localStorage.getItem(`task-surface:drafts:${ctx.sessionId}`)).to.equal(null);
  });

  it("a zh Dock's submission is written in Chinese", async () => {
    const ctx = await setup();
    host = ctx.host;
    const dock = await mountDock(ctx.transport, ctx.sessionId, { lang: 'zh' });
    await inState(dock, 'editing');
    expect(inDock(dock, '[part="note-toggle"]').textContent).to.equal('添加备注');
    inDock<HTMLButtonElement>(dock, '[part="note-toggle"]').click();
    await dock.updateComplete;
    await writeNote(dock, '谢谢');
    inView(dock, '[role="radio"][data-value="a"]').click();
    await typeInto(dock, 1, '更便宜');
    submitButton(dock).click();
    await inState(dock, 'hidden');
    const [answer] = await answers(ctx.host, ctx.sessionId);
    expect(answer!.text).to.equal(formatSubmission(model(), { plan: 'a', why: '更便宜' }, '谢谢', { locale: 'zh' }));
    expect(answer!.text).to.contain('Why：更便宜');
    expect(answer!.text).to.contain('备注：谢谢');
  });

  it('a note over the submission limit is not sent: the Dock says so, and sends once it fits', async () => {
    const ctx = await setup();
    host = ctx.host;
    const dock = await mountDock(ctx.transport, ctx.sessionId);
    dock.submissionLimit = 200;
    await inState(dock, 'editing');
    await typeInto(dock, 1, 'cheaper');
    inDock<HTMLButtonElement>(dock, '[part="note-toggle"]').click();
    await dock.updateComplete;
    await writeNote(dock, 'x'.repeat(300));
    submitButton(dock).click();
    await dock.updateComplete;
    expect(dock.state).to.equal('editing');
    expect(statusText(dock)).to.match(/^Your answers and note are too long to send \(3\d\d of 200 bytes\)\. Shorten them and try again\.$/);
    expect(inDock(dock, '[part="status"]').classList.contains('error')).to.equal(true);
    expect(await answers(ctx.host, ctx.sessionId)).to.have.length(0);
    await writeNote(dock, 'short');
    expect(statusText(dock)).to.equal('');
    dock.setAttribute('submission-limit', 'lots'); // not a number: the default limit (32 KiB) applies
    await writeNote(dock, 'y'.repeat(40 * 1024));
    submitButton(dock).click();
    await dock.updateComplete;
    expect(statusText(dock)).to.match(/\(4\d,?\d{3} of 32,?768 bytes\)/);
    await writeNote(dock, 'short');
    submitButton(dock).click();
    await inState(dock, 'hidden');
    await waitUntil(async () => (await answers(ctx.host, ctx.sessionId)).length === 1);
  });
});
