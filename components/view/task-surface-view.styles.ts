import { css } from 'lit';

export const viewStyles = css`
  /* A preview keeps the submit row's place (and the note's), unseen, so nothing moves when it becomes the panel. */
  :host([preview]) .actions, :host([preview]) slot[name='note'] { visibility: hidden; }
  :host { display: block; font-size: 0.9375rem; min-width: 0; background: var(--_bg); }
  .base { display: flex; flex-direction: column; gap: var(--_space); color: var(--_fg); overflow-wrap: break-word; min-width: 0; }
  .context { display: flex; flex-direction: column; gap: var(--_space); min-width: 0; }
  .header { display: flex; flex-direction: column; gap: 0.25rem; }
  .title { margin: 0; font-size: 1.125rem; line-height: 1.3; }
  .description { margin: 0; color: var(--_muted); }
  .section { container-type: inline-size; display: flex; flex-direction: column; gap: 0.5rem; min-width: 0; }
  .section-title { margin: 0; font-size: 1rem; }
  .blocks { display: grid; gap: var(--_space); grid-template-columns: minmax(0, 1fr); }
  @container (min-width: 32rem) { .grid { grid-template-columns: repeat(2, minmax(0, 1fr)); } }
  @container (min-width: 48rem) { .grid.cols-3 { grid-template-columns: repeat(3, minmax(0, 1fr)); } }
  .block { min-width: 0; margin: 0; overflow-wrap: break-word; }

  .metrics { display: grid; grid-template-columns: repeat(auto-fit, minmax(8rem, 1fr)); gap: 0.5rem; }
  .metric { min-width: 0; border: 1px solid var(--_border); border-radius: var(--_radius); padding: 0.5rem 0.75rem; background: var(--_bg-alt); }
  .metric dt { color: var(--_muted); font-size: 0.8125rem; }
  .metric dd { margin: 0; }
  .metric-value { font-size: 1.25rem; font-weight: 600; font-variant-numeric: tabular-nums; }
  .metric-detail { color: var(--_muted); font-size: 0.8125rem; }

  .table-scroll { overflow: auto; max-height: 28rem; border: 1px solid var(--_border); border-radius: var(--_radius); }
  table { border-collapse: collapse; width: 100%; font-size: 0.875rem; }
  th, td { padding: 0.3rem 0.6rem; text-align: start; border-bottom: 1px solid var(--_border); vertical-align: top; overflow-wrap: normal; }
  th, td.num { white-space: nowrap; }
  /* A text cell reads in its own direction (dir="auto") but lines up with its column, at the table's start. */
  td.model-text { text-align: -webkit-match-parent; text-align: match-parent; }
  tr:focus { outline: 2px solid var(--_focus); outline-offset: -2px; }
  th { position: sticky; top: 0; background: var(--_bg-alt); font-weight: 600; }
  .num { text-align: end; font-variant-numeric: tabular-nums; }
  .null { color: var(--_muted); }
  .table-more { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; margin-top: 0.5rem; color: var(--_muted); font-size: 0.875rem; }

  .diff { border: 1px solid var(--_border); border-radius: var(--_radius); overflow: hidden; }
  .diff-head { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; padding: 0.4rem 0.6rem; background: var(--_bg-alt); border-bottom: 1px solid var(--_border); font-size: 0.8125rem; }
  .diff-head > * { min-width: 0; --_clamp-lines: 2; }
  .diff-path { font-family: var(--_mono); font-weight: 600; overflow-wrap: break-word; }
  .diff-counts { color: var(--_muted); margin-inline-start: auto; }
  .badge { border: 1px solid var(--_border); border-radius: 999px; padding: 0 0.5rem; font-size: 0.75rem; }
  .diff-body { margin: 0; padding: 0.4rem 0; overflow-x: auto; font-family: var(--_mono); font-size: 0.8125rem; line-height: 1.45; }
  .diff-body span { display: block; white-space: pre; padding: 0 0.6rem; min-width: max-content; }
  .diff-body .add { background: var(--_added-bg); }
  .diff-body .del { background: var(--_removed-bg); }
  .diff-body .hunk { color: var(--_muted); }
  .diff-body.plain span { white-space: pre; }
  .diff-body span:focus { outline: 2px solid var(--_focus); outline-offset: -2px; }
  .diff-note { margin: 0; padding: 0.4rem 0.6rem; font-size: 0.8125rem; border-bottom: 1px solid var(--_border); background: var(--_warning-bg); color: var(--_fg); }
  .diff-side-name { margin: 0; padding: 0.3rem 0.6rem 0; font-size: 0.8125rem; font-weight: 600; }
  .diff-body { max-height: 32rem; }
  .diff > .table-more { padding: 0 0.6rem 0.5rem; }

  .notice-text { flex: 1 1 12rem; min-width: 0; }
  .notice { display: flex; flex-wrap: wrap; gap: 0.25rem 0.5rem; padding: 0.5rem 0.75rem; border-radius: var(--_radius); border: 1px solid var(--_border); border-inline-start-width: 4px; background: var(--_bg-alt); }
  .notice.info { background: var(--_info-bg); border-color: var(--_accent); }
  .notice.warning { background: var(--_warning-bg); border-color: var(--_warning-border); }

  .fields { display: flex; flex-direction: column; gap: calc(var(--_space) * 1.25); margin: 0; }
  .field { display: flex; flex-direction: column; gap: 0.35rem; min-width: 0; border: 0; padding: 0; margin: 0; }
  .label { font-weight: 600; }
  label.label > .clamp { display: -webkit-inline-box; max-width: 100%; }
  .option-text .clamp { --_clamp-lines: 4; }
  .req, .hint { color: var(--_muted); font-weight: 400; font-size: 0.8125rem; }
  .hint { margin: 0; overflow-wrap: normal; } /* chrome: the word joiners in "Alt+↑/↓" must hold */
  .input { font: inherit; color: var(--_fg); background: var(--_bg); border: 1px solid var(--_control-border); border-radius: 6px; padding: 0.4rem 0.55rem; width: 100%; }
  textarea.input { resize: vertical; min-height: 4.5rem; }
  .input[aria-invalid='true'] { border-color: var(--_danger); }
  .error { margin: 0; color: var(--_danger); font-size: 0.8125rem; }
  .input:disabled { opacity: 0.7; }

  .options { display: flex; flex-direction: column; gap: 0.25rem; }
  .option { display: flex; align-items: flex-start; gap: 0.5rem; padding: 0.35rem 0.5rem; border-radius: 6px; border: 1px solid transparent; cursor: pointer; }
  .option:hover { background: var(--_bg-alt); }
  .option input { margin: 0.2rem 0 0; accent-color: var(--_accent-bg); width: 1rem; height: 1rem; flex: none; }
  .option-text { display: flex; flex-direction: column; min-width: 0; }
  .detail { color: var(--_muted); font-size: 0.8125rem; }
  .radio .mark { flex: none; width: 1rem; height: 1rem; margin-top: 0.2rem; border-radius: 50%; border: 2px solid var(--_muted); }
  .radio[aria-checked='true'] .mark { border-color: var(--_accent-bg); background: radial-gradient(var(--_accent-bg) 0 40%, transparent 45%); }
  [aria-disabled='true'] .option { cursor: not-allowed; opacity: 0.7; }

  .toggle-field > .label { flex: 1 1 auto; min-width: 0; }
  .toggle-field { flex-direction: row; align-items: center; justify-content: space-between; gap: 0.75rem; }
  .switch { display: inline-flex; align-items: center; gap: 0.4rem; background: none; border: 0; padding: 0.2rem; color: var(--_fg); cursor: pointer; border-radius: 999px; }
  .track { width: 2.25rem; height: 1.25rem; border-radius: 999px; background: var(--_control-border); position: relative; transition: background 0.15s; }
  .thumb { position: absolute; top: 2px; left: 2px; width: calc(1.25rem - 4px); height: calc(1.25rem - 4px); border-radius: 50%; background: #fff; box-shadow: 0 1px 2px rgb(0 0 0 / 0.3); transition: transform 0.15s; }
  .switch[aria-checked='true'] .track { background: var(--_accent-bg); }
  .switch[aria-checked='true'] .thumb { transform: translateX(1rem); }
  .switch:disabled { cursor: not-allowed; opacity: 0.6; }
  .switch-state { font-size: 0.8125rem; color: var(--_muted); min-width: 1.5em; }

  /* The listbox and the move buttons share rows (subgrid), so each pair sits beside its item. */
  .order-grid { display: grid; grid-template-columns: minmax(0, 1fr) auto; grid-template-rows: repeat(var(--rows, 1), auto); column-gap: 0.375rem; row-gap: 0.25rem; }
  .order, .order-moves { grid-row: 1 / span var(--rows, 1); display: grid; grid-template-rows: subgrid; }
  .order { grid-column: 1; grid-template-columns: minmax(0, 1fr); list-style: none; margin: 0; padding: 0; min-width: 0; }
  .order-moves { grid-column: 2; }
  .move-pair { display: flex; gap: 0.25rem; align-items: center; }
  .button.icon { min-width: 2.25rem; padding-inline: 0.5rem; }
  .order-item { border-color: var(--_control-border); background: var(--_bg); align-items: center; cursor: default; }
  .order-item:hover { background: var(--_bg); }
  /* No resting highlight: the selected item stands out only while the list has focus or it is dragged. */
  .order:focus-within .order-item[aria-selected='true'] { border-color: var(--_accent); box-shadow: inset 3px 0 0 var(--_accent); }
  .order-item.dragging { border-color: var(--_accent); box-shadow: 0 2px 8px rgb(0 0 0 / 0.25); position: relative; z-index: 1; }
  .handle { flex: none; align-self: stretch; width: 1rem; cursor: grab; touch-action: none; border-radius: 4px;
    background: radial-gradient(circle, var(--_muted) 1.5px, transparent 2px) 0 0 / 0.5rem 0.5rem; opacity: 0.8; }
  .dragging .handle { cursor: grabbing; }
  .position { flex: none; min-width: 1.5rem; height: 1.5rem; border-radius: 50%; background: var(--_bg-alt); border: 1px solid var(--_border); display: inline-grid; place-items: center; font-size: 0.75rem; font-variant-numeric: tabular-nums; }

  .answers { display: flex; flex-direction: column; gap: 0.5rem; }
  .answer dt { font-weight: 600; }
  .answer dd { margin: 0; }
  .answer-text { white-space: pre-wrap; }
  .answer-list { margin: 0; padding-inline-start: 1.4em; }

  .actions { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; }
  .actions > * { min-width: 0; max-width: 100%; }
`;
