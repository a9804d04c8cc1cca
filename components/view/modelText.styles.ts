import { css } from 'lit';

/**
 * Text the model wrote: isolated from the chrome around it (`dir="auto"` on the element, and
 * `unicode-bidi: isolate` here, so an RTL override cannot reorder a label or a badge), broken
 * anywhere rather than widening the page, and `.clamp`ed to a few lines where it names
 * something (titles, labels); the full text stays in the element's `title` and its accessible name.
 */
export const modelTextStyles = css`
  .model-text { unicode-bidi: isolate; overflow-wrap: anywhere; }
  .clamp { display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: var(--_clamp-lines, 3); line-clamp: var(--_clamp-lines, 3); overflow: hidden; }
`;
