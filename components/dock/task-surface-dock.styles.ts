import { css } from 'lit';

export const dockStyles = css`
  :host { display: block; }
  /* the page's [hidden] rule loses to :host { display }: composer takeover must really hide it */
  :host([hidden]), :host([takeover]) { display: none; }
  .base {
    background: var(--_bg); color: var(--_fg); border: 1px solid var(--_border); border-radius: var(--_radius);
    box-shadow: var(--task-surface-dock-shadow, 0 2px 12px rgb(0 0 0 / 0.08)); padding: var(--_space);
    display: flex; flex-direction: column; gap: 0.5rem; min-width: 0;
  }
  .header { display: flex; align-items: baseline; justify-content: space-between; gap: 0.5rem; }
  .title { margin: 0; font-size: 1.0625rem; line-height: 1.35; overflow-wrap: anywhere; }
  .title:focus { outline: none; }
  .title:focus-visible { outline: 2px solid var(--_focus); outline-offset: 2px; }
  .body { max-height: var(--task-surface-dock-max-height, 70vh); overflow: auto; overscroll-behavior: contain;
    /* Room for a focus ring (2px + 2px offset) around full-width controls, which overflow would clip. */
    padding: 4px; margin: -2px; }
  .body[hidden] { display: none; }
  /* Submit and Dismiss stay in reach while a long surface scrolls. */
  task-surface-view::part(actions) {
    position: sticky; bottom: -4px; z-index: 1; background: var(--_bg); padding: 0.5rem 0 4px; border-top: 1px solid var(--_border);
  }
  .button.ghost { background: transparent; border-color: transparent; color: var(--_accent); flex: none; }
  .status { margin: 0; font-size: 0.875rem; color: var(--_muted); }
  .status:empty { display: none; }
  .status.error { color: var(--_danger); }
`;
