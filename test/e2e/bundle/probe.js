// Loaded by test/e2e/bundle.e2e.ts from a folder holding the built drop-in bundle, under the demo's
// CSP. Mounts elements as a page without a build step would, from the one import a page writes.
import { createWebSocketTransport, registerShippedCardBodies } from '/assets/task-surface.js';

const scenario = new URLSearchParams(location.search).get('scenario');

if (scenario === 'content') {
  const md = document.createElement('task-surface-markdown');
  md.text =
    '# Release notes\n\nTwo **options** &amp; a `flag`.\n\n[例え](https://例え.jp/パス) <https://xn--r8jz45g.jp/a>\n\n&copy; &rarr; &alpha; &HilbertSpace; &#x27E8;';
  document.body.append(md);
  const view = document.createElement('task-surface-view');
  view.model = {
    version: 1,
    title: 'Pick a plan',
    sections: [
      {
        id: 's',
        blocks: [
          { kind: 'markdown', text: 'See *the* notes.' },
          { kind: 'diff', path: 'src/app.ts', before: 'const a = 1;\nconst b = 2;\n', after: 'const a = 1;\nconst b = 3;\n' },
        ],
      },
    ],
    fields: [{ kind: 'text', id: 'name', label: 'Name' }],
    submit: { label: 'Send' },
  };
  document.body.append(view);
}

if (scenario === 'card') {
  registerShippedCardBodies();
  const proposal = {
    callId: 'c1',
    action: 'create_page',
    title: 'Save as a page',
    brief: 'Keeps this plan as a page.',
    details: { pageTitle: 'Kyoto in three days', sections: ['Day 1', 'Day 2'] },
    seq: 4,
  };
  const view = {
    sessionId: 's1',
    lastSeq: 10,
    readOnly: false,
    turn: 'idle',
    taskSurface: { active: null },
    queue: [],
    actionCards: { proposals: [proposal], decisions: {} },
  };
  const card = document.createElement('action-card');
  card.setAttribute('session-id', 's1');
  card.setAttribute('call-id', 'c1');
  card.transport = {
    watchSession(_id, listener) {
      listener(view);
      return () => {};
    },
  };
  document.body.append(card);
}

/** A session view as the Host pushes it, with `active` as the open surface (or none). */
const sessionView = (active) => ({
  sessionId: 's1',
  lastSeq: 3,
  readOnly: false,
  turn: 'idle',
  taskSurface: { active },
  queue: [],
  actionCards: { proposals: [], decisions: {} },
});
const normalizedModel = {
  version: 1,
  title: 'Pick a plan',
  sections: [],
  fields: [{ kind: 'text', id: 'name', label: 'Name', multiline: false, required: false, initial: '' }],
  submit: { label: 'Send' },
};

// The Dock of a session with an open surface (`dock`), with nothing to show (`idle`), or with
// nothing to show but the stored draft of a surface that closed meanwhile (`stale-draft`).
if (scenario === 'dock' || scenario === 'idle' || scenario === 'stale-draft') {
  const dock = document.querySelector('task-surface-dock');
  const active = scenario === 'dock' ? { callId: 'c1', surfaceId: 'f1', pending: null } : null;
  window.dockStates = [];
  new MutationObserver(() => window.dockStates.push(dock.getAttribute('state'))).observe(dock, { attributeFilter: ['state'] });
  if (scenario === 'stale-draft') localStorage.setItem('task-surface:drafts:s1', JSON.stringify({ old: { values: { name: 'x' }, at: 1 } }));
  else dock.draftStorage = null;
  dock.transport = {
    watchSession(_id, listener) {
      queueMicrotask(() => listener(sessionView(active)));
      return () => {};
    },
    taskSurface: {
      getActive: async () => ({ active: true, callId: 'c1', surfaceId: 'f1', model: normalizedModel, pending: null }),
    },
  };
}

// A transcript row of an open surface: its meta is parsed in a chunk.
if (scenario === 'row' || scenario === 'row-plain') {
  const row = document.createElement('task-surface-toolview');
  row.setAttribute('session-id', 's1');
  row.content = 'Task: Pick a plan';
  row.meta = {
    kind: 'task-surface',
    version: 1,
    surfaceId: 'f1',
    model: {
      version: 1,
      title: 'Pick a plan',
      sections: [],
      fields: [{ kind: 'text', id: 'name', label: 'Name' }],
      submit: { label: 'Send' },
    },
  };
  if (scenario === 'row')
    row.transport = {
      watchSession(_id, listener) {
        queueMicrotask(() => listener(sessionView({ callId: 'c1', surfaceId: 'f1', pending: null })));
        return () => {};
      },
    };
  document.body.append(row);
}

// A WebSocket transport over a socket that answers in the page: `window.listSessions()` calls it.
if (scenario === 'ws') {
  class PageSocket {
    readyState = 0;
    onopen = null;
    onclose = null;
    onerror = null;
    onmessage = null;
    constructor() {
      setTimeout(() => {
        this.readyState = 1;
        this.onopen?.({});
      });
    }
    send(data) {
      const { id, type } = JSON.parse(data);
      const result =
        type === 'session.list'
          ? [{ sessionId: 's1', title: 'One', createdAt: 1, lastSeq: 0 }]
          : type === 'session.watch'
            ? 'watching'
            : 'pong';
      const frames = [{ type: 'result', id, result }];
      if (type === 'session.watch') frames.push({ type: 'session.view', sessionId: 's1', view: sessionView(null) });
      for (const frame of frames) setTimeout(() => this.onmessage?.({ data: JSON.stringify(frame) }));
    }
    close() {}
  }
  const transport = createWebSocketTransport({ url: 'ws://page.test/ws', WebSocket: PageSocket, heartbeatMs: 0 });
  // The views of s1 the page has seen (the socket pushes one when the watch arrives).
  window.views = [];
  if (new URLSearchParams(location.search).has('watch')) transport.watchSession('s1', (view) => window.views.push(view.lastSeq));
  window.listSessions = () =>
    transport.listSessions().then(
      (sessions) => sessions.map((s) => s.title),
      (error) => `${error.name} ${error.code}: ${error.message.split(':')[0]}`,
    );
}

document.body.dataset.ready = 'yes';
