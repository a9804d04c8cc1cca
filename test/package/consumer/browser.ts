// A package user's browser code: type-checked against the built declarations (not run in Node:
// custom elements need a DOM). The components and the bundle are run in Chromium by the browser tests.
import { TaskSurfaceDock, TaskSurfaceView, renderMarkdown, type DraftStore } from 'task-surface/components';
import * as bundle from 'task-surface/bundle';
import { TransportError, createWebSocketTransport } from 'task-surface/transport';
import { TaskSurfaceDock as ChatDock, TaskSurfaceToolview as ChatToolview, useTaskSurface } from 'task-surface/ai-sdk/react';

const dock: TaskSurfaceDock = document.createElement('task-surface-dock');
dock.transport = createWebSocketTransport({ url: `wss://${location.host}/ws` });
const view: TaskSurfaceView = document.createElement('task-surface-view');
view.lang = 'zh';
export const rendered = renderMarkdown('**hi**');
export const bundled = bundle.createWebSocketTransport({ url: 'ws://localhost/ws' });
export const BundledError: typeof TransportError = bundle.TransportError;
export type Drafts = DraftStore;
export const aiSdkReact = [ChatDock, ChatToolview, useTaskSurface];
