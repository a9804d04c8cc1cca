import { css } from 'lit';

export const viewStyles = css`
  :host { display: block; font-size: 0.9375rem; min-width: 0; background: var(--_bg); }
  .base { display: flex; flex-direction: column; gap: var(--_space); color: var(--_fg); }
  .context { display: flex; flex-direction: column; gap: var(--_space); min-width: 0; }
  .header { display: flex; flex-direction: column; gap: 0.25rem; }
  .title { margin: 0; font-size: 1.125rem; line-height: 1.3; }
  .description { margin: 0; color: var(--_muted); }
  .section { container-type: inline-size; display: flex; flex-direction: column; gap: 0.5rem; min-width: 0; }
  .section-title { margin: 0; font-size: 1rem; }
  .blocks { display: grid; gap: var(--_space); grid-template-columns: minmax(0, 1fr); }
  @container (min-width: 32rem) { .grid { grid-template-columns: repeat(2, minmax(0, 1fr)); } }
  @container (min-width: 48rem) { .grid.cols-3 { grid-template-columns: repeat(3, minmax(0, 1fr)); } }
  .block { min-width: 0; margin: 0; overflow-wrap: anywhere; }

  .metrics { display: grid; grid-template-columns: repeat(auto-fit, minmax(8rem, 1fr)); gap: 0.5rem; }
  .metric { border: 1px solid var(--_border); border-radius: var(--_radius); padding: 0.5rem 0.75rem; background: var(--_bg-alt); }
  .metric dt { color: var(--_muted); font-size: 0.8125rem; }
  .metric dd { margin: 0; }
  .metric-value { font-size: 1.25rem; font-weight: 600; font-variant-numeric: tabular-nums; }
  .metric-detail { color: var(--_muted); font-size: 0.8125rem; }

  .table-scroll { overflow: auto; max-height: 28rem; border: 1px solid var(--_border); border-radius: var(--_radius); }
  table { border-collapse: collapse; width: 100%; font-size: 0.875rem; }
  th, td { padding: 0.3rem 0.6rem; text-align: start; border-bottom: 1px solid var(--_border); vertical-align: top; overflow-wrap: normal; }
  th, td.num { white-space: nowrap; }
  th { position: sticky; top: 0; background: var(--_bg-alt); font-weight: 600; }
  .num { text-align: end; font-variant-numeric: tabular-nums; }
  .null { color: var(--_muted); }
  .table-more { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; margin-top: 0.5rem; color: var(--_muted); font-size: 0.875rem; }

  .diff { border: 1px solid var(--_border); border-radius: var(--_radius); overflow: hidden; }
  .diff-head { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; padding: 0.4rem 0.6rem; background: var(--_bg-alt); border-bottom: 1px solid var(--_border); font-size: 0.8125rem; }
  .diff-path { font-family: var(--_mono); font-weight: 600; overflow-wrap: anywhere; }
  .diff-counts { color: var(--_muted); margin-inline-start: auto; }
  .badge { border: 1px solid var(--_border); border-radius: 999px; padding: 0 0.5rem; font-size: 0.75rem; }
  .diff-body { margin: 0; padding: 0.4rem 0; overflow-x: auto; font-family: var(--_mono); font-size: 0.8125rem; line-height: 1.45; }
  .diff-body span { display: block; white-space: pre; padding: 0 0.6rem; min-width: max-content; }
  .diff-body .add { background: var(--_added-bg); }
  .diff-body .del { background: var(--_removed-bg); }
  .diff-body .hunk { color: var(--_muted); }

  .notice { display: flex; flex-wrap: wrap; gap: 0.25rem 0.5rem; padding: 0.5rem 0.75rem; border-radius: var(--_radius); border: 1px solid var(--_border); border-inline-start-width: 4px; background: var(--_bg-alt); }
  .notice.info { background: var(--_info-bg); border-color: var(--_accent); }
  .notice.warning { background: var(--_warning-bg); border-color: var(--_warning-border); }

  .fields { display: flex; flex-direction: column; gap: calc(var(--_space) * 1.25); margin: 0; }
  .field { display: flex; flex-direction: column; gap: 0.35rem; min-width: 0; border: 0; padding: 0; margin: 0; }
  .label { font-weight: 600; }
  .req, .hint { color: var(--_muted); font-weight: 400; font-size: 0.8125rem; }
  .hint { margin: 0; }
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

  .toggle-field { flex-direction: row; align-items: center; justify-content: space-between; gap: 0.75rem; }
  .switch { display: inline-flex; align-items: center; gap: 0.4rem; background: none; border: 0; padding: 0.2rem; color: var(--_fg); cursor: pointer; border-radius: 999px; }
  .track { width: 2.25rem; height: 1.25rem; border-radius: 999px; background: var(--_control-border); position: relative; transition: background 0.15s; }
  .thumb { position: absolute; top: 2px; left: 2px; width: calc(1.25rem - 4px); height: calc(1.25rem - 4px); border-radius: 50%; background: #fff; box-shadow: 0 1px 2px rgb(0 0 0 / 0.3); transition: transform 0.15s; }
  .switch[aria-checked='true'] .track { background: var(--_accent-bg); }
  .switch[aria-checked='true'] .thumb { transform: translateX(1rem); }
  .switch:disabled { cursor: not-allowed; opacity: 0.6; }
  .switch-state { font-size: 0.8125rem; color: var(--_muted); min-width: 1.5em; }

  .order { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 0.25rem; }
  .order-item { border-color: var(--_control-border); background: var(--_bg); align-items: center; }
  .order-item[aria-selected='true'] { border-color: var(--_accent); box-shadow: inset 3px 0 0 var(--_accent); }
  .position { flex: none; min-width: 1.5rem; height: 1.5rem; border-radius: 50%; background: var(--_bg-alt); border: 1px solid var(--_border); display: inline-grid; place-items: center; font-size: 0.75rem; font-variant-numeric: tabular-nums; }
  .order-buttons { display: flex; gap: 0.5rem; flex-wrap: wrap; }

  .answers { display: flex; flex-direction: column; gap: 0.5rem; }
  .answer dt { font-weight: 600; }
  .answer dd { margin: 0; }
  .answer-text { white-space: pre-wrap; }
  .answer-list { margin: 0; padding-inline-start: 1.4em; }

  .actions { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; }
`;
