import { expect, fixtureSync, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { TaskSurfaceDock } from '../../components/dock/task-surface-dock.js';
import type { MessageId, TaskSurfaceModelV1 } from '../../protocol/index.js';
import { TransportError } from '../../transport/types.js';
import { FakeTransport, sid } from './fakeTransport.js';
import {
  deepActive,
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
const S1 = sid('recovery-s1'); // this file's own: see forgetDrafts

/** Every state the Dock shows from now on, with whether its name field could be edited. */
function recordStates(el: TaskSurfaceDock) {
  const seen: string[] = [];
  const observer = new MutationObserver(() => {
    const input = viewOf(el)?.shadowRoot?.querySelector<HTMLInputElement>('#f0');
    seen.push(`${el.state}:${input && !input.disabled ? 'editable' : 'locked'}`);
  });
  observer.observe(el, { attributes: true, attributeFilter: ['state'] });
  return { seen, stop: () => observer.disconnect() };
}

describe('task-surface-dock after transport errors', () => {
  let t: FakeTransport;
  beforeEach(() => {
    forgetDrafts(S1);
    t = new FakeTransport();
  });

  it('a submit whose answer is lost after the Host accepted it stays locked, re-reads getActive and ends pending', async () => {
    t.open(S1, 'sf-1', simple);
    const el = await mountDock(t, S1);
    await inState(el, 'editing');
    await typeInto(el, 0, 'first');
    // The Host accepts, then the answer is lost; the first re-read fails as well.
    t.onSubmit = async (input) => {
      t.pending = { submissionId: input.submissionId, messageId: 'm-lost' as MessageId, phase: 'queued' };
      t.failGetActive = 1;
      throw new TransportError('unreachable', 'the connection dropped');
    };
    const submitted: string[] = [];
    el.addEventListener('task-surface-submitted', (e) => submitted.push(e.detail.messageId));
    const states = recordStates(el);
    submitButton(el).click();
    await el.updateComplete;
    expect(inDock(el, '.body').getAttribute('aria-busy'), 'busy while the request is out').to.equal('true');
    expect(inDock(el, '[part="status"]').closest('[aria-busy="true"]'), 'the status line is never inside a busy subtree').to.equal(null);
    await waitUntil(() => el.state === 'retrying');
    expect(statusText(el)).to.equal('The connection dropped. Checking whether the agent received it…');
    expect(inView<HTMLInputElement>(el, '#f0').disabled, 'locked while unknown').to.equal(true);
    submitButton(el).click(); // a click now must not send edits that would be dropped
    await inState(el, 'pending');
    states.stop();
    expect(
      states.seen.every((s) => s.endsWith(':locked')),
      states.seen.join(' '),
    ).to.equal(true);
    expect(t.calls.submit.length).to.equal(1);
    expect(submitted).to.deep.equal(['m-lost']);
    expect(statusText(el)).to.equal('Sent. Waiting for the agent to pick it up.');
  });

  it('a submit whose answer is lost and that never arrived becomes editable after getActive says so; the retry reuses the id', async () => {
    t.open(S1, 'sf-1', simple);
    const el = await mountDock(t, S1);
    await inState(el, 'editing');
    await typeInto(el, 0, 'kept');
    t.onSubmit = async () => {
      throw new TransportError('unreachable', 'offline');
    };
    const reads = t.calls.getActive.length;
    submitButton(el).click();
    await inState(el, 'rejected');
    expect(t.calls.getActive.length).to.equal(reads + 1);
    expect(statusText(el)).to.equal('Could not reach the agent. Your answers are kept; try again.');
    expect(inView<HTMLInputElement>(el, '#f0').value).to.equal('kept');
    t.onSubmit = async (input) => ({ accepted: true, messageId: `m-${input.submissionId}` as MessageId, phase: 'queued' });
    submitButton(el).click();
    await inState(el, 'pending');
    expect(t.calls.submit[1]!.submissionId).to.equal(t.calls.submit[0]!.submissionId);
  });

  it('a failed getActive retries with back-off and the Dock comes back by itself', async () => {
    t.failGetActive = 2;
    t.open(S1, 'sf-1', simple);
    const el = await mountDock(t, S1);
    await waitUntil(() => el.state === 'retrying');
    expect(statusText(el)).to.equal('Could not reach the agent to load the task. Trying again…');
    await inState(el, 'editing'); // no new view: the back-off alone brings it back
    expect(t.calls.getActive.length).to.equal(3);
    expect(inDock(el, '.title').textContent).to.equal('Name it');
  });

  it('a view of the same surface while retrying tries again at once', async () => {
    t.failGetActive = 1;
    t.open(S1, 'sf-1', simple);
    const el = await mountDock(t, S1);
    await waitUntil(() => el.state === 'retrying');
    t.update(S1, {}); // the connection is back: the server re-sends the view
    await waitUntil(() => t.calls.getActive.length === 2, 'retried on the view', { timeout: 200 });
    await inState(el, 'editing');
  });

  it('a failed re-read while pending keeps the Dock locked until getActive answers', async () => {
    t.open(S1, 'sf-1', simple);
    const el = await mountDock(t, S1);
    await inState(el, 'editing');
    submitButton(el).click();
    await inState(el, 'pending');
    t.failGetActive = 1;
    t.setPending(S1, null); // the submission is gone (discarded): re-read, which fails once
    await waitUntil(() => el.state === 'retrying');
    expect(inView<HTMLInputElement>(el, '#f0').disabled).to.equal(true);
    await inState(el, 'editing');
    expect(submitButton(el).disabled).to.equal(false);
  });
});

describe('task-surface-dock focus', () => {
  let t: FakeTransport;
  beforeEach(() => {
    forgetDrafts(S1);
    t = new FakeTransport();
  });

  async function pageWithComposer(composerAttr?: string) {
    // fixtureSync: fixture() waits for an animation frame for a plain element, and a background test page gets none.
    const page = fixtureSync<HTMLDivElement>(html`<div>
      <button id="voice">Voice note</button>
      <task-surface-dock session-id=${S1} .transport=${t} composer=${composerAttr ?? ''}></task-surface-dock>
      <textarea id="composer" aria-label="Message"></textarea>
      <input id="other" aria-label="Other">
    </div>`);
    const el = page.querySelector('task-surface-dock')!;
    if (!composerAttr) el.removeAttribute('composer');
    return {
      page,
      el,
      voice: page.querySelector<HTMLButtonElement>('#voice')!,
      composer: page.querySelector<HTMLTextAreaElement>('#composer')!,
    };
  }

  it('after submit, focus goes to the composer (the first text entry after the Dock), not the control before it', async () => {
    t.open(S1, 'sf-1', simple);
    const { el, voice, composer } = await pageWithComposer();
    await inState(el, 'editing');
    voice.focus();
    await sendKeys({ press: 'Tab' }); // into the Dock from the voice-note button
    expect(el.matches(':focus-within')).to.equal(true);
    submitButton(el).focus();
    await sendKeys({ press: 'Enter' });
    await inState(el, 'pending');
    await waitUntil(() => deepActive() === composer, `focus is on ${deepActive()?.localName}`);
  });

  it('the composer attribute names the composer by id, also inside a shadow root; after dismiss too', async () => {
    const hostEl = fixtureSync<HTMLDivElement>(html`<div></div>`);
    const root = hostEl.attachShadow({ mode: 'open' });
    root.innerHTML = `<input id="chat" aria-label="Chat"><task-surface-dock session-id="${S1}" composer="chat"></task-surface-dock><textarea aria-label="Other"></textarea>`;
    const el = root.querySelector('task-surface-dock')!;
    el.transport = t;
    t.open(S1, 'sf-1', simple);
    await inState(el, 'editing');
    dismissButton(el).focus();
    dismissButton(el).click();
    await inState(el, 'hidden');
    await waitUntil(() => deepActive() === root.getElementById('chat'), `focus is on ${deepActive()?.localName}`);
  });

  it('focusReturnTarget wins over the composer', async () => {
    t.open(S1, 'sf-1', simple);
    const { el, page } = await pageWithComposer('composer');
    const other = page.querySelector<HTMLInputElement>('#other')!;
    el.focusReturnTarget = other;
    await inState(el, 'editing');
    submitButton(el).focus();
    submitButton(el).click();
    await inState(el, 'pending');
    await waitUntil(() => deepActive() === other);
  });

  it("while sending focus waits on the Dock's title; after a refused submit it is back on Submit, never on <body>", async () => {
    t.open(S1, 'sf-1', simple);
    const el = await mountDock(t, S1);
    await inState(el, 'editing');
    let refuse!: () => void;
    t.onSubmit = () =>
      new Promise((resolve) => {
        refuse = () => resolve({ accepted: false, reason: 'stale' });
      });
    submitButton(el).focus();
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => el.state === 'submitting');
    await waitUntil(() => deepActive() === inDock(el, '.title'), `while sending, focus is on ${deepActive()?.localName}`);
    refuse();
    await inState(el, 'rejected');
    await waitUntil(() => deepActive() === submitButton(el), `focus is on ${deepActive()?.localName}`);
    expect(document.activeElement).to.not.equal(document.body);
  });

  it('after a refusal focus stays where the person moved it meanwhile', async () => {
    const elsewhere = fixtureSync<HTMLInputElement>(html`<input aria-label="Elsewhere">`);
    t.open(S1, 'sf-1', simple);
    const el = await mountDock(t, S1);
    await inState(el, 'editing');
    let refuse!: () => void;
    t.onSubmit = () =>
      new Promise((resolve) => {
        refuse = () => resolve({ accepted: false, reason: 'stale' });
      });
    submitButton(el).focus();
    submitButton(el).click();
    await waitUntil(() => el.state === 'submitting');
    elsewhere.focus();
    refuse();
    await inState(el, 'rejected');
    await el.updateComplete;
    expect(document.activeElement).to.equal(elsewhere);
  });

  it('after a refused dismissal focus is back on Dismiss', async () => {
    t.open(S1, 'sf-1', simple);
    const el = await mountDock(t, S1);
    await inState(el, 'editing');
    t.onDismiss = async () => ({ dismissed: false, reason: 'stale' });
    dismissButton(el).focus();
    await sendKeys({ press: 'Enter' });
    await inState(el, 'rejected');
    await waitUntil(() => deepActive() === dismissButton(el), `focus is on ${deepActive()?.localName}`);
  });
});
