import { html } from 'lit';
import type { Example, Look } from '../examples.js';
import { createDocsHost, showPanel, type DocsHost } from '../live/docsHost.js';
import { everyKindModel, pickPlan } from '../live/models.js';
import { submitInitial } from '../live/submit.js';
import { compare } from '../../demo/agent/scenarios.js';
import type { SessionId } from '../../protocol/index.js';

const DOCK_SNIPPET = `<task-surface-dock session-id="s1" lang="en"></task-surface-dock> <!-- once, above the composer -->
<script type="module">
  import { createWebSocketTransport } from '/assets/task-surface.js';
  const dock = document.querySelector('task-surface-dock');
  dock.transport = createWebSocketTransport({ url: \`wss://\${location.host}/ws\` });
  // Or, with the Host in the same page: dock.transport = createLocalTransport(host)
  dock.addEventListener('task-surface-submitted', (e) => console.log('sent', e.detail.messageId));
  dock.addEventListener('task-surface-rejected', (e) => console.log('refused', e.detail.reason));
</script>`;

const dock = (docs: DocsHost, sessionId: SessionId) => (look: Look) =>
  html`<task-surface-dock .transport=${docs.transport} session-id=${sessionId} lang=${look.lang} theme=${look.theme}></task-surface-dock>`;

/** Waits until the Dock in `stage` is in `state` (its reflected `state` attribute). */
async function dockIn(stage: HTMLElement, state: string): Promise<HTMLElement> {
  for (let i = 0; i < 500; i++) {
    const el = stage.querySelector<HTMLElement & { state: string }>('task-surface-dock');
    if (el?.state === state) return el;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`the Dock never reached ${state}`);
}

/** `task-surface-dock`: the only editor, on an in-page Host. */
export const dockExamples: Example[] = [
  {
    id: 'open',
    title: 'Open',
    about:
      'The agent called `show_task_surface`; the Dock shows the panel above the composer. Choose, write and press the submit button: the Host turns the answer into one user message and the Dock hides. Collapse, full height, the note and Dismiss work too.',
    snippet: DOCK_SNIPPET,
    restartable: true,
    async setup() {
      const docs = createDocsHost();
      return dock(docs, await docs.openWith(showPanel(compare.model.en)));
    },
  },
  {
    id: 'every-field',
    title: 'Each field kind',
    about:
      'Choice (radio group), multi-choice (checkboxes), toggle (switch), order (a rearrangeable list: Alt+Arrow moves an item) and text, one of them required.',
    snippet: DOCK_SNIPPET,
    restartable: true,
    async setup() {
      const docs = createDocsHost();
      return dock(docs, await docs.openWith(showPanel(everyKindModel())));
    },
  },
  {
    id: 'queued',
    title: 'Pending: queued',
    about:
      'The answer was accepted and waits in the session queue for the agent (this Host admits nothing by itself). Every control is off; the status line says it was sent.',
    snippet: DOCK_SNIPPET,
    async setup() {
      const docs = createDocsHost({ autoAdmit: false });
      const sessionId = await docs.openWith(showPanel(pickPlan()));
      await submitInitial(docs, sessionId, pickPlan());
      return dock(docs, sessionId);
    },
  },
  {
    id: 'claiming',
    title: 'Pending: claiming',
    about:
      'The agent took the queued answer (`host.inbox.claimNext`) and is reading it: the message is not durable yet, and nothing can change.',
    snippet: DOCK_SNIPPET,
    async setup() {
      const docs = createDocsHost({ autoAdmit: false });
      const sessionId = await docs.openWith(showPanel(pickPlan()));
      await submitInitial(docs, sessionId, pickPlan());
      docs.host.inbox.claimNext(sessionId); // held, never committed: the example stays here
      return dock(docs, sessionId);
    },
  },
  {
    id: 'refused',
    title: 'Refused',
    about:
      'This Host lets the reader send one message a minute (`quotas: { messagesPerMinute: 1 }`), and the message that asked for the panel used it. The submit was refused: the reason shows, the answers are kept, and the Dock offers the submit again.',
    snippet: DOCK_SNIPPET,
    restartable: true,
    async setup() {
      const docs = createDocsHost({ quotas: { messagesPerMinute: 1 } });
      return dock(docs, await docs.openWith(showPanel(pickPlan())));
    },
    async after(stage) {
      const el = await dockIn(stage, 'editing');
      // The Dock's own submit button, pressed once: the Host's refusal is what the example shows.
      const view = el.shadowRoot!.querySelector('task-surface-view')!;
      await view.updateComplete;
      view.shadowRoot!.querySelector<HTMLButtonElement>('[part~="submit"]')!.click();
      await dockIn(stage, 'rejected');
      // The press was the page's, not the reader's: leave focus where the reader has it.
      if (el.matches(':focus-within')) (document.activeElement as HTMLElement | null)?.blur();
    },
  },
];
