import { html } from 'lit';
import type { Example, Look } from '../examples.js';
import { createDocsHost, lastCardCall, proposeCard, type DocsHost } from '../live/docsHost.js';
import type { CallId, JsonValue, SessionId } from '../../protocol/index.js';

const CARD_SNIPPET = `<!-- Below the answer whose turn proposed it (its propose_action call id): -->
<action-card session-id="s1" call-id="call-1" heading-level="3"></action-card>
<script type="module">
  import { registerShippedCardBodies } from 'task-surface/components';
  registerShippedCardBodies(); // the bodies of create_page and schedule_follow_up
  const card = document.querySelector('action-card');
  card.transport = transport;
  card.addEventListener('task-surface-card-acted', (e) => console.log(e.detail.verb, e.detail.result));
</script>`;

const page = {
  action: 'create_page',
  title: 'Save as a page',
  brief: 'Keep the launch plan as a page you can reopen and edit.',
  details: { pageTitle: 'Launch plan', sections: ['Steps', 'Owners'] },
};
const followUp = () => ({
  action: 'schedule_follow_up',
  title: 'Follow up in a week',
  brief: 'Check the ledger service latency in a week.',
  details: { topic: 'Ledger service latency', suggestedAt: new Date(Date.now() + 7 * 86_400_000).toISOString().replace(/\.\d+Z$/, 'Z') },
});

const card = (docs: DocsHost, sessionId: SessionId, callId: string) => (look: Look) =>
  html`<action-card
    .transport=${docs.transport}
    session-id=${sessionId}
    call-id=${callId}
    heading-level="3"
    lang=${look.lang}
    theme=${look.theme}
  ></action-card>`;

/** A session whose agent proposed `proposal`; then `verb` (if any) acted on it as the reader. */
async function proposed(skill: string, proposal: JsonValue, options: { verb?: string; failingPages?: boolean } = {}) {
  const docs = createDocsHost({ failingPages: options.failingPages ?? false });
  const sessionId = await docs.openWith(proposeCard(skill, proposal));
  const callId = lastCardCall(await docs.events(sessionId));
  if (!callId) throw new Error('the card was not proposed');
  if (options.verb) await docs.reader.actionCards.act({ sessionId, callId: callId as CallId, verb: options.verb });
  await docs.host.whenIdle(sessionId);
  return card(docs, sessionId, callId);
}

/** `action-card`: one optional action below an answer. */
export const cardExamples: Example[] = [
  {
    id: 'pending',
    title: 'Pending',
    about:
      'The agent proposed a card; nothing runs until the person acts. Press "Create page" (or Not now): the Host runs the kind\'s handler and records the decision.',
    snippet: CARD_SNIPPET,
    restartable: true,
    setup: () => proposed('create-page', page),
  },
  {
    id: 'done',
    title: 'Done',
    about: 'The person created the page: the card shows the recorded phase (`created`) and its result.',
    snippet: CARD_SNIPPET,
    setup: () => proposed('create-page', page, { verb: 'create' }),
  },
  {
    id: 'failed',
    title: 'Failed',
    about: "The page store refused (this Host's store is full): the card records `failed`, says why, and offers the action again.",
    snippet: CARD_SNIPPET,
    restartable: true,
    setup: () => proposed('create-page', page, { verb: 'create', failingPages: true }),
  },
  {
    id: 'follow-up',
    title: 'A kind with a form: schedule a follow-up',
    about: "A kind's body can carry inputs (here the date and time): the card sends them with the verb.",
    snippet: CARD_SNIPPET,
    restartable: true,
    setup: () => proposed('schedule-follow-up', followUp()),
  },
];
