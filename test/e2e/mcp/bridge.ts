// The host side of the MCP Apps harness, run in the harness page: an ext-apps AppBridge per mount,
// talking to the panel either through a sandbox proxy on another origin (as the spec's web hosts
// do) or straight to a bare `sandbox="allow-scripts"` iframe. Tool calls, messages, model context
// and size reports go to the test through functions it exposes on window.
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';

interface Harness {
  harnessCallTool(params: unknown): Promise<unknown>;
  harnessMessage(params: unknown): Promise<unknown>;
  harnessContext(params: unknown): Promise<unknown>;
  harnessSize(params: { width?: number; height?: number }): Promise<void>;
}
const harness = window as unknown as Harness & Window;

export interface MountOptions {
  mode: 'proxy' | 'bare';
  proxyUrl: string;
  html: string;
  csp: Record<string, string[]>;
  toolInput: Record<string, unknown>;
  toolResult: Record<string, unknown>;
  hostContext: Record<string, unknown>;
}

let current: { bridge: AppBridge; frame: HTMLIFrameElement } | null = null;

/** Mounts the panel for one call; resolves once the view has initialised and has the input and result. */
async function mount(options: MountOptions, frame?: HTMLIFrameElement): Promise<void> {
  const slot = document.getElementById('slot')!;
  if (!frame) {
    await unmount(); // one panel at a time, even after a test that stopped half-way
    frame = document.createElement('iframe');
    frame.title = 'Task panel';
    frame.style.cssText = 'width:100%;border:1px solid #888;height:200px';
    slot.append(frame);
  }
  const bridge = new AppBridge(
    null,
    { name: 'harness', version: '1.0.0' },
    { serverTools: {}, message: { text: {} }, updateModelContext: { text: {} }, openLinks: {} },
    { hostContext: options.hostContext as never },
  );
  bridge.oncalltool = (params) => harness.harnessCallTool(params) as never;
  bridge.onmessage = async (params) => (await harness.harnessMessage(params)) as never;
  bridge.onupdatemodelcontext = async (params) => (await harness.harnessContext(params)) as never;
  bridge.onsizechange = (params) => {
    if (params.height !== undefined) frame!.style.height = `${params.height}px`;
    void harness.harnessSize(params);
  };
  const ready = new Promise<void>((resolve) => {
    bridge.oninitialized = () => {
      void bridge
        .sendToolInput({ arguments: options.toolInput })
        .then(() => {
          // The bench's start: the moment the host hands the view its result (epoch ms, as in the frame).
          Object.assign(window, { resultSentAt: performance.timeOrigin + performance.now() });
          return bridge.sendToolResult(options.toolResult as never);
        })
        .then(resolve);
    };
  });
  if (options.mode === 'proxy') {
    bridge.onsandboxready = () => void bridge.sendSandboxResourceReady({ html: options.html, sandbox: 'allow-scripts', csp: options.csp });
  }
  await bridge.connect(new PostMessageTransport(frame.contentWindow!, frame.contentWindow!));
  current = { bridge, frame };
  if (options.mode === 'proxy') {
    frame.setAttribute('sandbox', 'allow-scripts allow-same-origin');
    frame.src = options.proxyUrl;
  } else {
    frame.setAttribute('sandbox', 'allow-scripts');
    frame.srcdoc = options.html;
  }
  await ready;
}

/** Reloads the same iframe with a fresh bridge (what a host does when it re-renders the frame). */
async function reload(options: MountOptions): Promise<void> {
  const old = current!;
  await old.bridge.close();
  if (options.mode === 'proxy') old.frame.src = 'about:blank';
  else old.frame.removeAttribute('srcdoc');
  await new Promise((resolve) => old.frame.addEventListener('load', resolve, { once: true }));
  await mount(options, old.frame);
}

async function unmount(): Promise<void> {
  if (!current) return;
  await current.bridge.close();
  current.frame.remove();
  current = null;
}

Object.assign(window, { mount, reload, unmount });
