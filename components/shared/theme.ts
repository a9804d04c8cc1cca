import { css } from 'lit';

/**
 * Theme tokens shared by every element. Public `--task-surface-*` properties override the private
 * `--_*` defaults; `light-dark()` picks the light or dark value from `color-scheme`, which follows
 * `prefers-color-scheme` unless the `theme` attribute pins it.
 */
export const themeStyles = css`
  :host {
    color-scheme: light dark;
    --_font: var(--task-surface-font, system-ui, -apple-system, 'Segoe UI', 'PingFang SC', 'Microsoft YaHei', sans-serif);
    --_mono: var(--task-surface-font-mono, ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace);
    --_radius: var(--task-surface-radius, 8px);
    --_space: var(--task-surface-space, 12px);
    --_bg: var(--task-surface-bg, light-dark(#ffffff, #0d1117));
    --_bg-alt: var(--task-surface-bg-alt, light-dark(#f6f8fa, #161b22));
    --_fg: var(--task-surface-fg, light-dark(#1f2328, #e6edf3));
    --_muted: var(--task-surface-muted, light-dark(#57606a, #9ea7b3));
    --_border: var(--task-surface-border, light-dark(#d0d7de, #3d444d));
    /* Edges that identify a control (inputs, the switch's track, order items) need 3:1 against the background. */
    --_control-border: var(--task-surface-control-border, light-dark(#818b98, #6e7681));
    --_accent: var(--task-surface-accent, light-dark(#0860ca, #58a6ff));
    --_accent-bg: var(--task-surface-accent-bg, light-dark(#0860ca, #1f5fbf));
    --_accent-fg: var(--task-surface-accent-fg, #ffffff);
    --_focus: var(--task-surface-focus, light-dark(#0860ca, #79b8ff));
    --_danger: var(--task-surface-danger, light-dark(#c21c2c, #ff8a80));
    --_added-bg: var(--task-surface-added-bg, light-dark(#dafbe1, #12331f));
    --_removed-bg: var(--task-surface-removed-bg, light-dark(#ffebe9, #3b1519));
    --_info-bg: var(--task-surface-info-bg, light-dark(#ddf4ff, #0c2744));
    --_warning-bg: var(--task-surface-warning-bg, light-dark(#fff8c5, #3a2d08));
    --_warning-border: var(--task-surface-warning-border, light-dark(#bf8700, #d29922));
    font-family: var(--_font);
    color: var(--_fg);
    line-height: 1.5;
  }
  :host([theme='light']) { color-scheme: light; }
  :host([theme='dark']) { color-scheme: dark; }
  :host([hidden]) { display: none !important; }
  *, *::before, *::after { box-sizing: border-box; }
  :focus-visible { outline: 2px solid var(--_focus); outline-offset: 2px; }
  .sr-only {
    position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden;
    clip: rect(0 0 0 0); white-space: nowrap; border: 0;
  }
  button { font: inherit; }
  .button {
    font: inherit; font-size: 0.875rem; min-height: 2rem; padding: 0.25rem 0.75rem; border-radius: 6px;
    border: 1px solid var(--_border); background: var(--_bg-alt); color: var(--_fg); cursor: pointer;
  }
  .button.primary { background: var(--_accent-bg); border-color: var(--_accent-bg); color: var(--_accent-fg); }
  .button:disabled, .button[aria-disabled='true'] { cursor: not-allowed; opacity: 0.6; }
`;
