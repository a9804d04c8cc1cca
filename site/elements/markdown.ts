import { html } from 'lit';
import type { Example } from '../examples.js';

const SAMPLE = `## Launch checklist

1. Turn on the **feature flags** for staff
2. Run the data migration (\`npm run migrate\`)
3. Watch the dashboards for a day

| Step | Owner |
| --- | --- |
| Flags | Ana |
| Migration | Wei |

> Links stay only when they are absolute http(s): [the runbook](https://example.com/runbook).
> A [relative link](/admin) and a [script link](javascript:alert(1)) render as their text.

![A chart of the error rate](https://example.com/chart.png) — an image shows as its alt text, so nothing is fetched.

\`\`\`ts
await host.whenIdle(sessionId);
\`\`\``;

const snippetFor = (attrs = '') => `<task-surface-markdown${attrs}></task-surface-markdown>
<script type="module">
  import 'task-surface/components';
  document.querySelector('task-surface-markdown').text = modelText; // markdown from the agent
</script>`;

/** `task-surface-markdown`: markdown under the model-URL policy. */
export const markdownExamples: Example[] = [
  {
    id: 'model-text',
    title: 'Model text',
    about:
      'Headings, lists, a table, code, a quote with links and an image. Raw HTML is never parsed, links open in a new tab only when clicked, and no model URL is requested: the image stays its alt text unless the page opts in with `remote-images="render"`.',
    snippet: snippetFor(),
    async setup() {
      return ({ lang, theme }) =>
        html`<task-surface-markdown .text=${SAMPLE} lang=${lang} theme=${theme} heading-offset="1"></task-surface-markdown>`;
    },
  },
  {
    id: 'heading-offset',
    title: 'Heading offset',
    about:
      '`heading-offset="2"` puts a `#` heading at level 3, below the page\'s own headings; levels never skip (a `###` after a `#` is one level down).',
    snippet: snippetFor(' heading-offset="2"'),
    async setup() {
      return ({ lang, theme }) =>
        html`<task-surface-markdown .text=${'# Summary\n\nThe rollout is on track.\n\n### Details\n\nTwo services left.'} lang=${lang} theme=${theme} heading-offset="2"></task-surface-markdown>`;
    },
  },
];
