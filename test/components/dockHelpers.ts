import { fixture, html, waitUntil } from '@open-wc/testing';
import type { TaskSurfaceDock } from '../../components/dock/task-surface-dock.js';
import '../../components/dock/task-surface-dock.js';
import type { TaskSurfaceView } from '../../components/view/task-surface-view.js';
import type { HostTransport } from '../../transport/types.js';
import type { SessionId } from '../../protocol/index.js';
import { draftStorageKey } from '../../components/drafts/draftStore.js';

export async function mountDock(transport: HostTransport | undefined, sessionId: string, attrs: { lang?: string; theme?: string } = {}) {
  return fixture<TaskSurfaceDock>(
    html`<task-surface-dock session-id=${sessionId} .transport=${transport} lang=${attrs.lang ?? 'en'} theme=${attrs.theme ?? 'light'}></task-surface-dock>`,
  );
}

/**
 * Forgets the drafts of the given sessions. Test files run side by side on one origin and share its
 * localStorage: each file uses session ids of its own and forgets only those, never `clear()`.
 */
export function forgetDrafts(...sessionIds: string[]): void {
  for (const sessionId of sessionIds) localStorage.removeItem(draftStorageKey(sessionId as SessionId));
}

export const viewOf = (dock: TaskSurfaceDock) => dock.shadowRoot!.querySelector<TaskSurfaceView>('task-surface-view')!;
export const inView = <E extends Element = HTMLElement>(dock: TaskSurfaceDock, sel: string) =>
  viewOf(dock).shadowRoot!.querySelector<E>(sel)!;
export const inDock = <E extends Element = HTMLElement>(dock: TaskSurfaceDock, sel: string) => dock.shadowRoot!.querySelector<E>(sel)!;
export const statusText = (dock: TaskSurfaceDock) => inDock(dock, '.status')?.textContent ?? '';

export async function inState(dock: TaskSurfaceDock, state: string) {
  await waitUntil(() => dock.state === state, `dock never reached ${state} (is ${dock.state})`);
  await dock.updateComplete;
  const view = viewOf(dock);
  if (view) await view.updateComplete;
}

/** Types into the text field at `index` as a person would (value + input event). */
export async function typeInto(dock: TaskSurfaceDock, index: number, text: string) {
  const input = inView<HTMLInputElement>(dock, `#f${index}`);
  input.value = text;
  input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  await viewOf(dock).updateComplete;
}

export const submitButton = (dock: TaskSurfaceDock) => inView<HTMLButtonElement>(dock, 'button[part="submit"]');
export const dismissButton = (dock: TaskSurfaceDock) => inDock<HTMLButtonElement>(dock, 'button[part="dismiss"]');

/** The focused element, through open shadow roots. */
export function deepActive(): HTMLElement | null {
  let el = document.activeElement as HTMLElement | null;
  while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement as HTMLElement;
  return el;
}
