import { LitElement, css, html } from 'lit';
import { property } from 'lit/decorators.js';
import { themeStyles } from '../shared/theme.js';
import { renderMarkdown, type RemoteImages } from './markdown.js';
import { markdownStyles } from './markdown.styles.js';

/**
 * Renders markdown under the model-URL policy: no raw HTML, no linkify, only absolute http(s)
 * links (opened in a new tab on click), and with `remote-images="alt-only"` images as their alt text.
 *
 * @csspart base - The wrapper of the rendered markdown.
 * @cssproperty --task-surface-fg - Text colour (default: inherited from the page).
 * @cssproperty --task-surface-accent - Link colour.
 */
export class TaskSurfaceMarkdown extends LitElement {
  // Text takes the page's colour (markdown sits inside the page's own bubbles); links and code use the theme.
  static override styles = [themeStyles, markdownStyles, css`:host { display: block; color: var(--task-surface-fg, inherit); }`];

  /** The markdown source. */
  @property() accessor text = '';
  /** `render` (default) shows http(s) images; `alt-only` renders only their alt text. */
  @property({ attribute: 'remote-images' }) accessor remoteImages: RemoteImages = 'render';
  /** Added to heading levels (capped at 6). */
  @property({ type: Number, attribute: 'heading-offset' }) accessor headingOffset = 0;

  override render() {
    return html`<div class="md" part="base">${renderMarkdown(this.text, { remoteImages: this.remoteImages, headingOffset: this.headingOffset })}</div>`;
  }
}

if (!customElements.get('task-surface-markdown')) customElements.define('task-surface-markdown', TaskSurfaceMarkdown);

declare global {
  interface HTMLElementTagNameMap { 'task-surface-markdown': TaskSurfaceMarkdown }
}
