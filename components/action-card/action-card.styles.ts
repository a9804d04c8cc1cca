import { css } from 'lit';

export const actionCardStyles = css`
  :host { display: block; }
  .base {
    border: 1px solid var(--_border); border-radius: var(--_radius); background: var(--_bg);
    padding: var(--_space); display: grid; grid-template-columns: minmax(0, 1fr); gap: calc(var(--_space) * 0.75); min-width: 0; overflow-wrap: break-word;
  }
  /* Dismissed or replaced: only the title and the status line, smaller. */
  .base.settled { padding: calc(var(--_space) * 0.5) var(--_space); gap: 0.125rem; background: var(--_bg-alt); }
  .settled .title { font-size: 0.875rem; font-weight: 500; --_clamp-lines: 1; }
  .title { margin: 0; font-size: 1rem; font-weight: 600; }
  .brief { --_clamp-lines: 6; }
  .brief { margin: 0.25rem 0 0; color: var(--_muted); font-size: 0.875rem; }
  .body { font-size: 0.875rem; }
  .body p { margin: 0.5rem 0; }
  .body > :first-child { margin-top: 0; }
  .body > :last-child { margin-bottom: 0; }
  .body :is(ul, ol) { margin: 0.25rem 0; padding-inline-start: 1.25rem; }
  .body a { color: var(--_accent); }
  .body label { display: grid; gap: 0.25rem; }
  .body input {
    font: inherit; padding: 0.25rem 0.5rem; border-radius: 6px; border: 1px solid var(--_control-border);
    background: var(--_bg); color: var(--_fg); max-width: 100%; justify-self: start; color-scheme: inherit;
  }
  .actions { display: flex; flex-wrap: wrap; gap: 0.5rem; }
  .process:focus-visible, .refusal:focus-visible { outline: 2px solid var(--_focus); outline-offset: 2px; border-radius: 2px; }
  .process { margin: 0; font-size: 0.8125rem; color: var(--_muted); display: flex; gap: 0.5rem; flex-wrap: wrap; }
  .process .label { font-weight: 600; }
  .refusal { margin: 0; font-size: 0.8125rem; color: var(--_danger); }
  .settled .actions { display: none; }
`;
