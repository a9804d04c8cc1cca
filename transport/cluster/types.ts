/* The options of `joinCluster` and the parts of a Host and a store it drives. */
import type { SessionId } from '../../protocol/index.js';
import type { Queryable } from './ownership.js';
import type { PeerLimits } from './peers.js';

/** Where one request for a session goes. */
export type Route =
  | { kind: 'local' }
  | { kind: 'remote'; url: string }
  | { kind: 'unknown' }
  /** Nowhere right now (a takeover is under way, too many peer connections…): the client retries. */
  | { kind: 'retry'; message: string; retryAfterMs: number };

/** The parts of a Host the cluster drives (a `Host` from `task-surface/host` fits). */
export interface ClusterHost {
  /** Reads a stored session into this process (the Postgres store's Host has it); false when there is none. */
  load?(sessionId: SessionId): Promise<boolean>;
  hasSession(sessionId: SessionId): boolean;
}

/** The parts of a store the cluster drives (`createPostgresStore`'s store fits). */
export interface ClusterStore {
  /** Appends of the session commit only while `ts_session_owners` holds this token. */
  setFence?(sessionId: SessionId, token: bigint | undefined): void;
  /** Resolves when every write of the session made so far is committed. */
  flush?(sessionId?: SessionId): Promise<void>;
  /** Drops this process's copy of the session (the next load reads it afresh). */
  unload?(sessionId: SessionId): void;
  /**
   * Learns the session's record (its owner) without reading its log, so that the policy can be asked
   * before the session is acquired or routed; false when there is none.
   */
  peek?(sessionId: SessionId): Promise<boolean>;
  /** A write failed or was fenced: this process no longer serves the session. */
  onLost?(listener: (sessionId: SessionId, error: Error) => void): () => void;
}

export interface ClusterOptions {
  /** The shared database: a small pool of the cluster's own (taking sessions, leaving). */
  db: Queryable;
  /**
   * Where the heartbeat is renewed: a connection nothing else uses (a pool of one), so that a renewal
   * never waits behind other queries. Default `db`.
   */
  heartbeatDb?: Queryable;
  /** The store's schema (its tables, `ts_workers` among them, are there). Default `public`. */
  schema?: string;
  host: ClusterHost;
  store: ClusterStore;
  /** Stops serving a session in this process (its actors stop; its log stays in the store). */
  unload(sessionId: SessionId): void;
  /** This process's WebSocket endpoint as its peers reach it, e.g. `ws://10.0.0.5:8787/ws`. */
  url: string;
  /** Shared by every process of the cluster; a peer connection must present it. At least 16 characters. */
  secret: string;
  /** Unique per process. Default: host name, pid and a random suffix. */
  workerId?: string;
  /** How often the heartbeat is renewed. Default 1,000 ms. */
  heartbeatMs?: number;
  /**
   * A process whose heartbeat is older than this is dead: its sessions may be taken. Default
   * 10,000 ms. Only the fallback for a process that is frozen or cut off while its database
   * connection stays up: a process that died is known at once by its liveness lock.
   */
  expiryMs?: number;
  peers?: Partial<PeerLimits>;
  onError?(error: unknown): void;
}
