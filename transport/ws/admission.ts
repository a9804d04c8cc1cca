/*
 * Who may hold how many sockets: per principal and per remote address, checked at the upgrade, so
 * that no one person (or one machine) can take every connection the server has.
 */
import type { IncomingMessage } from 'node:http';
import type { WebSocket } from 'ws';
import { CLOSE_PEER_REFUSED, PEER_PROOF_MS } from './peerWire.js';
import { addressKey } from '../forwarded.js';
import { holdsAtMost, processCount, processShare } from '../share.js';

/** Connection caps resolved from `WebSocketServerOptions`. */
export interface ConnectionCaps {
  perPrincipal: number;
  /** One address's connections, all `processes` together: this process holds its share (`transport/share.ts`). */
  perAddress: number;
  /** Processes that serve one address between them. Default 1. */
  processes?: number;
  /** The address an upgrade counts against; null: not counted (e.g. a trusted proxy's own checks). */
  addressOf(request: IncomingMessage): string | null;
}

/** What a refused upgrade says (HTTP 429, body starting with the wire code). */
export const TOO_MANY_CONNECTIONS = 'too-many-connections';

/** Counts open (and opening) connections per principal and per address. */
export class ConnectionCounts {
  readonly #principals = new Map<string, number>();
  readonly #addresses = new Map<string, number>();

  constructor(private readonly caps: ConnectionCaps) {}

  /** Takes an address slot for an upgrade (an IPv6 client's /64: `addressKey`), or answers why not. `release` gives it back. */
  takeAddress(request: IncomingMessage): { release(): void } | string {
    const client = this.caps.addressOf(request);
    if (client === null) return { release() {} };
    const address = addressKey(client);
    const held = this.#addresses.get(address) ?? 0;
    const processes = processCount(this.caps.processes);
    if (held >= processShare(this.caps.perAddress, processes)) {
      return `${TOO_MANY_CONNECTIONS}: this address already holds ${held} connections ${holdsAtMost(this.caps.perAddress, processes)}`;
    }
    return { release: this.#take(this.#addresses, address) };
  }

  /** Takes a principal slot for an authenticated connection, or answers why not. */
  takePrincipal(principalId: string): { release(): void } | string {
    const held = this.#principals.get(principalId) ?? 0;
    if (held >= this.caps.perPrincipal) {
      return `${TOO_MANY_CONNECTIONS}: this principal already holds ${held} connections (at most ${this.caps.perPrincipal}); close one first`;
    }
    return { release: this.#take(this.#principals, principalId) };
  }

  #take(map: Map<string, number>, key: string): () => void {
    map.set(key, (map.get(key) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (map.get(key) ?? 1) - 1;
      if (left <= 0) map.delete(key);
      else map.set(key, left);
    };
  }
}

/** ws's receiver state (internal, stable across ws 8): the opcode of a message begun and not finished. */
interface ReceiverState {
  _fragmented?: number;
}

/**
 * Closes sockets whose message stays unfinished (a frame without FIN, then continuations, never
 * the last) for `maxMs` from when it was first seen: `ws` buffers the fragments (up to
 * `maxPayload` in all) and has no clock of its own. Checked every second; answers a stop function.
 */
export function guardFragments(sockets: Iterable<WebSocket>, maxMs: number): () => void {
  const since = new WeakMap<WebSocket, number>();
  const timer = setInterval(
    () => {
      const now = Date.now();
      for (const socket of sockets) {
        const receiver = (socket as unknown as { _receiver?: ReceiverState })._receiver;
        if (!receiver?._fragmented) {
          since.delete(socket);
          continue;
        }
        const first = since.get(socket);
        if (first === undefined) since.set(socket, now);
        else if (now - first >= maxMs) {
          since.delete(socket);
          socket.close(1008, `a message was not finished within ${maxMs} ms`);
          setTimeout(() => socket.terminate(), 1_000).unref();
        }
      }
    },
    Math.min(1_000, Math.max(50, Math.floor(maxMs / 4))),
  );
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * A claimed peer's admission: the challenge goes out as its first frame, and its first
 * frame must be an answer `verify` accepts within `PEER_PROOF_MS`. Anything else (a wrong or late
 * answer, a binary frame) closes the socket with `CLOSE_PEER_REFUSED`, and nothing it sent is read.
 */
export function admitPeer(socket: WebSocket, challenge: { challenge: string; verify(answer: string): boolean }, proven: () => void): void {
  const refuse = (why: string) => {
    socket.removeAllListeners('message');
    socket.close(CLOSE_PEER_REFUSED, why);
    setTimeout(() => socket.terminate(), 1_000).unref();
  };
  const timer = setTimeout(() => refuse(`no proof within ${PEER_PROOF_MS} ms`), PEER_PROOF_MS);
  timer.unref();
  socket.on('error', () => {});
  socket.once('close', () => clearTimeout(timer));
  socket.once('message', (data, isBinary) => {
    clearTimeout(timer);
    let ok: boolean;
    try {
      ok = !isBinary && challenge.verify(String(data));
    } catch {
      ok = false; // not JSON: no proof
    }
    if (ok) proven();
    else refuse('the peer proof was refused');
  });
  socket.send(challenge.challenge);
}
