import { expect, waitUntil } from '@open-wc/testing';
import { html } from 'lit';
import '../../components/action-card/action-card.js';
import type { ActionCard } from '../../components/action-card/action-card.js';
import { registerCardBodyLoader, type CardBody } from '../../components/action-card/bodies.js';
import type { CardProposal, SessionView } from '../../protocol/index.js';
import type { HostTransport } from '../../transport/types.js';
import { inTime } from '../browser/waits.js';

/** A transport serving one card of `action`. */
function transportFor(action: string): HostTransport {
  const proposal = {
    callId: 'c1',
    action,
    title: 'Plan a trip',
    brief: 'Makes a plan.',
    details: { where: 'Kyoto' },
    seq: 1,
  } as unknown as CardProposal;
  const view = {
    sessionId: 's1',
    lastSeq: 2,
    readOnly: false,
    turn: 'idle',
    taskSurface: { active: null },
    queue: [],
    actionCards: { proposals: [proposal], decisions: {} },
  } as unknown as SessionView;
  return {
    watchSession(_id: unknown, listener: (v: SessionView) => void) {
      listener(view);
      return () => {};
    },
  } as unknown as HostTransport;
}

type Trip = { where: string };
const tripBody = (action: string): CardBody<Trip> => ({
  action,
  details: { safeParse: (input: unknown) => ({ success: true as const, data: input as Trip }) },
  verbs: [{ verb: 'go', label: { en: 'Go', zh: '出发' }, phases: ['proposed'], primary: true }],
  render: (details) => html`<p class="where">${details.where}</p>`,
});

/** Mounts a card without awaiting it (`fixture` awaits updateComplete, which waits for the body). */
function mount(action: string, lang: string): ActionCard {
  const el = document.createElement('action-card') as ActionCard;
  el.setAttribute('session-id', 's1');
  el.setAttribute('call-id', 'c1');
  el.setAttribute('lang', lang);
  el.transport = transportFor(action);
  document.body.append(el);
  return el;
}
const text = (el: ActionCard) => (el.shadowRoot?.textContent ?? '').replace(/\s+/g, ' ');
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('action-card with a body that loads on first use', () => {
  it('says it is loading, in zh too, until the body arrives; then renders it, and updateComplete waits for that', async () => {
    let arrive!: (body: CardBody<Trip>) => void;
    const dispose = registerCardBodyLoader(
      'trip_zh',
      () =>
        new Promise<CardBody<Trip>>((resolve) => {
          arrive = resolve;
        }),
    );
    const el = mount('trip_zh', 'zh');
    try {
      await waitUntil(() => text(el).includes('正在加载卡片…'), 'the loading line in zh');
      expect(el.shadowRoot!.querySelector('[role="status"].loading')).not.to.equal(null);
      expect(text(el)).to.contain('Plan a trip');
      expect(text(el)).not.to.contain('无法在此显示这张卡片。');
      let completed = false;
      const done = el.updateComplete.then(() => {
        completed = true;
      });
      await settle();
      expect(completed, 'updateComplete waits for the body').to.equal(false);
      arrive(tripBody('trip_zh'));
      await inTime(done, 'updateComplete once the body arrived');
      expect(el.shadowRoot!.querySelector('.where')!.textContent).to.equal('Kyoto');
      expect([...el.shadowRoot!.querySelectorAll('button')].map((b) => b.textContent!.trim())).to.include('出发');
      expect(text(el)).not.to.contain('正在加载卡片…');
    } finally {
      el.remove();
      dispose();
    }
  });

  it('says the card cannot be shown when its body fails to load, and does not keep retrying', async () => {
    let calls = 0;
    const dispose = registerCardBodyLoader('trip_fail', async () => {
      calls++;
      throw new Error('chunk missing');
    });
    const el = mount('trip_fail', 'en');
    try {
      await el.updateComplete;
      await waitUntil(() => text(el).includes('This card cannot be shown here.'), 'the failure is said');
      expect(text(el)).not.to.contain('Loading the card…');
      el.requestUpdate();
      await el.updateComplete;
      expect(calls, 'renders after the failure do not fetch again').to.equal(1);
    } finally {
      el.remove();
      dispose();
    }
  });

  it('rejects a loaded body for another action', async () => {
    const dispose = registerCardBodyLoader('trip_wrong', async () => tripBody('something_else'));
    const el = mount('trip_wrong', 'en');
    try {
      await el.updateComplete;
      await waitUntil(() => text(el).includes('This card cannot be shown here.'));
      expect(el.shadowRoot!.querySelector('.where')).to.equal(null);
    } finally {
      el.remove();
      dispose();
    }
  });
});
