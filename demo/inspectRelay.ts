import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { createInspector } from '@statelyai/inspect';
import { WebSocketServer, type WebSocket } from 'ws';
import type { InspectObserver } from '../host/types.js';
import { requestPath } from '../transport/ws/origin.js';

export interface InspectRelay {
  /** Pass to `createHost({ inspect })`: every host actor reports here. */
  inspect: InspectObserver;
  close(): void;
}

const REPLAY = 2_000;

/**
 * Relays the host's actors to the browser inspector. The host's inspection events are turned
 * into Stately's serialisable form by `createInspector`, kept (the last 2,000, so a page that opens
 * later still sees every live actor) and pushed to pages connected on `/inspect`; a `?inspect` page
 * forwards them into its `createBrowserInspector` window next to the Dock's own actors.
 */
export function createInspectRelay(http: Server): InspectRelay {
  const wss = new WebSocketServer({ noServer: true });
  const pages = new Set<WebSocket>();
  const recent: string[] = [];
  const inspector = createInspector({
    send(event) {
      const frame = JSON.stringify(event);
      recent.push(frame);
      if (recent.length > REPLAY) recent.splice(0, recent.length - REPLAY);
      for (const page of pages) page.send(frame);
    },
  });
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (requestPath(request) !== '/inspect') return;
    wss.handleUpgrade(request, socket, head, (page) => {
      pages.add(page);
      page.on('close', () => pages.delete(page));
      page.on('error', () => pages.delete(page));
      // Pages only listen; whatever they send is ignored.
      for (const frame of recent) page.send(frame);
    });
  };
  http.on('upgrade', onUpgrade);
  return {
    inspect: inspector.inspect,
    close() {
      http.off('upgrade', onUpgrade);
      for (const page of pages) page.terminate();
      wss.close();
    },
  };
}
