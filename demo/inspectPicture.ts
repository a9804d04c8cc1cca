/** An inspection event as the `/inspect` relay sends it (Stately's serialised form). */
export interface RelayedEvent {
  type: string;
  sessionId: string;
  name?: string;
  parentId?: string;
  snapshot?: { value?: unknown; status?: string };
  event?: { type?: string };
}

const escape = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
const show = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/**
 * A static page of what the inspector receives from the host: each actor, its machine, its latest
 * state and the last events sent to it. The Stately inspector itself is a hosted page, so this is
 * the picture the README can show from a sandbox without network.
 */
export function renderActorsPage(events: readonly RelayedEvent[]): string {
  const actors = new Map<string, { name: string; value: unknown; status: string; events: string[] }>();
  for (const e of events) {
    const actor = actors.get(e.sessionId) ?? { name: e.name ?? e.sessionId, value: undefined, status: '', events: [] };
    if (e.type === '@xstate.actor' && e.name) actor.name = e.name;
    if (e.snapshot?.value !== undefined) actor.value = e.snapshot.value;
    if (e.snapshot?.status) actor.status = e.snapshot.status;
    if (e.type === '@xstate.event' && e.event?.type && !e.event.type.startsWith('xstate.')) actor.events.push(e.event.type);
    actors.set(e.sessionId, actor);
  }
  const rows = [...actors.entries()]
    .filter(([, a]) => a.value !== undefined)
    .map(
      ([id, a]) => `<tr>
    <td><b>${escape(a.name)}</b><div class="id">${escape(id)}</div></td>
    <td><code>${escape(show(a.value))}</code></td><td>${escape(a.status)}</td>
    <td>${a.events
      .slice(-4)
      .map((t) => `<span class="ev">${escape(t)}</span>`)
      .join(' ')}</td></tr>`,
    )
    .join('');
  return `<!doctype html><html><head><meta charset="utf-8"><style>
    body { font: 14px/1.45 system-ui, sans-serif; margin: 24px; color: #1f2328; }
    h1 { font-size: 18px; margin: 0 0 4px; } p { color: #59636e; margin: 0 0 16px; }
    table { border-collapse: collapse; width: 100%; } th, td { text-align: left; padding: 8px 10px; border-bottom: 1px solid #d8dee4; vertical-align: top; }
    th { font-size: 12px; text-transform: uppercase; color: #59636e; letter-spacing: .04em; }
    code { background: #f3f5f7; padding: 1px 6px; border-radius: 4px; } .id { color: #8a939d; font-size: 11px; }
    .ev { display: inline-block; background: #e8f1fd; color: #0a4fa8; border-radius: 999px; padding: 0 8px; margin: 1px; font-size: 12px; }
  </style></head><body><h1>Host actors relayed to <code>?inspect</code></h1>
  <p>${events.length} inspection events from <code>npm start -- --inspect</code>: each actor the host created, its machine, its latest state and the last events it received.</p>
  <table><tr><th>Actor</th><th>State</th><th>Status</th><th>Last events</th></tr>${rows}</table></body></html>`;
}
