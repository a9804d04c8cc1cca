import { html } from 'lit';
import type { TaskSurfaceValues } from '../../protocol/index.js';
import type { Example } from '../examples.js';
import { bigTable, everyKindModel, reviewModel } from '../live/models.js';

const viewSnippet = (what: string, extra = '') => `<task-surface-view${extra}></task-surface-view>
<script type="module">
  import 'task-surface/components'; // or the drop-in bundle: /assets/task-surface.js
  const view = document.querySelector('task-surface-view');
  view.model = ${what}; // a TaskSurfaceModelV1: parse the agent's JSON with parseTaskSurfaceModel first
  view.addEventListener('task-surface-submit', (e) => console.log(e.detail.values));
</script>`;

const answered: TaskSurfaceValues = {
  env: 'prod',
  targets: ['api', 'web'],
  migrate: false,
  sequence: ['web', 'api', 'worker'],
  reason: 'The worker fix has to land before Friday.',
  ticket: 'OPS-1234',
};

/** `task-surface-view`: the declarative renderer, with no Host (the Dock and the row wrap it). */
export const viewExamples: Example[] = [
  {
    id: 'every-kind',
    title: 'Every block and field kind',
    about:
      'Markdown, metrics, a notice, a table and two diffs, then a choice, a multi-choice, a toggle, an order and two texts (one required). Press the submit button: the view checks required fields and fires `task-surface-submit` with the values.',
    snippet: viewSnippet('model'),
    restartable: true,
    async setup() {
      let submitted = '';
      return ({ lang, theme }) =>
        html`<task-surface-view
            .model=${everyKindModel()}
            lang=${lang}
            theme=${theme}
            heading-level="3"
            @task-surface-submit=${(e: CustomEvent<{ values: TaskSurfaceValues }>) => {
              submitted = JSON.stringify(e.detail.values, null, 2);
              const out = (e.target as HTMLElement).parentElement!.querySelector('output')!;
              out.textContent = submitted;
            }}
          ></task-surface-view>
          <p class="event-label">Last <code>task-surface-submit</code> values:</p>
          <output class="event-out">${submitted || '(not submitted yet)'}</output>`;
    },
  },
  {
    id: 'readonly',
    title: 'Read-only answers',
    about: 'With `readonly` and `values`, the fields become the answers the person gave: what a transcript row replays.',
    snippet: viewSnippet('model', ' readonly').replace(
      "view.addEventListener('task-surface-submit', (e) => console.log(e.detail.values));",
      'view.values = { env: "prod", targets: ["api", "web"] };',
    ),
    async setup() {
      return ({ lang, theme }) =>
        html`<task-surface-view .model=${everyKindModel()} .values=${answered} readonly lang=${lang} theme=${theme} heading-level="3"></task-surface-view>`;
    },
  },
  {
    id: 'big-table',
    title: 'The big table',
    about:
      'A 200-row table (the default limit): the first rows show, and a button shows the rest, so a long table never buries the fields.',
    snippet: viewSnippet(
      '{ version: 1, title: "Services", sections: [{ id: "s", blocks: [{ kind: "table", columns, rows }] }], submit: { label: "Go" } }',
    ),
    async setup() {
      return ({ lang, theme }) =>
        html`<task-surface-view .model=${bigTable()} lang=${lang} theme=${theme} heading-level="3"></task-surface-view>`;
    },
  },
  {
    id: 'diff',
    title: 'The diff',
    about:
      'A `diff` block shows a file before and after as added and removed lines, with its path and language; `before: null` is a new file.',
    snippet: viewSnippet(
      '{ version: 1, title: "Review", sections: [{ id: "c", blocks: [{ kind: "diff", path: "src/retry.ts", before, after }] }], submit: { label: "Send" } }',
    ),
    async setup() {
      return ({ lang, theme }) =>
        html`<task-surface-view .model=${reviewModel()} lang=${lang} theme=${theme} heading-level="3"></task-surface-view>`;
    },
  },
  {
    id: 'disabled',
    title: 'Disabled',
    about: 'With `disabled` every control is off (the Dock uses it while an answer is pending).',
    snippet: viewSnippet('model', ' disabled'),
    async setup() {
      return ({ lang, theme }) =>
        html`<task-surface-view .model=${everyKindModel()} disabled lang=${lang} theme=${theme} heading-level="3"></task-surface-view>`;
    },
  },
];
