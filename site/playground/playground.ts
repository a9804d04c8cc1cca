/*
 * The playground: a model's JSON in, and out of it what the agent reads (the parser's issues with
 * their paths, and the exact tool result), the live panel on an in-page Host, and once the panel is
 * submitted the user message `formatSubmission` wrote with its correlated source. The model and the
 * language live in the URL's hash (bounded: see hashState.ts), so a link reproduces the state.
 */
import { html, nothing, render } from 'lit';
import {
  formatIssuePath,
  parseShowTaskSurfaceArgs,
  showTaskSurfaceTool,
  toAnthropicTool,
  toMcpTool,
  toOpenAITool,
  type SessionId,
} from '../../protocol/index.js';
import { createDocsHost, lastAnswer, lastPanelResult, showPanel, type DocsHost } from '../live/docsHost.js';
import { PLAYGROUND_EXAMPLES } from '../live/models.js';
import { currentLook, onLook, setLook } from '../shell.js';
import { snippet } from '../snippet.js';
import { decodeState, encodeState, MAX_HASH_MODEL_CHARS } from './hashState.js';

interface Outcome {
  /** The JSON did not parse: why. */
  jsonError?: string;
  issues: { path: string; message: string }[];
  /** The `show_task_surface` result text, as the agent reads it. */
  toolResult?: string;
  docs?: DocsHost;
  sessionId?: SessionId;
  answer?: { text: string; source: string };
}

const DEFAULT_EXAMPLE = 'compare';
const pretty = (value: unknown) => JSON.stringify(value, null, 2);

/** Renders the playground into `main`. */
export function renderPlayground(main: HTMLElement): void {
  let text = '';
  let linkNote = '';
  let outcome: Outcome = { issues: [] };
  let run = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let unfollow: () => void = () => undefined;

  const tools = [
    { label: 'OpenAI Chat Completions (tools[])', code: pretty(toOpenAITool(showTaskSurfaceTool)) },
    { label: 'Anthropic Messages (tools[])', code: pretty(toAnthropicTool(showTaskSurfaceTool)) },
    { label: 'MCP (tools/list)', code: pretty(toMcpTool(showTaskSurfaceTool)) },
  ];

  /** Shows `text` on a fresh in-page Host, as the agent's show_task_surface call. */
  async function evaluate() {
    const mine = ++run;
    const previous = outcome.docs;
    unfollow();
    unfollow = () => undefined;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      outcome = { jsonError: (error as Error).message, issues: [] };
      draw();
      await previous?.host.dispose();
      return;
    }
    const parsed = parseShowTaskSurfaceArgs({ model: json });
    const docs = createDocsHost();
    const sessionId = await docs.openWith(showPanel(json as never), { title: 'Playground', locale: currentLook().lang });
    const result = lastPanelResult(await docs.events(sessionId));
    if (mine !== run) return void docs.host.dispose();
    outcome = {
      issues: parsed.ok ? [] : parsed.issues.map((i) => ({ path: formatIssuePath(i.path, ''), message: i.message })),
      ...(result ? { toolResult: result.content } : {}),
      ...(parsed.ok ? { docs, sessionId } : {}),
    };
    if (parsed.ok) unfollow = follow(docs, sessionId);
    else void docs.host.dispose();
    draw();
    await previous?.host.dispose();
  }

  async function changed(next: string, { immediately = false } = {}) {
    text = next;
    clearTimeout(timer);
    const encoded = await encodeState({ text, lang: currentLook().lang });
    if (encoded.ok) {
      history.replaceState(null, '', encoded.hash);
      linkNote = "This page's address now carries the model: copy it to share this state.";
    } else linkNote = `Not in the link: ${encoded.error}. The address keeps the last model that fit.`;
    draw();
    timer = setTimeout(() => void evaluate(), immediately ? 0 : 300);
  }

  /**
   * Shows the panel's answer once the Host made it a message. It follows the session rather than the
   * Dock's `task-surface-submitted` event: with a Host in the same page the surface can close before
   * the submit call returns, and the message is what the playground is about.
   */
  function follow(docs: DocsHost, sessionId: SessionId): () => void {
    return docs.host.watchSession(sessionId, () => {
      void docs.events(sessionId).then((events) => {
        const message = lastAnswer(events);
        if (!message || outcome.sessionId !== sessionId || outcome.answer) return;
        outcome = { ...outcome, answer: { text: message.text, source: pretty(message.source) } };
        draw();
      });
    });
  }

  const load = (name: string) => void changed(pretty(PLAYGROUND_EXAMPLES[name]!.model()), { immediately: true });

  function draw() {
    const look = currentLook();
    const { jsonError, issues, toolResult, docs, sessionId, answer } = outcome;
    render(
      html`<h1>Playground</h1>
        <p class="lead">
          Write or paste the JSON a model gave as <code>show_task_surface</code>'s <code>model</code>. The page runs it through a real Host
          in this page: you see the issues the agent would read, the panel a person would see, and after a submit the user message the
          agent receives.
        </p>
        <div class="playground">
          <section class="pg-model" aria-labelledby="pg-model-title">
            <h2 id="pg-model-title">Model</h2>
            <label class="field"
              >Load an example
              <select
                @change=${(e: Event) => {
                  const select = e.target as HTMLSelectElement;
                  if (select.value) load(select.value);
                  select.value = '';
                }}
              >
                <option value="">Choose…</option>
                ${Object.entries(PLAYGROUND_EXAMPLES).map(([name, ex]) => html`<option value=${name}>${ex.label}</option>`)}
              </select></label
            >
            <label class="field" for="pg-json">The model's JSON</label>
            <textarea
              id="pg-json"
              spellcheck="false"
              autocapitalize="off"
              rows="24"
              .value=${text}
              @input=${(e: Event) => void changed((e.target as HTMLTextAreaElement).value)}
            ></textarea>
            <p class="link-note" role="status">${linkNote}</p>
            <p class="small">
              The link holds at most ${MAX_HASH_MODEL_CHARS.toLocaleString('en')} characters of compressed model (about 100 KB of
              ordinary JSON); a larger model still runs here but is not put in the link.
            </p>
          </section>
          <section class="pg-issues" aria-labelledby="pg-issues-title">
            <h2 id="pg-issues-title">What the agent reads</h2>
            <div role="status" class="verdict" data-verdict=${jsonError ? 'not-json' : issues.length > 0 ? 'issues' : toolResult ? 'valid' : 'waiting'}>
              ${
                jsonError
                  ? html`<p class="bad">Not JSON: ${jsonError}. A model's tool call with these arguments fails before the Host reads it.</p>`
                  : issues.length > 0
                    ? html`<p class="bad">${issues.length === 1 ? '1 issue' : `${issues.length} issues`}: the panel is not shown.</p>`
                    : toolResult
                      ? html`<p class="good">Valid: the panel is shown.</p>`
                      : html`<p>Checking…</p>`
              }
            </div>
            ${
              issues.length > 0
                ? html`<ul class="issues" aria-label="Issues">
                  ${issues.map((i) => html`<li><code class="path">${i.path}</code>: <span class="message">${i.message}</span></li>`)}
                </ul>`
                : nothing
            }
            ${toolResult ? snippet(toolResult, 'The show_task_surface result, as the agent reads it') : nothing}
          </section>
          <section class="pg-panel" aria-labelledby="pg-panel-title">
            <h2 id="pg-panel-title">The live panel</h2>
            ${
              docs && sessionId
                ? html`<task-surface-dock
                    .transport=${docs.transport}
                    session-id=${sessionId}
                    lang=${look.lang}
                    theme=${look.theme}
                  ></task-surface-dock>
                  <button type="button" class="again" @click=${() => void evaluate()}>Show the panel again</button>`
                : html`<p class="none">No panel: ${jsonError || issues.length > 0 ? 'fix the issues first.' : 'checking the model…'}</p>`
            }
          </section>
          <section class="pg-message" aria-labelledby="pg-message-title">
            <h2 id="pg-message-title">On submit: the user message</h2>
            ${
              answer
                ? html`${snippet(answer.text, 'The message text (formatSubmission)')} ${snippet(answer.source, 'Its source: the correlation with the surface')}`
                : html`<p class="none">Submit the panel: its answer becomes this message, written in the examples' language.</p>`
            }
          </section>
          <section class="pg-tools" aria-labelledby="pg-tools-title">
            <h2 id="pg-tools-title">The tool declaration</h2>
            <p>One definition, three formats: what to put in a model request's tools.</p>
            ${tools.map((t) => snippet(t.code, t.label))}
          </section>
        </div>`,
      main,
    );
  }

  async function fromHash() {
    const decoded = await decodeState(location.hash);
    if (decoded.ok === true) {
      if (decoded.state.lang && decoded.state.lang !== currentLook().lang) setLook({ lang: decoded.state.lang });
      await changed(decoded.state.text, { immediately: true });
    } else {
      await changed(pretty(PLAYGROUND_EXAMPLES[DEFAULT_EXAMPLE]!.model()), { immediately: true });
      if (decoded.ok === false) {
        linkNote = `The link was not read: ${decoded.error}. Showing an example instead.`;
        draw();
      }
    }
  }

  onLook(() => void changed(text, { immediately: true })); // the panel and the message in the new language
  addEventListener('hashchange', () => {
    // Our own replaceState fires no hashchange: this is a pasted or followed link.
    void fromHash();
  });
  void fromHash();
}
