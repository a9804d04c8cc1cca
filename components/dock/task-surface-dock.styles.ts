import { css } from 'lit';

export const dockStyles = css`
  :host {
    display: block;
    /* The page and the panel share a background in the dark theme, where a shadow does not show: the edge must. */
    --_dock-edge: var(--task-surface-dock-edge, light-dark(#d0d7de, #6e7681));
    --_dock-max: var(--task-surface-dock-max-height, 70vh);
  }
  /* Narrow screens: the panel may take the screen's height less the header and the composer's row. */
  @media (max-width: 40rem) { :host { --_dock-max: var(--task-surface-dock-max-height, calc(100dvh - 9rem)); } }
  /* the page's [hidden] rule loses to :host { display }: composer takeover must really hide it */
  :host([hidden]), :host([takeover]) { display: none; }
  /* A preview keeps the header's tools' place, unseen (they work once it is the panel). */
  .preview .tools { visibility: hidden; }
  .base {
    background: var(--_bg); color: var(--_fg); border: 1px solid var(--_dock-edge); border-radius: var(--_radius);
    box-shadow: var(--task-surface-dock-shadow, 0 2px 12px rgb(0 0 0 / 0.08)); padding: var(--_space);
    display: flex; flex-direction: column; gap: 0.5rem; min-width: 0;
  }
  .header { display: flex; flex-wrap: wrap; align-items: flex-start; justify-content: space-between; gap: 0.25rem 0.5rem; }
  /* A runaway title takes two lines; the whole text stays in the heading (and its tooltip), and full height shows it. */
  .title {
    flex: 1 1 10rem; min-width: 0; margin: 0; font-size: 1.0625rem; line-height: 1.35; overflow-wrap: anywhere;
    display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 2; line-clamp: 2; overflow: hidden;
    unicode-bidi: isolate;
  }
  .full .title { display: block; -webkit-line-clamp: unset; line-clamp: none; }
  .title:focus { outline: none; }
  .title:focus-visible { outline: 2px solid var(--_focus); outline-offset: -2px; }
  .tools { display: flex; flex-wrap: wrap; justify-content: flex-end; gap: 0.25rem; flex: 0 1 auto; margin-inline-start: auto; }
  .tools [hidden] { display: none; }
  .body { max-height: var(--_dock-max); overflow: auto; overscroll-behavior: contain;
    /* Room for a focus ring (2px + 2px offset) around full-width controls, which overflow would clip. */
    padding: 4px; margin: -2px; }
  .full .body { max-height: calc(100dvh - 5rem); }
  .body[hidden] { display: none; }
  /* The description and sections scroll in their own region so the fields stay in reach; fades say there is more. */
  task-surface-view.bounded::part(context) {
    /* A third of the body (6–24rem), so a page that lowers the Dock's height keeps the fields in reach too. */
    max-height: var(--task-surface-dock-context-max-height, clamp(6rem, calc(var(--_dock-max) / 3), 24rem)); overflow: auto; overscroll-behavior: contain;
    padding: 4px; border-bottom: 1px solid var(--_border);
    background:
      linear-gradient(var(--_bg) 30%, transparent) center top / 100% 2rem no-repeat local,
      linear-gradient(transparent, var(--_bg) 70%) center bottom / 100% 2rem no-repeat local,
      radial-gradient(farthest-side at 50% 0, color-mix(in srgb, var(--_fg) 22%, transparent), transparent) center top / 100% 0.75rem no-repeat scroll,
      radial-gradient(farthest-side at 50% 100%, color-mix(in srgb, var(--_fg) 22%, transparent), transparent) center bottom / 100% 0.75rem no-repeat scroll;
  }
  task-surface-view.no-context::part(context) { display: none; }
  /* Submit and Dismiss stay in reach while a long surface scrolls. */
  task-surface-view::part(actions) {
    position: sticky; bottom: -4px; z-index: 1; background: var(--_bg); padding: 0.5rem 0 4px; border-top: 1px solid var(--_border);
  }
  .button.ghost { background: transparent; border-color: transparent; color: var(--_accent); flex: none; }
  .note { display: flex; flex-direction: column; align-items: flex-start; gap: 0.25rem; margin-top: var(--_space); }
  .note-label { font-weight: 600; font-size: 0.875rem; }
  .note textarea {
    width: 100%; min-height: 3.5rem; resize: vertical; font: inherit; font-size: 0.9375rem; color: var(--_fg); background: var(--_bg);
    border: 1px solid var(--_control-border); border-radius: 6px; padding: 0.375rem 0.5rem;
  }
  .note textarea:disabled { opacity: 0.6; }
  .note-hint { margin: 0; font-size: 0.8125rem; color: var(--_muted); }
  .status { margin: 0; font-size: 0.875rem; color: var(--_muted); }
  .status:empty { display: none; }
  .status.error { color: var(--_danger); }
`;
