import { html, render } from 'lit';
import { SITE_PAGES } from './pages.js';
import { snippet } from './snippet.js';

const QUICK_START = `<task-surface-toolview name="show_task_surface" session-id="s1"></task-surface-toolview> <!-- per result row -->
<task-surface-dock session-id="s1" lang="en"></task-surface-dock>                          <!-- once, above the composer -->
<script type="module">
  import { createWebSocketTransport } from '/assets/task-surface.js';
  const transport = createWebSocketTransport({ url: \`wss://\${location.host}/ws\` });
  for (const el of document.querySelectorAll('task-surface-dock, task-surface-toolview')) el.transport = transport;
</script>`;

/** The overview: what the package is, where each page goes, the quick start. */
export function renderHome(main: HTMLElement): void {
  const link = (file: string) => `./${file}`;
  render(
    html`<h1>task-surface</h1>
      <p class="lead">
        A declarative task panel and optional action cards for AI chat products. An agent calls <code>show_task_surface</code> with a small
        JSON model; the page shows it in the <strong>Dock</strong> above the composer; the person's answer becomes exactly one ordinary
        user message that starts the next turn.
      </p>
      <h2>The elements</h2>
      <p>Each page shows every state live, on a Host running in the page, with the element's API beside it and code to copy.</p>
      <ul class="cards">
        ${SITE_PAGES.filter((p) => p.kind === 'element').map((p) => html`<li><a href=${link(p.file)}><code>${p.title}</code></a></li>`)}
      </ul>
      <h2>Try a model</h2>
      <p>
        The <a href="./playground.html">playground</a> takes a model's JSON and shows the issues the agent would read, the live panel, the
        user message a submit becomes, and the tool declaration for OpenAI, Anthropic and MCP. Its address carries the model, so a link
        reproduces it.
      </p>
      <h2>Rules and specifications</h2>
      <ul>
        ${SITE_PAGES.filter((p) => p.kind === 'markdown').map((p) => html`<li><a href=${link(p.file)}>${p.title}</a></li>`)}
      </ul>
      <h2>Quick start</h2>
      ${snippet(QUICK_START, 'A page with the drop-in bundle')}
      <p class="small">
        This site is built by <code>npm run docs</code> into <code>dist/docs/</code> and served by <code>npm start</code> at
        <code>/docs/</code>. It loads nothing from another origin and runs under the demo's Content-Security-Policy with Trusted Types.
      </p>`,
    main,
  );
}
