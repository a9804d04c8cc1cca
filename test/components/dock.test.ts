import { expect, fixture, fixtureSync, html, waitUntil } from '@open-wc/testing';
import { ContextProvider } from '@lit/context';
import { emulateMedia, setViewport } from '@web/test-runner-commands';
import { transportContext } from '../../components/shared/context.js';
import { draftStorageKey } from '../../components/drafts/draftStore.js';
import type { TaskSurfaceDock } from '../../components/dock/task-surface-dock.js';
import type { TaskSurfaceModelV1 } from '../../protocol/index.js';
import { TransportError } from '../../transport/types.js';
import { FakeTransport, deferred, sid } from './fakeTransport.js';
import { everyKindModel } from './models.js';
import {
  dismissButton,
  forgetDrafts,
  inDock,
  inState,
  inView,
  mountDock,
  statusText,
  submitButton,
  typeInto,
  viewOf,
} from './dockHelpers.js';
import { onPage } from '../browser/onPage.js';

const simple: TaskSurfaceModelV1 = {
  version: 1,
  title: 'Name it',
  sections: [],
  submit: { label: 'Send' },
  fields: [
    { kind: 'text', id: 'name', label: 'Name' },
    { kind: 'toggle', id: 'ok', label: 'OK' },
  ],
};
// This file's own sessions: see forgetDrafts.
const S1 = sid('dock-s1');
const S2 = sid('dock-s2');
const S3 = sid('dock-s3');

describe('task-surface-dock', () => {
  let t: FakeTransport;
  beforeEach(() => {
    forgetDrafts(S1, S2, S3);
    t = new FakeTransport();
  });

  it('opens the active surface through getActive without stealing focus', async () => {
    const composer = fixtureSync<HTMLTextAreaElement>(html`<textarea aria-label="composer"></textarea>`);
    composer.focus();
    const el = await mountDock(t, S1);
    expect(el.state).to.equal('hidden');
    t.open(S1, 'sf-1', simple);
    await inState(el, 'editing');
    expect(t.calls.getActive).to.deep.equal([{ sessionId: S1, surfaceId: 'sf-1' }]);
    expect(inDock(el, '.title').textContent).to.equal('Name it');
    expect(document.activeElement === composer, 'focus stayed in the composer').to.equal(true);
  });

  it('sends one submissionId for a double click and disables every control while pending', async () => {
    const held = deferred<{ accepted: true; messageId: never; phase: 'queued' }>();
    t.onSubmit = () => held.promise;
    t.open(S1, 'sf-1', simple);
    const el = await mountDock(t, S1);
    await inState(el, 'editing');
    await typeInto(el, 0, 'Ada');
    submitButton(el).click();
    submitButton(el).click();
    await el.updateComplete;
    submitButton(el).click();
    expect(t.calls.submit.length).to.equal(1);
    expect(t.calls.submit[0]).to.deep.include({ sessionId: S1, surfaceId: 'sf-1', values: { name: 'Ada', ok: false } });
    held.resolve({ accepted: true, messageId: 'm-1' as never, phase: 'queued' });
    await inState(el, 'pending');
    const controls = [...viewOf(el).shadowRoot!.querySelectorAll<HTMLButtonElement>('input, textarea, button'), dismissButton(el)];
    expect(controls.every((c) => c.disabled)).to.equal(true);
    expect(statusText(el)).to.equal('Sent. Waiting for the agent to pick it up.');
  });

  it('keeps the values and says why when a submission is rejected; a retry after a transport error reuses the id', async () => {
    t.open(S1, 'sf-1', simple);
    const el = await mountDock(t, S1);
    await inState(el, 'editing');
    await typeInto(el, 0, 'Grace');
    t.onSubmit = async () => {
      throw new TransportError('unreachable', 'offline');
    };
    submitButton(el).click();
    await inState(el, 'rejected');
    expect(statusText(el)).to.equal('Could not reach the agent. Your answers are kept; try again.');
    t.onSubmit = async () => ({ accepted: false, reason: 'stale' });
    submitButton(el).click();
    await waitUntil(() => t.calls.submit.length === 2);
    await inState(el, 'rejected');
    expect(localStorage.getItem(draftStorageKey(S1)), 'a refused submission keeps its draft').to.contain('Grace');
    expect(t.calls.submit[1]!.submissionId).to.equal(t.calls.submit[0]!.submissionId);
    expect(statusText(el)).to.equal('This task changed before your answer arrived. Check your answers and try again.');
    expect(inView<HTMLInputElement>(el, '#f0').value).to.equal('Grace');
    expect(inView<HTMLInputElement>(el, '#f0').disabled).to.equal(false);
    submitButton(el).click(); // a new attempt after a definite refusal gets a new id
    await waitUntil(() => t.calls.submit.length === 3);
    expect(t.calls.submit[2]!.submissionId).to.not.equal(t.calls.submit[1]!.submissionId);
  });

  async function pendingDock() {
    t.open(S1, 'sf-1', simple);
    const el = await mountDock(t, S1);
    await inState(el, 'editing');
    await typeInto(el, 0, 'Lin');
    submitButton(el).click();
    await inState(el, 'pending');
    const submissionId = t.calls.submit[0]!.submissionId;
    t.setPending(S1, { submissionId, messageId: `m-${submissionId}` as never, phase: 'queued' });
    await el.updateComplete;
    return { el, submissionId };
  }

  it('follows the claim the pushed view carries, without a getActive round trip: claiming stays disabled', async () => {
    const { el, submissionId } = await pendingDock();
    const reads = t.calls.getActive.length;
    t.update(S1, { queue: [] }); // the row left the queue: the view still carries the submission, so nothing is re-read
    t.setPending(S1, { submissionId, messageId: `m-${submissionId}` as never, phase: 'claiming' });
    await waitUntil(() => statusText(el) === 'Sent. The agent is reading your answer.');
    expect(el.state).to.equal('pending');
    expect(submitButton(el).disabled).to.equal(true);
    expect(t.calls.getActive.length, 'no getActive per claim').to.equal(reads);
  });

  it('re-reads getActive when the view no longer carries the submission: pending null restores the draft', async () => {
    const { el } = await pendingDock();
    const reads = t.calls.getActive.length;
    t.setPending(S1, null);
    await inState(el, 'editing');
    expect(t.calls.getActive.length, 'the Dock asked instead of guessing').to.equal(reads + 1);
    expect(inView<HTMLInputElement>(el, '#f0').value).to.equal('Lin');
    expect(submitButton(el).disabled).to.equal(false);
  });

  it('re-reads getActive when the view no longer carries the submission: not-open closes the Dock', async () => {
    const { el } = await pendingDock();
    t.models.clear();
    t.setPending(S1, null);
    await inState(el, 'hidden');
    expect(el.shadowRoot!.querySelector('task-surface-view') === null, 'view removed').to.equal(true);
  });

  it("locks while another tab's submission is pending, and is editable again when it is discarded", async () => {
    t.open(S1, 'sf-1', simple);
    const el = await mountDock(t, S1);
    await inState(el, 'editing');
    await typeInto(el, 0, 'mine');
    t.setPending(S1, { submissionId: 'other-tab' as never, messageId: 'm-other' as never, phase: 'queued' });
    await waitUntil(() => statusText(el) === 'Sent. Waiting for the agent to pick it up.');
    expect(submitButton(el).disabled).to.equal(true);
    expect(t.calls.submit.length).to.equal(0);
    t.setPending(S1, null);
    await inState(el, 'editing');
    expect(inView<HTMLInputElement>(el, '#f0').value, 'the draft is kept').to.equal('mine');
  });

  it('clears the draft only when the matching message is durable, and returns focus to the page', async () => {
    const composer = fixtureSync<HTMLTextAreaElement>(html`<textarea aria-label="composer"></textarea>`);
    const { el } = await pendingDock();
    expect(localStorage.getItem(draftStorageKey(S1))).to.contain('Lin');
    el.focusReturnTarget = composer;
    const returned: string[] = [];
    el.addEventListener('task-surface-focus-return', (e) => returned.push(e.detail.reason));
    dismissButton(el).focus();
    t.close(S1);
    await inState(el, 'hidden');
    expect(localStorage.getItem(draftStorageKey(S1))).to.equal(null);
    await waitUntil(() => document.activeElement === composer);
    expect(returned).to.deep.equal(['close']);
  });

  it('after submit, focus goes where it was before entering the Dock unless the page cancels', async () => {
    const composer = fixtureSync<HTMLTextAreaElement>(html`<textarea aria-label="composer"></textarea>`);
    composer.focus(); // the person is typing when the surface opens
    t.open(S1, 'sf-1', simple);
    const el = await mountDock(t, S1);
    await inState(el, 'editing');
    inView<HTMLInputElement>(el, '#f0').focus();
    await typeInto(el, 0, 'x');
    submitButton(el).focus();
    submitButton(el).click();
    await inState(el, 'pending');
    await waitUntil(() => document.activeElement === composer, 'focus did not return to the composer');

    const other = await mountDock(t, S2);
    const t2 = t;
    t2.open(S2, 'sf-2', simple);
    await inState(other, 'editing');
    other.addEventListener('task-surface-focus-return', (e) => e.preventDefault());
    submitButton(other).focus();
    submitButton(other).click();
    await inState(other, 'pending');
    await other.updateComplete;
    expect(document.activeElement === composer, 'the Dock moved focus despite the veto').to.equal(false);
  });

  it('dismisses with one dismissalId reused on retry, and a page can veto', async () => {
    t.open(S1, 'sf-1', simple);
    const el = await mountDock(t, S1);
    await inState(el, 'editing');
    const veto = (e: Event) => e.preventDefault();
    el.addEventListener('task-surface-dismiss-request', veto);
    dismissButton(el).click();
    expect(t.calls.dismiss.length).to.equal(0);
    el.removeEventListener('task-surface-dismiss-request', veto);
    t.onDismiss = async () => {
      throw new TransportError('unreachable', 'offline');
    };
    dismissButton(el).click();
    await inState(el, 'rejected');
    expect(statusText(el)).to.equal('Could not reach the agent to dismiss the task; try again.');
    t.onDismiss = async () => {
      t.close(S1);
      return { dismissed: true, eventSeq: 5 };
    };
    let dismissed = 0;
    el.addEventListener('task-surface-dismissed', () => dismissed++);
    dismissButton(el).click();
    await inState(el, 'hidden');
    expect(t.calls.dismiss.map((c) => c.dismissalId)).to.have.length(2);
    expect(t.calls.dismiss[1]!.dismissalId).to.equal(t.calls.dismiss[0]!.dismissalId);
  });

  it('a page can veto a submission', async () => {
    t.open(S1, 'sf-1', simple);
    const el = await mountDock(t, S1);
    await inState(el, 'editing');
    el.addEventListener('task-surface-submit-request', (e) => e.preventDefault());
    submitButton(el).click();
    expect(t.calls.submit.length).to.equal(0);
    expect(el.state).to.equal('editing');
  });

  it('collapses locally and sends nothing', async () => {
    t.open(S1, 'sf-1', simple);
    const el = await mountDock(t, S1);
    await inState(el, 'editing');
    const before = { ...t.calls, getActive: t.calls.getActive.length };
    inDock(el, 'button[part="collapse"]').click();
    await el.updateComplete;
    expect(inDock(el, '#body').hidden).to.equal(true);
    expect(inDock(el, 'button[part="collapse"]').getAttribute('aria-expanded')).to.equal('false');
    expect([t.calls.getActive.length, t.calls.submit.length, t.calls.dismiss.length]).to.deep.equal([before.getActive, 0, 0]);
  });

  it('stays mounted with its draft while hidden for a composer takeover', async () => {
    t.open(S1, 'sf-1', simple);
    const el = await mountDock(t, S1);
    await inState(el, 'editing');
    await typeInto(el, 0, 'kept');
    const view = viewOf(el);
    el.hidden = true;
    await el.updateComplete;
    expect(getComputedStyle(el).display).to.equal('none');
    el.hidden = false;
    el.takeover = true;
    await el.updateComplete;
    expect(getComputedStyle(el).display).to.equal('none');
    el.takeover = false;
    await el.updateComplete;
    expect(viewOf(el) === view, 'same editor instance').to.equal(true);
    expect(inView<HTMLInputElement>(el, '#f0').value).to.equal('kept');
  });

  it('keeps drafts across a remount and never shows them in another session', async () => {
    t.open(S1, 'sf-1', simple);
    t.open(S2, 'sf-2', simple);
    const first = await mountDock(t, S1);
    await inState(first, 'editing');
    await typeInto(first, 0, 'draft one');
    first.remove();
    const again = await mountDock(t, S1);
    await inState(again, 'editing');
    expect(inView<HTMLInputElement>(again, '#f0').value).to.equal('draft one');
    const other = await mountDock(t, S2);
    await inState(other, 'editing');
    expect(inView<HTMLInputElement>(other, '#f0').value).to.equal('');
  });

  it('switching session-id shows the other session and leaks nothing from the first', async () => {
    t.open(S1, 'sf-1', simple);
    const el = await mountDock(t, S1);
    await inState(el, 'editing');
    await typeInto(el, 0, 'secret');
    el.sessionId = S3;
    await el.updateComplete;
    expect(el.state).to.equal('hidden');
    expect(t.liveWatches).to.equal(1);
    t.open(S3, 'sf-3', { ...simple, title: 'Other' });
    await inState(el, 'editing');
    expect(inDock(el, '.title').textContent).to.equal('Other');
    expect(inView<HTMLInputElement>(el, '#f0').value).to.equal('');
    el.sessionId = S1;
    // Wait for s1's own surface: the Dock is still 'editing' s3's until it restarts on the update.
    await el.updateComplete;
    await inState(el, 'editing');
    expect(inDock(el, '.title').textContent).to.equal('Name it');
    expect(inView<HTMLInputElement>(el, '#f0').value).to.equal('secret');
  });

  it('recovers a pending submission on load and releases every subscription on disconnect', async () => {
    t.pending = { submissionId: 'sub-1' as never, messageId: 'm' as never, phase: 'queued' };
    t.open(S1, 'sf-1', simple);
    const inspected: string[] = [];
    const el = await fixture(
      html`<task-surface-dock session-id=${S1} .transport=${t} .inspect=${(e: { type: string }) => inspected.push(e.type)}></task-surface-dock>`,
    );
    await inState(el as never, 'pending');
    expect(t.liveWatches).to.equal(1);
    expect(inspected).to.include('@xstate.actor');
    el.remove();
    expect(t.liveWatches).to.equal(0);
    const calls = t.calls.getActive.length;
    t.update(S1, { queue: [] });
    await Promise.resolve();
    expect(t.calls.getActive.length).to.equal(calls);
    onPage(el);
    await waitUntil(() => t.liveWatches === 1);
    el.remove();
    expect([t.watchCalls, t.liveWatches]).to.deep.equal([2, 0]);
  });
});

describe('task-surface-dock transport from context', () => {
  it('uses a transport provided by an ancestor', async () => {
    forgetDrafts(S1, S2, S3);
    const t = new FakeTransport();
    t.open(S1, 'sf-1', simple);
    const wrapper = fixtureSync<HTMLDivElement>(html`<div></div>`);
    new ContextProvider(wrapper, { context: transportContext, initialValue: t });
    const el = document.createElement('task-surface-dock') as TaskSurfaceDock;
    el.sessionId = S1;
    wrapper.append(el);
    await inState(el, 'editing');
    expect(t.liveWatches).to.equal(1);
    el.remove();
    expect(t.liveWatches).to.equal(0);
  });
});

describe('task-surface-dock accessibility', () => {
  afterEach(async () => {
    await setViewport({ width: 800, height: 600 });
    await emulateMedia({ colorScheme: 'light' });
  });
  it('follows prefers-color-scheme without a theme, and axe finds nothing at 320 px', async () => {
    forgetDrafts(S1, S2, S3);
    await setViewport({ width: 320, height: 640 });
    await emulateMedia({ colorScheme: 'dark' });
    const t = new FakeTransport();
    t.open(S1, 'sf-1', everyKindModel);
    const el = await fixture<TaskSurfaceDock>(html`<task-surface-dock session-id=${S1} .transport=${t}></task-surface-dock>`);
    await inState(el, 'editing');
    expect(getComputedStyle(inDock(el, '.base')).backgroundColor).to.equal('rgb(13, 17, 23)');
    expect(el.getBoundingClientRect().width).to.be.at.most(320);
    expect(document.documentElement.scrollWidth).to.be.at.most(320);
    await expect(el).to.be.accessible();
  });

  for (const theme of ['light', 'dark']) {
    for (const lang of ['en', 'zh']) {
      it(`axe finds nothing (${theme}, ${lang})`, async () => {
        forgetDrafts(S1, S2, S3);
        const t = new FakeTransport();
        t.open(S1, 'sf-1', everyKindModel);
        const el = await mountDock(t, S1, { theme, lang });
        await inState(el, 'editing');
        await expect(el).to.be.accessible();
      });
    }
  }
});
