/*
 * An element's page: its live examples, each in a section with a Copy-able snippet, and its API
 * beside them. Every example sets itself up on an in-page Host and renders in the reader's look
 * (language and theme); "Start again" sets it up afresh.
 */
import { html, nothing, render, type TemplateResult } from 'lit';
import { apiSection, inlineCode, loadApi } from './api.js';
import type { ElementApi } from './apiData.js';
import { currentLook, onLook, type Look } from './shell.js';
import { snippet } from './snippet.js';

export type { Look };

/** One live example of an element. */
export interface Example {
  id: string;
  title: string;
  /** A sentence or two; `code` spans allowed. */
  about: string;
  /** What a page writes to get this (HTML and the script around it). */
  snippet: string;
  /** Sets up what the example needs (in-page Host calls) and returns how it renders in a look. */
  setup(): Promise<(look: Look) => TemplateResult>;
  /** Runs once the example is on screen (e.g. presses Send to show a refusal). */
  after?(stage: HTMLElement): Promise<void>;
  /** Offer "Start again" (examples the reader can change). */
  restartable?: boolean;
}

type Slot = { state: 'loading' } | { state: 'ready'; view: (look: Look) => TemplateResult } | { state: 'failed'; error: string };

/**
 * Renders `tag`'s page into `main`: its description, its examples, its API. `oneAtATime`: an
 * element a page mounts once (the Dock) shows one live example at a time (an exclusive accordion),
 * so the page never holds two of its landmarks with the same name.
 */
export async function renderElementPage(main: HTMLElement, tag: string, examples: readonly Example[], oneAtATime = false): Promise<void> {
  const slots = new Map<string, Slot>(examples.map((e) => [e.id, { state: 'loading' }]));
  let element: ElementApi | undefined;
  let apiError = '';
  const draw = () => {
    const look = currentLook();
    render(
      html`<h1><code>&lt;${tag}&gt;</code></h1>
        ${element ? html`<p class="lead">${inlineCode(element.description.replace(/\n/g, ' '))}</p>` : nothing}
        <p class="note">
          Every example below runs live in this page on its own in-page Host (the local transport, an in-memory store and a scripted
          agent). Switch the examples' language and theme at the top.
        </p>
        <div class="element-page">
          <div class="examples">
            <h2 id="examples-title" class="visually-hidden">Examples</h2>
            <ul class="toc" aria-label="Examples">
              ${examples.map((e) => html`<li><a href=${`#${e.id}`}>${e.title}</a></li>`)}
            </ul>
            ${examples.map((e) => section(e, slots.get(e.id)!, look))}
          </div>
          ${element ? apiSection(element) : html`<section class="api" aria-label="API"><p role="alert">${apiError || 'Loading the API…'}</p></section>`}
        </div>`,
      main,
    );
  };
  const start = (example: Example) => {
    slots.set(example.id, { state: 'loading' });
    draw();
    example
      .setup()
      .then(async (view) => {
        slots.set(example.id, { state: 'ready', view });
        draw();
        const stage = main.querySelector<HTMLElement>(`#${example.id} .stage`);
        if (stage && example.after) await example.after(stage);
        stage?.setAttribute('data-settled', '');
      })
      .catch((error: unknown) => {
        console.warn(`example ${example.id}:`, error);
        slots.set(example.id, { state: 'failed', error: String(error) });
        draw();
      });
  };
  const stage = (slot: Slot, look: Look) =>
    html`<div class="stage" data-theme=${look.theme} data-state=${slot.state}>
      ${slot.state === 'ready' ? slot.view(look) : slot.state === 'failed' ? html`<p role="alert">This example failed: ${slot.error}</p>` : html`<p>Loading…</p>`}
    </div>`;
  const section = (e: Example, slot: Slot, look: Look) =>
    html`<section class="example" id=${e.id} aria-labelledby=${`${e.id}-title`}>
      <div class="example-head">
        <h2 id=${`${e.id}-title`}>${e.title}</h2>
        ${
          e.restartable && slot.state === 'ready'
            ? html`<button type="button" class="restart" aria-label=${`Start again: ${e.title}`} @click=${() => start(e)}>Start again</button>`
            : nothing
        }
      </div>
      <p>${inlineCode(e.about)}</p>
      ${
        oneAtATime
          ? html`<details name="live-example" ?open=${e === examples[0]}>
            <summary>Live example: ${e.title}</summary>
            ${stage(slot, look)}
          </details>`
          : stage(slot, look)
      }
      ${snippet(e.snippet, `${e.title}: code`)}
    </section>`;
  onLook(draw);
  draw();
  loadApi()
    .then((all) => {
      element = all[tag];
      if (!element) apiError = `custom-elements.json has no <${tag}>`;
      draw();
    })
    .catch((error: unknown) => {
      apiError = `The API did not load: ${String(error)}`;
      draw();
    });
  for (const example of examples) start(example);
  // A link to an example (`#pending`) scrolls to it once it exists.
  if (location.hash.length > 1) document.getElementById(decodeURIComponent(location.hash.slice(1)))?.scrollIntoView();
}
