import { LitElement, css, html } from 'lit';
import { property } from 'lit/decorators.js';
import { LazyModulesController, settledUpdate } from '../shared/lazy.js';
import { themeStyles } from '../shared/theme.js';
import { renderMarkdown, type RemoteImages } from './markdown.js';
import { markdownStyles } from './markdown.styles.js';

/**
 * Renders markdown under the model-URL policy: no raw HTML, no linkify, only absolute http(s)
 * links (opened in a new tab on click), and images as their alt text unless the page opts in
 * with `remote-images="render"`: by default model text can make the browser request nothing.
 *
 * @csspart base - The wrapper of the rendered markdown.
 * @cssproperty --task-surface-fg - Text colour (default: inherited from the page).
 * @cssproperty --task-surface-accent - Link colour.
 */
export class TaskSurfaceMarkdown extends LitElement {
  // Text takes the page's colour (markdown sits inside the page's own bubbles); links and code use the theme.
  static override styles = [
    themeStyles,
    markdownStyles,
    css`:host { display: block; min-width: 0; color: var(--task-surface-fg, inherit); }`,
  ];

  /** The markdown source. */
  @property() accessor text = '';
  /** `alt-only` (default) renders images as their alt text; `render` (an explicit opt-in) shows http(s) images. */
  @property({ attribute: 'remote-images' }) accessor remoteImages: RemoteImages = 'alt-only';
  /** Added to heading levels (capped at 6). */
  @property({ type: Number, attribute: 'heading-offset' }) accessor headingOffset = 0;

  constructor() {
    super();
    new LazyModulesController(this); // the parser loads on first use: render again when it lands
  }

  /** Resolves once the markdown shows rendered, not as the plain-text placeholder. */
  protected override getUpdateComplete(): Promise<boolean> {
    return settledUpdate(() => super.getUpdateComplete());
  }

  override render() {
    // Anything but the exact opt-in (a typo, an empty attribute) keeps images as text.
    const remoteImages = this.remoteImages === 'render' ? 'render' : 'alt-only';
    return html`<div class="md" part="base">${renderMarkdown(this.text, { remoteImages, headingOffset: this.headingOffset })}</div>`;
  }
}

if (!customElements.get('task-surface-markdown')) customElements.define('task-surface-markdown', TaskSurfaceMarkdown);

declare global {
  interface HTMLElementTagNameMap {
    'task-surface-markdown': TaskSurfaceMarkdown;
  }
}
