import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys, setViewport } from '@web/test-runner-commands';
import '../../components/action-card/action-card.js';
import type { ActionCard } from '../../components/action-card/action-card.js';
import { registerShippedCardBodies } from '../../components/action-card/kinds/index.js';
import type { ActRequest, ActResult, CardProposal, SessionView } from '../../protocol/index.js';
import type { HostTransport, SessionListener } from '../../transport/types.js';
import { onPage } from '../browser/onPage.js';

registerShippedCardBodies();

const followUp: CardProposal = {
  callId: 'c2' as CardProposal['callId'],
  action: 'schedule_follow_up',
  title: 'Follow up next week',
  brief: 'Check how the visa application went.',
  details: { topic: 'Visa application', suggestedAt: '2026-12-06T09:00:00Z' },
  seq: 8,
};

function transportAnswering(answer: (request: ActRequest) => Promise<ActResult>) {
  const calls: ActRequest[] = [];
  const view = {
    sessionId: 's1',
    lastSeq: 10,
    readOnly: false,
    turn: 'idle',
    taskSurface: { active: null },
    queue: [],
    actionCards: { proposals: [followUp], decisions: {} },
  } as unknown as SessionView;
  const transport = {
    watchSession(_id: unknown, listener: SessionListener) {
      listener(view);
      return () => {};
    },
    actionCards: {
      act: (request: ActRequest) => {
        calls.push(request);
        return answer(request);
      },
    },
  } as unknown as HostTransport;
  return { transport, calls };
}

const settle = async (el: ActionCard) => {
  for (let i = 0; i < 10; i++) {
    await Promise.resolve();
    await el.updateComplete;
  }
};
/** A plain wrapper, not `fixture`: fixture waits a frame for non-Lit elements, and a background tab draws none. */
function mountIn(transport: HostTransport, attrs: { lang?: string; theme?: string }): HTMLDivElement {
  const wrapper = onPage(document.createElement('div'));
  const before = wrapper.appendChild(document.createElement('button'));
  before.id = 'before';
  before.textContent = 'before';
  const el = wrapper.appendChild(document.createElement('action-card'));
  Object.assign(el, { sessionId: 's1', callId: 'c2', lang: attrs.lang ?? 'en', transport });
  if (attrs.theme) el.theme = attrs.theme as 'light' | 'dark';
  return wrapper;
}
const focused = (el: ActionCard) => el.shadowRoot!.activeElement as HTMLElement | null;
const alert = (el: ActionCard) => el.shadowRoot!.querySelector('[role="alert"]')?.textContent;

describe('action-card keyboard and words', () => {
  it('is operated with the keyboard alone, every stop named and with a visible focus ring', async () => {
    const fake = transportAnswering(async () => ({ status: 'accepted', phase: 'scheduled' }));
    const wrapper = mountIn(fake.transport, { theme: 'dark' });
    const el = wrapper.querySelector('action-card')!;
    await settle(el);
    wrapper.querySelector<HTMLButtonElement>('#before')!.focus();
    const stops: string[] = [];
    // A datetime-local input takes one Tab per part (month, day, year, …): count it once.
    for (let i = 0; i < 12 && stops.at(-1) !== 'Not now'; i++) {
      await sendKeys({ press: 'Tab' });
      const at = focused(el)!;
      const name = at.localName === 'input' ? at.closest('label')!.textContent!.trim() : at.textContent!.trim();
      if (at.localName !== 'input') expect(getComputedStyle(at).outlineStyle, `focus ring on ${name}`).to.equal('solid');
      if (stops.at(-1) !== name) stops.push(name);
    }
    expect(stops).to.deep.equal(['Follow-up time', 'Schedule', 'Not now']);
    await sendKeys({ down: 'Shift' });
    await sendKeys({ press: 'Tab' });
    await sendKeys({ up: 'Shift' });
    expect(focused(el)!.textContent!.trim()).to.equal('Schedule');
    await sendKeys({ press: 'Enter' });
    await settle(el);
    expect(fake.calls.map((c) => c.verb)).to.deep.equal(['schedule']);
  });

  const known = {
    en: {
      closing: 'The agent is shutting down. Try again in a moment.',
      'not-live-root': 'This conversation is not active right now. Reopen it and try again.',
      unknown: 'This card is no longer known to the conversation.',
      unavailable: 'This action is not available right now.',
      'access-denied': 'You do not have permission to do this here.',
      'read-only': 'This conversation is read-only, so this action cannot run.',
      'brand-new-reason': 'This action is not available right now.',
      'in-the-past': 'That time has passed. Choose a later time.',
    },
    zh: {
      closing: '助手正在关闭，请稍后再试。',
      'not-live-root': '此对话当前未激活。请重新打开后再试。',
      unknown: '对话中已找不到这张卡片。',
      unavailable: '此操作当前不可用。',
      'access-denied': '你无权在此执行此操作。',
      'read-only': '此对话为只读，无法执行此操作。',
      'brand-new-reason': '此操作当前不可用。',
      'in-the-past': '该时间已过，请选择更晚的时间。',
    },
  };
  for (const [lang, table] of Object.entries(known)) {
    it(`names every service refusal reason, the kind's own, and others as unavailable (${lang})`, async () => {
      let reason = '';
      const fake = transportAnswering(async () => ({ status: 'refused', reason }));
      const el = await fixture<ActionCard>(
        html`<action-card session-id="s1" call-id="c2" lang=${lang} .transport=${fake.transport}></action-card>`,
      );
      await el.updateComplete;
      for (const [next, words] of Object.entries(table)) {
        reason = next;
        await el.act('schedule');
        await settle(el);
        expect(alert(el), next).to.equal(words);
      }
    });
  }

  it('its events bubble out of shadow roots, and axe finds nothing at 320 px in both themes and languages', async () => {
    await setViewport({ width: 320, height: 640 });
    const fake = transportAnswering(async () => ({ status: 'refused', reason: 'read-only' }));
    for (const theme of ['light', 'dark']) {
      for (const lang of ['en', 'zh']) {
        const wrapper = mountIn(fake.transport, { lang, theme });
        const el = wrapper.querySelector('action-card')!;
        await settle(el);
        const seen: string[] = [];
        for (const type of ['task-surface-card-act-request', 'task-surface-card-acted'] as const) {
          wrapper.addEventListener(type, (e) => {
            expect(e.composed && e.bubbles).to.equal(true);
            seen.push(e.type);
          });
        }
        await el.act('schedule');
        await settle(el);
        expect(seen).to.deep.equal(['task-surface-card-act-request', 'task-surface-card-acted']);
        await expect(el).to.be.accessible();
        wrapper.remove(); // before the next language and theme: one card on the page at a time
      }
    }
    await setViewport({ width: 800, height: 600 });
  });
});
