/*
 * The app document's script (`ui://task-surface/panel`): a small MCP Apps client (hostClient.ts)
 * talks to the host over postMessage, and the project's own `task-surface-view` renders the panel,
 * with the same limits and markdown rules as everywhere else. Built into one self-contained HTML
 * file (scripts/mcp-app.mjs).
 */
import { html, nothing, render } from 'lit';
import '../../components/view/task-surface-view.js';
import { dirOf, langOf, langTag, loadLocale, strings, type Lang } from '../../components/i18n/index.js';
import type { NormalizedTaskSurfaceModel, TaskSurfaceValues } from '../../protocol/index.js';
import { HostClient, type HostContext } from './hostClient.js';
import { PanelSession, type Phase } from './panelApp.js';
import { appStrings, dismissedContext } from './strings.js';

const root = document.querySelector('main')!;
let lang: Lang = 'en';
let theme: 'light' | 'dark' | undefined;
let fullscreen = false;

let hostLocale: string | undefined;
/** The preview's status has its words: set a frame after its live region is in the page, so it is said once. */
let writingSaid = false;

const app = new HostClient();
const session = new PanelSession(app, {
  onChange: () => draw(),
  // The host's own tag: the server writes the answer in it when it knows the language (a registered one too).
  locale: () => hostLocale ?? lang,
  dismissedText: dismissedContext,
});

/** Counts contexts applied, so a language that loads late applies only if no newer context came meanwhile. */
let applied = 0;

function applyContext(context: HostContext): void {
  const current = ++applied;
  const doc = document.documentElement;
  lang = langOf(context.locale);
  hostLocale = context.locale;
  theme = context.theme === 'dark' || context.theme === 'light' ? context.theme : undefined;
  if (theme) {
    doc.setAttribute('data-theme', theme);
    doc.style.colorScheme = theme;
  }
  // The host's CSS variables (`--color-background-primary` …), as ext-apps' applyHostStyleVariables sets them.
  for (const [name, value] of Object.entries(context.styles?.variables ?? {})) if (value !== undefined) doc.style.setProperty(name, value);
  fullscreen = context.displayMode === 'fullscreen';
  doc.lang = langTag(lang);
  doc.dir = dirOf(lang);
  document.title = session.model?.title ?? appStrings(lang).documentTitle;
  draw();
  // Every language but English is a module of its own: once the host's has loaded, apply it again.
  const shown = lang;
  void loadLocale(context.locale).then(() => {
    if (current === applied && langOf(context.locale) !== shown) applyContext(context);
  });
}

function statusText(phase: Phase): string {
  const t = appStrings(lang);
  if (phase.kind === 'dismissed') return t.dismissedNote;
  if (phase.kind !== 'submitted') return '';
  return {
    sending: t.sending,
    delivered: t.submittedNote,
    prefilled: t.prefilledNote,
    read: t.readNote,
    'no-channel': t.noChannelNote,
    failed: t.notTaken,
    unsure: t.unsure,
  }[phase.delivery];
}

function view(model: NormalizedTaskSurfaceModel, phase: Phase) {
  const s = strings(lang);
  const t = appStrings(lang);
  // A preview is the same template as the panel it becomes (the same elements, nothing moves):
  // read-only, its Submit and Dismiss in place but unseen and inert, and a status said once.
  if (phase.kind === 'open' || phase.kind === 'preview') {
    const preview = phase.kind === 'preview';
    const busy = preview || phase.busy;
    return html`<task-surface-view
        .model=${model}
        .values=${preview ? undefined : session.values}
        lang=${lang}
        theme=${theme ?? nothing}
        heading-level="1"
        ?all-rows=${fullscreen}
        ?disabled=${!preview && busy}
        ?preview=${preview}
        @task-surface-value-change=${(e: CustomEvent<{ values: TaskSurfaceValues }>) => session.edit(e.detail.values)}
        @task-surface-submit=${(e: CustomEvent<{ values: TaskSurfaceValues }>) => void session.submit(e.detail.values)}
        ><button slot="actions" type="button" class="secondary" ?disabled=${busy} @click=${() => void session.dismiss()}>${s.dismiss}</button></task-surface-view
      >
      <p class="quiet" role="status">${preview && writingSaid ? s.dock.writing : ''}</p>
      <p class="problem" role="alert">${!preview && phase.problem ? t[phase.problem] : ''}</p>
      ${
        !preview && phase.problem === 'unreachable'
          ? html`<button type="button" class="secondary" ?disabled=${busy} @click=${() => void session.retry()}>${t.tryAgain}</button>`
          : nothing
      }`;
  }
  const values = phase.kind === 'submitted' ? phase.values : undefined;
  const status = phase.kind === 'submitted' ? s.status.submitted : s.status.dismissed;
  const again = phase.kind === 'submitted' && (phase.delivery === 'failed' || phase.delivery === 'unsure');
  return html`<task-surface-view .model=${model} .values=${values} readonly lang=${lang} theme=${theme ?? nothing} heading-level="1" ?all-rows=${fullscreen}></task-surface-view>
    <div class="outcome">
      <p><strong>${s.statusLabel}: ${status}</strong></p>
      <p id="outcome" role="status" tabindex="-1">${statusText(phase)}</p>
      ${again ? html`<button type="button" class="primary" @click=${() => void session.sendAgain()}>${t.sendAgain}</button>` : nothing}
    </div>`;
}

function draw(): void {
  const phase = session.phase;
  const model = session.model;
  const t = appStrings(lang);
  document.body.dataset['phase'] = phase.kind;
  if (phase.kind !== 'preview') writingSaid = false;
  else if (!writingSaid)
    requestAnimationFrame(() => {
      if (session.phase.kind === 'preview' && !writingSaid) {
        writingSaid = true;
        draw();
      }
    });
  let content;
  if (phase.kind === 'preparing' || phase.kind === 'waiting')
    content = html`<p class="quiet" role="status">${phase.kind === 'preparing' ? t.preparing : ''}</p>`;
  else if (phase.kind === 'error') content = html`<h1>${t.documentTitle}</h1><p role="alert">${t.invalidModel}</p>`;
  else if (phase.kind === 'cancelled') content = html`<h1>${t.documentTitle}</h1><p role="status">${t.cancelled}</p>`;
  else if (phase.kind === 'elsewhere') content = html`<h1>${t.documentTitle}</h1><p role="status">${t.elsewhere}</p>`;
  else if (phase.kind === 'unknown' || !model) content = html`<h1>${t.documentTitle}</h1><p role="alert">${t.unknown}</p>`;
  else content = view(model, phase);
  render(content, root);
  // A control that held focus went away with the phase (Submit, Dismiss, Send again): the outcome takes it.
  const outcome = document.getElementById('outcome');
  if (outcome && (document.activeElement === null || document.activeElement === document.body)) outcome.focus();
}

// A link in the panel opens through the host: the sandbox may not let the iframe navigate anywhere.
root.addEventListener('click', (event) => {
  const link = event.composedPath().find((node): node is HTMLAnchorElement => node instanceof HTMLAnchorElement && node.href !== '');
  if (!link) return;
  event.preventDefault();
  void app.openLink({ url: link.href }).catch(() => undefined);
});

// The streamed input shows as a read-only preview, which the server reads (the view tool's
// `preview`: no model parser in the document); the whole input keeps what is shown (its result
// follows), and the answerable panel shows from the result, whose normalised model the server
// checked against its own limits (answering needs its viewId anyway).
app.ontoolinputpartial = (params) => session.partial(params.arguments);
app.ontoolinput = () => session.preparing();
app.ontoolresult = (result) => {
  const content = result.structuredContent as { model?: NormalizedTaskSurfaceModel } | undefined;
  const viewId = (result._meta as { viewUUID?: unknown } | undefined)?.viewUUID;
  if (result.isError) return session.failed();
  if (!content?.model || typeof viewId !== 'string') return session.elsewhere();
  document.title = content.model.title;
  void session.result(content.model, viewId);
};
app.ontoolcancelled = () => session.cancelled();
app.onhostcontextchanged = applyContext;

draw();
await app.connect({ name: 'task-surface-panel', version: '1.0.0' });
applyContext(app.getHostContext());
