import { css } from 'lit';

/** The shell: a sidebar of chats, a header with switches, the scrolling transcript, the composer. */
export const appStyles = css`
  :host { display: block; height: 100%; color: var(--fg); font: 15px/1.5 var(--font); }
  * { box-sizing: border-box; }
  button { font: inherit; color: inherit; cursor: pointer; }
  :focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
  .app { display: grid; grid-template-columns: 248px minmax(0, 1fr); grid-template-rows: minmax(0, 1fr); height: 100%; }
  .sidebar { background: var(--bg-side); border-right: 1px solid var(--border); padding: 16px 12px; display: flex; flex-direction: column; gap: 12px; overflow: auto; }
  .brand { font-weight: 650; font-size: 15px; display: flex; align-items: center; gap: 8px; padding: 4px 8px; }
  /* Drawn, not a glyph: the chrome needs no particular font. */
  .logo { width: 16px; height: 16px; border: 2px solid var(--accent); border-radius: 3px; background: linear-gradient(90deg, var(--accent) 50%, transparent 50%); }
  .new { border: 1px solid var(--border); background: var(--bg); border-radius: 10px; padding: 8px 12px; text-align: left; }
  .new:hover { border-color: var(--accent); }
  .sessions { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 2px; }
  .session { width: 100%; text-align: left; border: 0; background: none; border-radius: 8px; padding: 8px 10px; color: var(--muted); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
  .session:hover { background: var(--hover); color: var(--fg); }
  .session[aria-current='page'] { background: var(--selected); color: var(--fg); font-weight: 550; }
  .main { display: grid; grid-template-columns: minmax(0, 1fr); grid-template-rows: auto minmax(0, 1fr) auto; min-width: 0; min-height: 0; background: var(--bg); }
  .bar { display: flex; align-items: center; gap: 12px; padding: 10px 20px; border-bottom: 1px solid var(--border); }
  .title { font-size: 16px; font-weight: 600; margin: 0; flex: 1; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
  .status { color: var(--warn); font-size: 13px; }
  .switch { display: inline-flex; border: 1px solid var(--border); border-radius: 8px; overflow: hidden; }
  .switch button { border: 0; background: none; padding: 4px 10px; font-size: 13px; color: var(--muted); }
  .switch button[aria-pressed='true'] { background: var(--selected); color: var(--fg); font-weight: 600; }
  /* Both gutters: the transcript's column stays centred over the Dock's with or without a scrollbar. */
  .scroller { overflow-y: auto; padding: 8px 0 16px; scroll-behavior: auto; scrollbar-gutter: stable both-edges; }
  /* Inside: the panes around it clip an outline drawn outside. */
  .scroller:focus-visible { outline-offset: -2px; }
  demo-transcript, .queue, .working { display: block; max-width: 820px; margin: 0 auto; padding: 0 24px; }
  .queue { list-style: none; display: flex; flex-direction: column; gap: 8px; align-items: flex-end; }
  .queued { display: flex; justify-content: flex-end; width: 100%; }
  .bubble { max-width: 80%; padding: 10px 14px; border-radius: 16px; }
  .bubble.user { background: var(--bubble-user); border-bottom-right-radius: 4px; }
  .pending { border: 1px dashed var(--muted); }
  .text { white-space: pre-wrap; overflow-wrap: anywhere; }
  .chip { display: inline-block; font-size: 12px; color: var(--muted); margin-bottom: 2px; }
  /* Who spoke, for screen readers (the bubbles' sides say it visually). */
  .speaker { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
  .row-actions { display: flex; gap: 6px; margin-top: 6px; justify-content: flex-end; }
  .row-actions button, .link { border: 1px solid var(--border); background: var(--bg); border-radius: 6px; padding: 2px 8px; font-size: 12px; }
  .edit { width: 100%; min-height: 60px; font: inherit; border-radius: 8px; border: 1px solid var(--border); background: var(--bg); color: var(--fg); padding: 6px; }
  .working { color: var(--muted); font-size: 14px; display: flex; align-items: center; gap: 8px; }
  .dots { width: 8px; height: 8px; border-radius: 50%; background: var(--accent); animation: pulse 1s ease-in-out infinite; }
  @keyframes pulse { 50% { opacity: .3; } }
  @media (prefers-reduced-motion: reduce) { .dots { animation: none; } }
  /* The same column as the transcript: the same gutters as the scroller, 820px wide, 24px padding. */
  .bottom-wrap { overflow: hidden; scrollbar-gutter: stable both-edges; }
  .bottom { padding: 8px 24px 18px; display: flex; flex-direction: column; gap: 10px; max-width: 820px; width: 100%; margin: 0 auto; }
  /* --dock-edge exists only in the dark theme; elsewhere the Dock's own edge applies (an unset var falls back). */
  /* The Dock may grow, but the header row and the composer stay on screen (18rem: both, the Dock's
     own header and the gaps, at 320 px where the title and its tools take two rows each). */
  task-surface-dock { --task-surface-dock-max-height: min(70vh, calc(100dvh - 18rem)); --task-surface-font: var(--font); --task-surface-dock-edge: var(--dock-edge); --task-surface-dock-shadow: var(--dock-shadow, 0 2px 12px rgb(0 0 0 / 8%)); }
  /* The Dock's own :host { display: block } outranks the UA's [hidden] rule; the page keeps the takeover hidden. */
  task-surface-dock[hidden] { display: none; }
  .notice { margin: 0; padding: 8px 12px; border-radius: 8px; background: var(--warn-bg); font-size: 14px; }
  .suggestions { display: flex; flex-wrap: wrap; gap: 8px; }
  .suggestions button { border: 1px solid var(--border); background: var(--bg); border-radius: 999px; padding: 4px 12px; font-size: 13px; color: var(--muted); }
  .suggestions button:hover { color: var(--fg); border-color: var(--accent); }
  .composer { display: flex; gap: 8px; align-items: flex-end; border: 1px solid var(--border); border-radius: 16px; padding: 8px 8px 8px 14px; background: var(--bg-input); box-shadow: var(--shadow); }
  .composer:focus-within { border-color: var(--accent); }
  .composer textarea { flex: 1 1 0; min-width: 0; border: 0; resize: none; background: none; color: var(--fg); font: inherit; padding: 6px 0; max-height: 160px; field-sizing: content; }
  .composer textarea:focus { outline: none; }
  .composer textarea::placeholder { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
  .send { border: 0; background: var(--accent); color: #fff; border-radius: 10px; padding: 8px 16px; font-weight: 600; }
  .send:disabled, .mic:disabled { opacity: .45; cursor: default; }
  .mic { border: 0; background: none; padding: 8px; border-radius: 10px; display: inline-flex; align-items: center; justify-content: center; min-height: 36px; min-width: 36px; }
  .mic-dot { width: 12px; height: 12px; border-radius: 50%; background: var(--danger); }
  .mic:hover:not(:disabled) { background: var(--hover); }
  .recorder { display: flex; align-items: center; gap: 10px; border: 1px solid var(--danger); border-radius: 16px; padding: 8px 8px 8px 14px; background: var(--bg-input); box-shadow: var(--shadow); }
  .rec-label { flex: 1; color: var(--muted); font-size: 14px; }
  .rec-dot { width: 10px; height: 10px; border-radius: 50%; background: var(--danger); animation: pulse 1s ease-in-out infinite; }
  @media (prefers-reduced-motion: reduce) { .rec-dot { animation: none; } }
  .recorder .link { padding: 6px 12px; font-size: 14px; }
  .picker { display: none; max-width: 40%; font: inherit; font-size: 13px; color: var(--fg); background: var(--bg); border: 1px solid var(--border); border-radius: 8px; padding: 4px 6px; }
  /* The language switch shows at every width (the session picker only when the sidebar is gone). */
  .picker.lang { display: block; flex: none; width: auto; max-width: 10rem; }
  @media (max-width: 720px) {
    .app { grid-template-columns: 1fr; } .sidebar { display: none; }
    /* One header row: the picker names the chat (the heading stays for screen readers). */
    .title { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
    .picker { display: block; flex: 1 1 0; width: 0; min-width: 0; max-width: none; }
    .bar { gap: 6px; padding: 8px 10px; }
    .switch button { padding: 4px 7px; }
    .bottom { padding: 6px 12px 10px; }
    /* Narrow: the Dock's title, tools and status line each take more rows. */
    task-surface-dock { --task-surface-dock-max-height: calc(100dvh - 21rem); }
    demo-transcript, .queue, .working { padding: 0 12px; }
  }
`;

/** The transcript: user bubbles right, agent text left, panels and cards full width. */
export const transcriptStyles = css`
  :host { display: block; }
  * { box-sizing: border-box; }
  .top { display: flex; justify-content: center; padding: 12px 0; }
  .start { color: var(--muted); font-size: 13px; margin: 0; }
  .older { border: 1px solid var(--border); background: var(--bg); color: var(--fg); border-radius: 999px; padding: 4px 14px; font: inherit; font-size: 13px; cursor: pointer; }
  .events { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 12px; }
  .row { display: flex; }
  .row.user { justify-content: flex-end; }
  .row.tool, .row.card { display: block; }
  .row.note { justify-content: flex-start; }
  .bubble { max-width: 80%; padding: 10px 14px; border-radius: 16px; }
  .bubble.user { background: var(--bubble-user); border-bottom-right-radius: 4px; }
  .bubble.agent { background: none; padding-left: 0; max-width: 100%; }
  .text { white-space: pre-wrap; overflow-wrap: anywhere; }
  .chip { display: inline-block; font-size: 12px; color: var(--muted); margin-bottom: 2px; }
  /* Who spoke, and the log's heading, for screen readers (the bubbles' sides say it visually). */
  .speaker, .sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
  .tool-note { font-size: 12px; color: var(--muted); border: 1px solid var(--border); border-radius: 999px; padding: 1px 10px; }
  task-surface-toolview, action-card { display: block; max-width: 640px; }
`;
