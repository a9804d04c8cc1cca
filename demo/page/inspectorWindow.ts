// The `?inspect` page's link to the Stately inspector window. The library's own adapter opens the
// window by name and posts every event with target origin '*': whatever page ends up in (or takes
// over) a window of that name would read the actors' events, messages included. Here the window is
// our own reference, events go only to the inspector's origin, and only its window may say
// "connected".
import { createBrowserInspector } from '@statelyai/inspect';
import type { InspectionEvent, Observer } from 'xstate';

/** Where the inspector lives: the only origin the page posts inspection events to. */
export const INSPECTOR_URL = 'https://stately.ai/inspect';
/** Events kept for the inspector until it says it is connected (the oldest go first). */
const MAX_WAITING = 2_000;

/** The inspector: `inspect` for the Dock's actors, `send` for events relayed from the host. */
export interface InspectorWindow {
  inspect: Observer<InspectionEvent>;
  send(event: object): void;
}

/** Opens the inspector window (`win` is the page's window; tests pass a stand-in). */
export function openInspectorWindow(win: Window = window): InspectorWindow {
  const origin = new URL(INSPECTOR_URL).origin;
  // No name: a named window is found by any page that names it, and could be another site's.
  const target = win.open(INSPECTOR_URL);
  const waiting: object[] = [];
  let connected = false;
  const post = (event: object) => {
    if (!target || target.closed) return;
    if (connected) target.postMessage(event, origin);
    else {
      waiting.push(event);
      if (waiting.length > MAX_WAITING) waiting.shift();
    }
  };
  win.addEventListener('message', (event: MessageEvent) => {
    if (event.origin !== origin || event.source !== target) return;
    if ((event.data as { type?: unknown } | null)?.type !== '@statelyai.connected' || connected) return;
    connected = true;
    for (const queued of waiting.splice(0)) target!.postMessage(queued, origin);
  });
  const inspector = createBrowserInspector({ window: win, autoStart: false, maxDeferredEvents: 0, send: (event) => post(event) });
  return { inspect: inspector.inspect, send: post };
}
