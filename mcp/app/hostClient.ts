/*
 * The panel's side of MCP Apps (2026-01-26) over postMessage: the handful of messages the panel
 * uses, in place of ext-apps' `App`, which brings the whole MCP client protocol and zod with it
 * (about 60 KB gzip of a 120 KB document). The wire is the spec's JSON-RPC 2.0; the tests drive
 * this client from ext-apps' own `AppBridge` (the host side), bare and through a sandbox proxy, so
 * the library stays the oracle of the protocol.
 */
import type { PanelHost } from './panelApp.js';

/** The MCP Apps version the panel speaks (ext-apps' `LATEST_PROTOCOL_VERSION`). */
export const PROTOCOL_VERSION = '2026-01-26';

/** How long a request waits for the host's answer (ext-apps' own default). */
const REQUEST_TIMEOUT_MS = 60_000;

/** The host context fields the panel reads. */
export interface HostContext {
  locale?: string;
  theme?: string;
  displayMode?: string;
  styles?: { variables?: Record<string, string | undefined> };
  [key: string]: unknown;
}

/** A tool result as the host hands it to the view. */
export interface ToolResult {
  isError?: boolean;
  structuredContent?: unknown;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

/** The host answered a request with a JSON-RPC error: it refused. */
export class HostRefusal extends Error {
  override name = 'HostRefusal';
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

interface Message {
  jsonrpc: '2.0';
  id?: string | number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/** A view connected to its host (the window that framed it). */
export class HostClient implements PanelHost {
  ontoolinputpartial?: (params: { arguments?: Record<string, unknown> }) => void;
  ontoolinput?: (params: { arguments?: Record<string, unknown> }) => void;
  ontoolresult?: (result: ToolResult) => void;
  ontoolcancelled?: () => void;
  onhostcontextchanged?: (context: HostContext) => void;
  #nextId = 1;
  #pending = new Map<string | number, { resolve(value: Record<string, unknown>): void; reject(error: Error): void }>();
  #hostInfo: { name: string; version?: string } | undefined;
  #context: HostContext = {};

  constructor(
    private readonly target: Window = window.parent,
    private readonly timeoutMs = REQUEST_TIMEOUT_MS,
  ) {}

  /** Listens, initializes (`ui/initialize`, then `ui/notifications/initialized`) and reports the size from then on. */
  async connect(appInfo: { name: string; version: string }): Promise<void> {
    window.addEventListener('message', (event) => {
      if (event.source === this.target) this.#receive(event.data as Message);
    });
    const result = await this.#request('ui/initialize', { appInfo, appCapabilities: {}, protocolVersion: PROTOCOL_VERSION });
    this.#hostInfo = result['hostInfo'] as { name: string } | undefined;
    this.#context = (result['hostContext'] as HostContext | undefined) ?? {};
    this.#post({ jsonrpc: '2.0', method: 'ui/notifications/initialized' });
    this.#reportSize();
  }

  getHostVersion(): { name: string } | undefined {
    return this.#hostInfo;
  }
  getHostContext(): HostContext {
    return this.#context;
  }

  callServerTool(params: {
    name: string;
    arguments: Record<string, unknown>;
  }): Promise<{ structuredContent?: unknown; isError?: boolean }> {
    return this.#request('tools/call', params);
  }
  sendMessage(params: { role: 'user'; content: { type: 'text'; text: string }[] }): Promise<{ isError?: boolean }> {
    return this.#request('ui/message', params);
  }
  updateModelContext(params: { content: { type: 'text'; text: string }[] }): Promise<unknown> {
    return this.#request('ui/update-model-context', params);
  }
  openLink(params: { url: string }): Promise<unknown> {
    return this.#request('ui/open-link', params);
  }

  #post(message: Message): void {
    this.target.postMessage(message, '*');
  }

  #request(method: string, params: object): Promise<Record<string, unknown>> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new Error(`the host did not answer ${method} within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      this.#pending.set(id, {
        resolve: (value) => (clearTimeout(timer), resolve(value)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      });
      this.#post({ jsonrpc: '2.0', id, method, params: params as Record<string, unknown> });
    });
  }

  #receive(message: Message): void {
    if (message?.jsonrpc !== '2.0') return;
    if (message.method === undefined) {
      const waiting = message.id === undefined ? undefined : this.#pending.get(message.id);
      if (!waiting) return;
      this.#pending.delete(message.id!);
      if (message.error) waiting.reject(new HostRefusal(message.error.code, message.error.message));
      else waiting.resolve(message.result ?? {});
      return;
    }
    const params = message.params ?? {};
    if (message.id !== undefined) {
      // Requests from the host: a ping or a teardown is answered at once; the panel takes no other.
      const known = message.method === 'ping' || message.method === 'ui/resource-teardown';
      return this.#post(
        known
          ? { jsonrpc: '2.0', id: message.id, result: {} }
          : { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } },
      );
    }
    switch (message.method) {
      case 'ui/notifications/tool-input-partial':
        return this.ontoolinputpartial?.(params);
      case 'ui/notifications/tool-input':
        return this.ontoolinput?.(params);
      case 'ui/notifications/tool-result':
        return this.ontoolresult?.(params as ToolResult);
      case 'ui/notifications/tool-cancelled':
        return this.ontoolcancelled?.();
      case 'ui/notifications/host-context-changed':
        this.#context = { ...this.#context, ...params };
        return this.onhostcontextchanged?.(this.#context);
    }
  }

  /** `ui/notifications/size-changed` whenever the document's size changes (as ext-apps' `autoResize` measures it). */
  #reportSize(): void {
    let scheduled = false;
    let width = 0;
    let height = 0;
    const measure = () => {
      if (scheduled) return;
      scheduled = true;
      requestAnimationFrame(() => {
        scheduled = false;
        const root = document.documentElement;
        const before = root.style.height;
        root.style.height = 'max-content';
        const h = Math.ceil(root.getBoundingClientRect().height);
        root.style.height = before;
        const w = Math.ceil(window.innerWidth);
        if (w === width && h === height) return;
        width = w;
        height = h;
        this.#post({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { width: w, height: h } });
      });
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(document.documentElement);
    observer.observe(document.body);
  }
}
