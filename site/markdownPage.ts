import { html, render } from 'lit';
import { currentLook, onLook } from './shell.js';

/**
 * A document of docs/ (copied verbatim into the site's data/), rendered by the project's own
 * `<task-surface-markdown>`: the same policy as model text, so relative links show as their text
 * and the source is linked beside it.
 */
export async function renderMarkdownPage(main: HTMLElement, document: string, title: string): Promise<void> {
  let text = '';
  let error = '';
  const draw = () => {
    const { theme } = currentLook();
    render(
      html`<h1>${title}</h1>
        <p class="source-note">
          The file <code>docs/${document}</code> of the repository, rendered with <code>&lt;task-surface-markdown&gt;</code> (links outside
          http(s) show as text; <a href=${`./data/${document}`}>the markdown source</a>).
        </p>
        ${
          error
            ? html`<p role="alert">${error}</p>`
            : html`<article class="doc" data-loaded=${text ? 'yes' : 'no'}>
              <task-surface-markdown .text=${text} theme=${theme} heading-offset="1"></task-surface-markdown>
            </article>`
        }`,
      main,
    );
  };
  onLook(draw);
  try {
    const response = await fetch(new URL(`./data/${document}`, location.href));
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    text = await response.text();
  } catch (e) {
    error = `docs/${document} did not load: ${String(e)}`;
  }
  draw();
}
