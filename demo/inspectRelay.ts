import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { createInspector } from '@statelyai/inspect';
import { WebSocketServer, type WebSocket } from 'ws';
import type { InspectionEvent } from 'xstate';
import { inspectedSession } from '../host/inspect.js';
import type { InspectObserver } from '../host/types.js';
import type { Principal, SessionId } from '../protocol/index.js';
import { requestPath } from '../transport/ws/origin.js';

export interface InspectRelay {
  /** Pass to `createHost({ inspect })`: every host actor reports here. */
  inspect: InspectObserver;
  /** Pages connected now. */
  readonly pageCount: number;
  close(): void;
}

export interface InspectRelayOptions {
  /** Who opens the page (the identity cookie); null refuses the upgrade (401). */
  principalOf(request: IncomingMessage): Principal | null;
  /** Whether the principal may see the session (the Host's policy: `host.as(principal).access(id) !== 'none'`). */
  canSee(principal: Principal, sessionId: SessionId): boolean;
  /** Pages one principal may have open at once; past it 429 `too-many-connections`. Default 4. */
  maxPagesPerPrincipal?: number;
  /** Pages open at once in all. Default 64. */
  maxPages?: number;
  /** Unsent bytes a page may hold before it is closed with 4008 (it does not read). Default 1 MiB. */
  maxBufferedBytes?: number;
  /** Frames kept for pages that open later (each page gets those of its own sessions). Default 2,000. */
  replay?: number;
}

/** Close code for a page that does not read (the transport's `CLOSE_NOT_READING`). */
const CLOSE_NOT_READING = 4008;

/** Actors whose session is remembered (the least recently active are forgotten first). */
const MAX_ACTORS = 10_000;

interface Page {
  socket: WebSocket;
  principal: Principal;
  closed: boolean;
}

/**
 * Relays the host's actors to the browser inspector, each page only the actors of sessions its
 * identity may see (an actor no session owns is never relayed). The host's inspection events are
 * turned into Stately's serialisable form by `createInspector`, the last `replay` kept (so a page
 * that opens later still sees its live actors) and pushed to pages connected on `/inspect`; a
 * `?inspect` page forwards them into its inspector window next to the Dock's own actors. A page
 * that stops reading is cut off, and pages are capped per identity and in all.
 */
export function createInspectRelay(http: Server, options: InspectRelayOptions): InspectRelay {
  const perPrincipal = options.maxPagesPerPrincipal ?? 4;
  const maxPages = options.maxPages ?? 64;
  const maxBuffered = options.maxBufferedBytes ?? 1024 * 1024;
  const replay = options.replay ?? 2_000;
  // Pages only listen: anything larger than a close frame's reason is a misbehaving client.
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 });
  const pages = new Set<Page>();
  const recent: { sessionId: SessionId; frame: string }[] = [];
  /**
   * The host session of each actor by its inspection id (`createInspector` converts events later,
   * in an idle callback, so the event it sends names the actor only by that id). Most recent last.
   */
  const sessionOf = new Map<string, SessionId>();

  const send = (page: Page, frame: string) => {
    if (page.closed) return;
    page.socket.send(frame);
    if (page.socket.bufferedAmount > maxBuffered) {
      page.closed = true;
      page.socket.close(CLOSE_NOT_READING, `not reading: over ${maxBuffered} bytes unsent`);
      setTimeout(() => page.socket.terminate(), 1_000).unref();
    }
  };
  const visible = (page: Page, sessionId: SessionId) => {
    try {
      return options.canSee(page.principal, sessionId);
    } catch {
      return false;
    }
  };
  const inspector = createInspector({
    send(event) {
      const sessionId = sessionOf.get((event as { sessionId?: string }).sessionId ?? '');
      if (sessionId === undefined) return;
      const frame = JSON.stringify(event);
      recent.push({ sessionId, frame });
      if (recent.length > replay) recent.splice(0, recent.length - replay);
      for (const page of pages) if (visible(page, sessionId)) send(page, frame);
    },
  });
  const inspect = (event: InspectionEvent) => {
    const sessionId = inspectedSession(event);
    if (sessionId === undefined) return; // not a session's actor: nobody's to see
    const unique = uniqueIds(event);
    const actor = unique.actorRef.sessionId;
    sessionOf.delete(actor);
    sessionOf.set(actor, sessionId);
    if (sessionOf.size > MAX_ACTORS) sessionOf.delete(sessionOf.keys().next().value!);
    inspector.inspect.next?.(unique as unknown as InspectionEvent);
  };

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (requestPath(request) !== '/inspect' || socket.destroyed || !socket.writable) return;
    const principal = options.principalOf(request);
    if (principal === null) return refuse(socket, 401, 'Unauthorized', 'open the demo page first: /inspect needs its identity cookie');
    const mine = [...pages].filter((p) => p.principal.id === principal.id).length;
    if (mine >= perPrincipal || pages.size >= maxPages) {
      const limit = mine >= perPrincipal ? `${perPrincipal} per identity` : `${maxPages} in all`;
      return refuse(socket, 429, 'Too Many Requests', `too-many-connections: at most ${limit} inspector pages are open at once`);
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      const page: Page = { socket: ws, principal, closed: false };
      pages.add(page);
      const gone = () => {
        page.closed = true;
        pages.delete(page);
      };
      ws.on('close', gone);
      ws.on('error', gone);
      const seen = new Map<SessionId, boolean>();
      for (const { sessionId, frame } of recent) {
        let ok = seen.get(sessionId);
        if (ok === undefined) seen.set(sessionId, (ok = visible(page, sessionId)));
        if (ok) send(page, frame);
      }
    });
  };
  http.on('upgrade', onUpgrade);
  return {
    inspect,
    get pageCount() {
      return pages.size;
    },
    close() {
      http.off('upgrade', onUpgrade);
      for (const page of pages) page.socket.terminate();
      wss.close();
    },
  };
}

/** A number per actor system: xstate numbers actors per system, so every root actor is `x:0`. */
const systems = new WeakMap<object, number>();
let nextSystem = 0;

interface RefLike {
  id: string;
  sessionId: string;
  system?: object;
  logic?: unknown;
  _parent?: RefLike;
  getSnapshot(): unknown;
}

/**
 * The event with actor ids unique across systems (`<system>:x:0`), as `createInspector` reads them
 * when it converts the event (later, in an idle callback): what the inspector shows and what the
 * relay files each frame under no longer mix two sessions' actors.
 */
function uniqueIds(event: InspectionEvent): { actorRef: RefLike; rootId: string } {
  const raw = event as unknown as { actorRef: RefLike; sourceRef?: RefLike; rootId: string };
  const system = raw.actorRef.system ?? raw.actorRef;
  let n = systems.get(system);
  if (n === undefined) systems.set(system, (n = ++nextSystem));
  const id = (sessionId: string) => `s${n}:${sessionId}`;
  const ref = (actor: RefLike): RefLike => ({
    id: actor.id === actor.sessionId ? id(actor.id) : actor.id,
    sessionId: id(actor.sessionId),
    logic: actor.logic,
    ...(actor._parent ? { _parent: { sessionId: id(actor._parent.sessionId) } as RefLike } : {}),
    getSnapshot: () => actor.getSnapshot(),
  });
  return {
    ...(event as object),
    actorRef: ref(raw.actorRef),
    ...(raw.sourceRef ? { sourceRef: ref(raw.sourceRef) } : {}),
    rootId: id(raw.rootId),
  };
}

function refuse(socket: Duplex, status: number, statusText: string, reason: string): void {
  socket.end(
    `HTTP/1.1 ${status} ${statusText}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(reason)}\r\n\r\n${reason}`,
  );
}
