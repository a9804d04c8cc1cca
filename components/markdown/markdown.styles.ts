import { css } from 'lit';

/** Typography of rendered markdown; shared by the markdown element and the renderer. */
export const markdownStyles = css`
  .md { overflow-wrap: break-word; }
  .md :is(p, li, blockquote, h1, h2, h3, h4, h5, h6, th, td) { unicode-bidi: isolate; }
  .md > :first-child { margin-top: 0; }
  .md > :last-child { margin-bottom: 0; }
  .md p, .md ul, .md ol, .md blockquote, .md pre, .md .md-table { margin: 0 0 0.6em; }
  .md h1, .md h2, .md h3, .md h4, .md h5, .md h6 { margin: 0.8em 0 0.4em; line-height: 1.3; }
  .md h1 { font-size: 1.35rem; } .md h2 { font-size: 1.2rem; } .md h3 { font-size: 1.1rem; }
  .md h4, .md h5, .md h6 { font-size: 1rem; }
  .md ul, .md ol { padding-inline-start: 1.4em; }
  .md blockquote { padding-inline-start: 0.8em; border-inline-start: 3px solid var(--_border); color: var(--_muted); }
  .md code { font-family: var(--_mono); font-size: 0.875em; background: var(--_bg-alt); padding: 0.1em 0.3em; border-radius: 4px; }
  .md pre { background: var(--_bg-alt); padding: 0.6em 0.8em; border-radius: 6px; overflow-x: auto; }
  .md pre code { background: none; padding: 0; }
  .md a { color: var(--_accent); text-decoration: underline; }
  .md img { max-width: 100%; }
  .md .md-table { overflow-x: auto; }
  .md table { border-collapse: collapse; }
  .md th, .md td { border: 1px solid var(--_border); padding: 0.25em 0.5em; text-align: start; }
  .md .md-pending { white-space: pre-wrap; margin: 0; }
  .md hr { border: 0; border-top: 1px solid var(--_border); }
`;
