import { html } from 'lit';
import type { Example, Look } from '../examples.js';
import { createDocsHost, lastPanelResult, showPanel, type DocsHost } from '../live/docsHost.js';
import { everyKindModel, pickPlan } from '../live/models.js';
import { dismiss, submitInitial } from '../live/submit.js';
import type { SessionId, ToolResultEvent } from '../../protocol/index.js';

const ROW_SNIPPET = `<!-- For each show_task_surface result row of the transcript: -->
<task-surface-toolview name="show_task_surface" session-id="s1" heading-level="3"></task-surface-toolview>
<script type="module">
  const row = document.querySelector('task-surface-toolview');
  row.content = result.content; // the tool result's text (the fallback)
  row.meta = result.meta;       // its presentationMeta: the model, read-only
  row.transport = transport;    // the row follows the surface: Open, Submitted, Dismissed, Answered in chat
</script>`;

const row = (docs: DocsHost, sessionId: SessionId, result: ToolResultEvent) => (look: Look) =>
  html`<task-surface-toolview
    name=${result.name}
    .content=${result.content}
    .meta=${result.meta}
    .transport=${docs.transport}
    session-id=${sessionId}
    heading-level="3"
    lang=${look.lang}
    theme=${look.theme}
  ></task-surface-toolview>`;

/** A session whose panel was shown, then `then` did something to it; the row of its result. */
async function rowAfter(then: (docs: DocsHost, sessionId: SessionId) => Promise<void>) {
  const docs = createDocsHost();
  const sessionId = await docs.openWith(showPanel(pickPlan()));
  await then(docs, sessionId);
  await docs.host.whenIdle(sessionId);
  const result = lastPanelResult(await docs.events(sessionId));
  if (!result) throw new Error('the panel was not shown');
  return row(docs, sessionId, result);
}

/** `task-surface-toolview`: the read-only transcript row of a `show_task_surface` result. */
export const toolviewExamples: Example[] = [
  {
    id: 'open',
    title: 'Open',
    about: 'While the panel is open the row points to the Dock (the only editor); "Show the task" replays it read-only.',
    snippet: ROW_SNIPPET,
    setup: () => rowAfter(async () => undefined),
  },
  {
    id: 'submitted',
    title: 'Submitted replay',
    about:
      'The person submitted and the Host made the answer a user message: the row says Submitted and replays the panel with the answers given.',
    snippet: ROW_SNIPPET,
    setup: () => rowAfter((docs, sessionId) => submitInitial(docs, sessionId, pickPlan())),
  },
  {
    id: 'dismissed',
    title: 'Dismissed replay',
    about: 'The person dismissed the panel: the row says Dismissed and replays it without answers.',
    snippet: ROW_SNIPPET,
    setup: () => rowAfter((docs, sessionId) => dismiss(docs, sessionId)),
  },
  {
    id: 'bypassed',
    title: 'Bypassed replay',
    about: 'The person wrote an ordinary message instead: the panel closed as bypassed ("Answered in chat").',
    snippet: ROW_SNIPPET,
    setup: () => rowAfter((docs, sessionId) => docs.say(sessionId, 'Never mind, let us go with plan A.')),
  },
  {
    id: 'every-kind',
    title: 'A larger panel, open',
    about: 'Every block and field kind in the row, replayed read-only.',
    snippet: ROW_SNIPPET,
    async setup() {
      const docs = createDocsHost();
      const sessionId = await docs.openWith(showPanel(everyKindModel()));
      return row(docs, sessionId, lastPanelResult(await docs.events(sessionId))!);
    },
  },
  {
    id: 'fallback',
    title: 'Fallback to the text',
    about:
      "A result whose metadata is missing, of an unknown version or malformed shows the tool's plain text instead: a row never breaks the transcript.",
    snippet: ROW_SNIPPET.replace(
      'row.meta = result.meta;       // its presentationMeta: the model, read-only',
      'row.meta = { presentationMeta: { version: 99 } }; // unknown: the text shows',
    ),
    async setup() {
      return ({ lang, theme }: Look) =>
        html`<task-surface-toolview
          name="show_task_surface"
          .content=${'The task surface "Pick a rollout plan" is shown to the user (surface s-1).'}
          .meta=${{ presentationMeta: { version: 99 } }}
          heading-level="3"
          lang=${lang}
          theme=${theme}
        ></task-surface-toolview>`;
    },
  },
];
