import { css } from 'lit';

/**
 * Text the model wrote: isolated from the chrome around it (`dir="auto"` on the element, and
 * `unicode-bidi: isolate` here, so an RTL override cannot reorder a label or a badge), a long word
 * broken where it would overflow rather than widening the page (`break-word`, not `anywhere`:
 * `anywhere` makes Chromium's min-content sizing quadratic in the word's length, 20,000
 * characters took 0.5 s; so flex and grid items holding it get `min-width: 0`), and `.clamp`ed to a few lines where it names
 * something (titles, labels); the full text stays in the element's `title` and its accessible name.
 */
export const modelTextStyles = css`
  .model-text { unicode-bidi: isolate; overflow-wrap: break-word; }
  .clamp { display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: var(--_clamp-lines, 3); line-clamp: var(--_clamp-lines, 3); overflow: hidden; }
`;
