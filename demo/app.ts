import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebSocketServer, type TaskSurfaceWebSocketServer } from '../transport/ws/server.js';
import { createDemoHost, type DemoHost, type DemoHostOptions } from './host.js';
import { createDemoHttpServer } from './http.js';
import { createInspectRelay, type InspectRelay } from './inspectRelay.js';

export interface DemoServerOptions extends DemoHostOptions {
  /** Built page directory (see buildDemo). */
  root: string;
  port?: number;
  /** Relay the host's actors to `?inspect` pages (the `--inspect` flag). */
  inspectHost?: boolean;
}

export interface DemoServer {
  readonly port: number;
  readonly url: string;
  demo: DemoHost;
  ws: TaskSurfaceWebSocketServer;
  /**
   * Stops the host and its WebSocket endpoint but keeps the HTTP server, then starts a fresh host on
   * the same store: what a process restart does to connected pages, in one process (tests).
   */
  restartHost(): Promise<void>;
  close(): Promise<void>;
}

/** The demo host on an HTTP server: page, assets, `/ws` for the transport, `/inspect` with the relay. */
export async function startDemoServer(options: DemoServerOptions): Promise<DemoServer> {
  const http: Server = createDemoHttpServer(options.root);
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  const relay: InspectRelay | undefined = options.inspectHost ? createInspectRelay(http) : undefined;
  let demo = createDemoHost({ ...options, ...(relay ? { inspect: relay.inspect } : {}) });
  let ws = await createWebSocketServer({ host: demo.host, server: http, path: '/ws' });
  const server: DemoServer = {
    port,
    url: `http://127.0.0.1:${port}/`,
    get demo() { return demo; },
    get ws() { return ws; },
    async restartHost() {
      await ws.close();
      await demo.dispose();
      demo = createDemoHost({ ...options, ...(relay ? { inspect: relay.inspect } : {}) });
      ws = await createWebSocketServer({ host: demo.host, server: http, path: '/ws' });
    },
    async close() {
      await ws.close();
      relay?.close();
      await demo.dispose();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
  return server;
}
