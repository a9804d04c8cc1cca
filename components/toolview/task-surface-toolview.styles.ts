import { css } from 'lit';

export const toolviewStyles = css`
  :host { display: block; min-width: 0; }
  .base { border: 1px solid var(--_border); border-radius: var(--_radius); padding: 0.5rem 0.75rem; background: var(--_bg); color: var(--_fg); display: flex; flex-direction: column; gap: 0.5rem; align-items: flex-start; }
  .summary { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0.25rem 0.5rem; width: 100%; }
  .kind { font-size: 0.75rem; text-transform: uppercase; letter-spacing: 0.04em; color: var(--_muted); }
  .title { font-weight: 600; overflow-wrap: break-word; flex: 1 1 10rem; min-width: 0; --_clamp-lines: 2; }
  .status { font-size: 0.75rem; border-radius: 999px; padding: 0 0.5rem; border: 1px solid var(--_border); color: var(--_muted); margin-inline-start: auto; }
  .status.open { color: var(--_accent); border-color: var(--_accent); }
  .replay { width: 100%; border-top: 1px solid var(--_border); padding-top: 0.5rem; }
  .replay[hidden] { display: none; }
  .pointer { margin: 0; color: var(--_muted); font-size: 0.875rem; }
  .fallback { margin: 0; white-space: pre-wrap; overflow-wrap: break-word; }
`;
