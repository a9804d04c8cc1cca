import { aTimeout, expect, fixture, html, waitUntil } from '@open-wc/testing';
import { ContextProvider } from '@lit/context';
import { render, type TemplateResult } from 'lit';
import '../../components/action-card/action-card.js';
import type { ActionCard } from '../../components/action-card/action-card.js';
import { registerShippedCardBodies } from '../../components/action-card/kinds/index.js';
import { transportContext } from '../../components/shared/context.js';
import type { ActRequest, ActResult, CardDecision, CardProposal, SessionView } from '../../protocol/index.js';
import type { HostTransport, SessionListener } from '../../transport/types.js';

registerShippedCardBodies();

const page: CardProposal = {
  callId: 'c1' as CardProposal['callId'],
  action: 'create_page',
  title: 'Save as a page',
  brief: 'Keeps this trip plan as an editable page.',
  details: { pageTitle: 'Kyoto in three days', sections: ['Day 1', 'Day 2'] },
  seq: 4,
};
const followUp: CardProposal = {
  callId: 'c2' as CardProposal['callId'],
  action: 'schedule_follow_up',
  title: 'Follow up next week',
  brief: 'Check how the visa application went.',
  details: { topic: 'Visa application', suggestedAt: '2026-12-06T09:00:00Z' },
  seq: 8,
};

/** A transport that serves one session view and answers acts from a script. */
function fakeTransport(proposals: CardProposal[], decisions: Record<string, CardDecision> = {}) {
  const listeners = new Set<SessionListener>();
  const calls: ActRequest[] = [];
  let answer: (request: ActRequest) => Promise<ActResult> = async () => ({ status: 'accepted', phase: 'created' });
  const view = (): SessionView => ({
    sessionId: 's1' as SessionView['sessionId'],
    lastSeq: 10,
    readOnly: false,
    turn: 'idle',
    taskSurface: {} as SessionView['taskSurface'],
    queue: [],
    actionCards: { proposals, decisions },
  });
  const transport = {
    watchSession(_id: unknown, listener: SessionListener) {
      listeners.add(listener);
      listener(view());
      return () => void listeners.delete(listener);
    },
    actionCards: {
      act: (request: ActRequest) => {
        calls.push(request);
        return answer(request);
      },
    },
  } as unknown as HostTransport;
  return {
    transport,
    calls,
    answer: (fn: typeof answer) => {
      answer = fn;
    },
    decide(callId: string, phase: string, data = {}) {
      decisions = { ...decisions, [callId]: { callId: callId as CardDecision['callId'], action: 'create_page', phase, data, seq: 20 } };
      for (const listener of listeners) listener(view());
    },
  };
}

const mount = async (fake: ReturnType<typeof fakeTransport>, callId = 'c1', lang = 'en') => {
  const el = await fixture<ActionCard>(
    html`<action-card session-id="s1" call-id=${callId} lang=${lang} .transport=${fake.transport}></action-card>`,
  );
  await el.updateComplete;
  return el;
};
/** A plain wrapper, not `fixture`: fixture waits a frame for non-Lit elements, and a background tab draws none. */
function plainWrapper(template: TemplateResult): HTMLDivElement {
  const wrapper = document.body.appendChild(document.createElement('div'));
  render(template, wrapper);
  wrappers.push(wrapper);
  return wrapper;
}
const wrappers: HTMLElement[] = [];
afterEach(() => {
  for (const w of wrappers.splice(0)) w.remove();
});
/** The focused element, through every shadow root. */
function deepActive(): Element | null {
  let a: Element | null = document.activeElement;
  while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
  return a;
}
const $ = (el: ActionCard, selector: string) => el.shadowRoot!.querySelector<HTMLElement>(selector);
const buttons = (el: ActionCard) => [...el.shadowRoot!.querySelectorAll<HTMLButtonElement>('button')];
/** Lets the act promise chain and the element's update finish (microtasks only: timers are throttled in background tabs). */
const settle = async (el: ActionCard) => {
  for (let i = 0; i < 10; i++) {
    await Promise.resolve();
    await el.updateComplete;
  }
};

describe('action-card', () => {
  it('renders the frame, the kind body, a button per verb, Not now and the process row', async () => {
    const el = await mount(fakeTransport([page]));
    expect($(el, '[part="title"]')!.textContent).to.contain('Save as a page');
    expect($(el, '[part="brief"]')!.textContent).to.equal('Keeps this trip plan as an editable page.');
    expect([...el.shadowRoot!.querySelectorAll('li')].map((li) => li.textContent)).to.deep.equal(['Day 1', 'Day 2']);
    expect(buttons(el).map((b) => b.textContent!.trim())).to.deep.equal(['Create page', 'Not now']);
    expect($(el, '[part="process"]')!.textContent!.trim(), 'no permanent "Status: Not started"').to.equal('');
    expect($(el, '[part="process"]')!.getAttribute('role'), 'the live region is there before anything happens').to.equal('status');
    await expect(el).to.be.accessible();
  });

  it('calls actionCards.act, disables every control while it runs, then shows the recorded phase', async () => {
    const fake = fakeTransport([page]);
    let finish!: (r: ActResult) => void;
    fake.answer(
      () =>
        new Promise((resolve) => {
          finish = resolve;
        }),
    );
    const el = await mount(fake);
    buttons(el)[0]!.click();
    await el.updateComplete;
    expect(fake.calls).to.deep.equal([{ sessionId: 's1', callId: 'c1', verb: 'create' }]);
    expect(buttons(el).every((b) => b.disabled)).to.equal(true);
    expect($(el, '[part="process"]')!.textContent).to.contain('Working…');
    buttons(el)[1]!.click();
    expect(fake.calls.length).to.equal(1);
    fake.decide('c1', 'created', { pageId: 'page-1', url: 'https://pages.example/page-1' });
    finish({ status: 'accepted', phase: 'created' });
    await settle(el);
    expect($(el, '[part="process"]')!.textContent).to.contain('Page created');
    expect($(el, 'a')!.getAttribute('href')).to.equal('https://pages.example/page-1');
    expect(buttons(el)).to.deep.equal([]);
  });

  it('Not now sends dismiss; a dismissed card offers nothing more', async () => {
    const fake = fakeTransport([page]);
    const el = await mount(fake);
    buttons(el)[1]!.click();
    await settle(el);
    expect(fake.calls[0]!.verb).to.equal('dismiss');
    fake.decide('c1', 'dismissed');
    await el.updateComplete;
    expect(buttons(el)).to.deep.equal([]);
    expect($(el, '[part="process"]')!.textContent).to.contain('Dismissed');
  });

  it('shows refusals in words: known reasons named, the kind’s own, others as unavailable', async () => {
    const fake = fakeTransport([page]);
    const el = await mount(fake);
    const cases: [ActResult, string][] = [
      [{ status: 'refused', reason: 'read-only' }, 'This conversation is read-only, so this action cannot run.'],
      [{ status: 'refused', reason: 'page-limit' }, 'You have reached the page limit. Delete a page and try again.'],
      [{ status: 'refused', reason: 'something-new' }, 'This action is not available right now.'],
      [{ status: 'unconfirmed' }, 'The result could not be confirmed yet. Check back shortly.'],
    ];
    for (const [result, text] of cases) {
      fake.answer(async () => result);
      buttons(el)[0]!.click();
      await settle(el);
      expect($(el, '[role="alert"]')!.textContent).to.equal(text);
    }
    fake.answer(async () => {
      throw new Error('offline');
    });
    buttons(el)[0]!.click();
    await settle(el);
    expect($(el, '[role="alert"]')!.textContent).to.equal('Could not reach the agent. Try again.');
    await expect(el).to.be.accessible();
  });

  it('validates details with the body’s own schema before rendering it', async () => {
    const el = await mount(fakeTransport([{ ...page, details: { pageTitle: 42 } }]));
    expect($(el, '[part="body"]')!.textContent).to.contain('This card cannot be shown here.');
    expect(buttons(el).map((b) => b.textContent!.trim())).to.deep.equal(['Not now']);
  });

  it('a card without a registered body still offers Not now', async () => {
    const el = await mount(fakeTransport([{ ...page, action: 'mystery' }]));
    expect(buttons(el).map((b) => b.textContent!.trim())).to.deep.equal(['Not now']);
  });

  it('a replaced card says so and offers nothing', async () => {
    const fake = fakeTransport([page], { c1: { callId: page.callId, action: 'create_page', phase: 'replaced', data: {}, seq: 9 } });
    const el = await mount(fake);
    expect(buttons(el)).to.deep.equal([]);
    expect($(el, '[part="process"]')!.textContent).to.contain('Replaced by a newer suggestion');
  });

  it('sends the chosen follow-up time as the payload, and only for its own card', async () => {
    const fake = fakeTransport([followUp, { ...followUp, callId: 'c3' as CardProposal['callId'] }]);
    const el = await mount(fake, 'c2');
    const input = $(el, 'input') as HTMLInputElement;
    input.value = '2026-12-07T10:30';
    input.dispatchEvent(new Event('change'));
    buttons(el)[0]!.click();
    await settle(el);
    expect(fake.calls[0]).to.deep.equal({
      sessionId: 's1',
      callId: 'c2',
      verb: 'schedule',
      payload: { at: new Date('2026-12-07T10:30').toISOString() },
    });
    await expect(el).to.be.accessible();
    el.callId = 'c3'; // the element now shows another follow-up card: the time chosen for c2 is neither shown nor sent
    await el.updateComplete;
    expect(($(el, 'input') as HTMLInputElement).value).to.not.equal('2026-12-07T10:30');
    await el.act('schedule');
    expect(fake.calls[1]).to.deep.equal({ sessionId: 's1', callId: 'c3', verb: 'schedule' });
  });

  it('speaks Chinese with lang="zh"', async () => {
    const el = await mount(fakeTransport([page]), 'c1', 'zh');
    expect(buttons(el).map((b) => b.textContent!.trim())).to.deep.equal(['创建页面', '暂不']);
    expect($(el, '[part="process"]')!.textContent!.trim()).to.equal('');
    expect($(el, '[part="base"]')!.getAttribute('lang')).to.equal('zh-Hans');
    await expect(el).to.be.accessible();
  });

  it('is accessible in the dark theme, with a refusal showing', async () => {
    const fake = fakeTransport([page]);
    const el = await mount(fake);
    el.theme = 'dark';
    fake.answer(async () => ({ status: 'refused', reason: 'access-denied' }));
    buttons(el)[0]!.click();
    await settle(el);
    expect(el.getAttribute('theme')).to.equal('dark');
    expect($(el, '[role="alert"]')!.textContent).to.equal('You do not have permission to do this here.');
    await expect(el).to.be.accessible();
  });

  it('Not now and the main action leave focus on the status line, not <body>', async () => {
    for (const [index, phase, words] of [
      [1, 'dismissed', 'Dismissed'],
      [0, 'created', 'Page created'],
    ] as const) {
      const fake = fakeTransport([page]);
      const el = await mount(fake);
      const button = buttons(el)[index]!;
      button.focus();
      button.click();
      await settle(el);
      fake.decide('c1', phase, phase === 'created' ? { url: 'https://pages.example/p' } : {});
      await waitUntil(() => deepActive()?.getAttribute('part') === 'process', `focus on the status line after ${words}`);
      expect(deepActive()!.textContent).to.contain(words);
    }
  });

  it('does not take focus from elsewhere when the answer arrives', async () => {
    const fake = fakeTransport([page]);
    const wrapper = plainWrapper(
      html`<input id="composer" aria-label="Message"><action-card session-id="s1" call-id="c1" .transport=${fake.transport}></action-card>`,
    );
    const el = wrapper.querySelector('action-card')!;
    await el.updateComplete;
    buttons(el)[1]!.click();
    wrapper.querySelector<HTMLInputElement>('#composer')!.focus();
    await settle(el);
    fake.decide('c1', 'dismissed');
    await aTimeout(100);
    expect(document.activeElement!.id).to.equal('composer');
  });

  it('a dismissed card shrinks to its title and status', async () => {
    const fake = fakeTransport([page]);
    const el = await mount(fake);
    const before = el.getBoundingClientRect().height;
    fake.decide('c1', 'dismissed');
    await el.updateComplete;
    expect($(el, '[part="brief"]')).to.equal(null);
    expect($(el, '[part="body"]')).to.equal(null);
    expect(el.getBoundingClientRect().height).to.be.below(before / 2);
    expect($(el, '[part="process"]')!.textContent).to.contain('Dismissed');
    await expect(el).to.be.accessible();
  });

  it('takes its heading level from the page (default 2) and passes axe heading-order under an h1', async () => {
    const fake = fakeTransport([page]);
    const wrapper = plainWrapper(html`<h1>Chat</h1><action-card session-id="s1" call-id="c1" .transport=${fake.transport}></action-card>`);
    const el = wrapper.querySelector('action-card')!;
    await el.updateComplete;
    expect($(el, '.title')!.tagName).to.equal('H2');
    await expect(wrapper).to.be.accessible();
    el.setAttribute('heading-level', '4');
    await el.updateComplete;
    expect($(el, '.title')!.tagName).to.equal('H4');
  });

  it('clamps a huge title and brief and keeps the full text', async () => {
    const long: CardProposal = { ...page, title: 'T'.repeat(55_000), brief: `${'b'.repeat(20_000)}\u202E` };
    const el = await mount(fakeTransport([long]));
    el.style.width = '400px';
    await el.updateComplete;
    expect(el.getBoundingClientRect().height).to.be.below(500);
    expect(el.getBoundingClientRect().width).to.be.at.most(400);
    expect($(el, '.title')!.getAttribute('title')).to.equal(long.title);
    expect($(el, '[part="brief"]')!.getAttribute('dir')).to.equal('auto');
  });

  it("writes dates in the language's own format", async () => {
    for (const [lang, pattern] of [
      ['en', /Dec \d{1,2}, 2026/],
      ['zh', /2026年12月\d{1,2}日/],
    ] as const) {
      const fake = fakeTransport([followUp], {
        c2: {
          callId: 'c2' as CardDecision['callId'],
          action: 'schedule_follow_up',
          phase: 'scheduled',
          data: { at: '2026-12-06T12:00:00Z' },
          seq: 20,
        },
      });
      const el = await mount(fake, 'c2', lang);
      expect($(el, 'time')!.textContent).to.match(pattern);
      expect($(el, 'time')!.getAttribute('datetime')).to.equal('2026-12-06T12:00:00Z');
    }
  });

  it('a cancelable act-request event lets the page veto', async () => {
    const fake = fakeTransport([page]);
    const el = await mount(fake);
    el.addEventListener('task-surface-card-act-request', (e) => e.preventDefault());
    buttons(el)[0]!.click();
    await settle(el);
    expect(fake.calls).to.deep.equal([]);
  });

  it('takes the transport from an ancestor context', async () => {
    const fake = fakeTransport([page]);
    // A plain wrapper, not `fixture`: fixture waits a frame for non-Lit elements, and a background tab draws none.
    const wrapper = document.body.appendChild(document.createElement('div'));
    wrappers.push(wrapper);
    new ContextProvider(wrapper, { context: transportContext, initialValue: fake.transport });
    const el = document.createElement('action-card');
    el.sessionId = 's1';
    el.callId = 'c1';
    wrapper.append(el);
    await settle(el);
    expect(buttons(el).length).to.equal(2);
  });
});
