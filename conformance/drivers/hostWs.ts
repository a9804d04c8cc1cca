/*
 * The Host over WebSocket: the package's server on a free local port, the person's side through the
 * package's client (`createWebSocketTransport`), as a page with the Dock reaches a Node host.
 * Node-only (the `ws` package). A reload is a new client; a restart is a new Host and server over
 * the same store.
 */
import { WebSocket } from 'ws';
import { createWebSocketTransport, type WebSocketConstructor } from '../../transport/ws/client.js';
import { createWebSocketServer } from '../../transport/ws/server.js';
import type { ConformanceDriver } from '../driver.js';
import { HOST_SUPPORTS, hostConversation } from './host.js';

export const hostWebSocketDriver: ConformanceDriver = {
  path: 'host-ws',
  description: 'The Host behind `createWebSocketServer`, the person through `createWebSocketTransport` (the `ws` package).',
  supports: HOST_SUPPORTS,
  open: (options) =>
    hostConversation(options, async (host) => {
      const server = await createWebSocketServer({ allowAnonymous: true, host, port: 0, heartbeatMs: 0 });
      const transport = createWebSocketTransport({
        url: `ws://127.0.0.1:${server.port}`,
        WebSocket: WebSocket as unknown as WebSocketConstructor,
        reconnect: { initialDelayMs: 10, maxDelayMs: 50 },
      });
      return {
        transport,
        async close() {
          transport.dispose();
          await server.close();
        },
      };
    }),
};
