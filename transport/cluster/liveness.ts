/*
 * How peers learn at once that a process died: it holds a session-level advisory lock on its own
 * id on a connection of its own (the heartbeat's), and PostgreSQL releases that lock the moment the
 * connection ends, which a kill -9 does. A peer that suspects it (a connection to it broke) tries
 * the lock; if it gets it, the process is gone (see `removeIfDead`). The heartbeat's expiry stays
 * the fallback for a partition that leaves that connection up.
 */
import { lockLiveness, removeIfDead, type Queryable, type Tables } from './ownership.js';

/** A connection checked out of a pool (a `pg.PoolClient` fits). */
interface HeldClient extends Queryable {
  release(error?: Error | boolean): void;
  on(event: 'error' | 'end', listener: (error?: Error) => void): unknown;
}

/** A pool this can take a connection of its own from (a `pg.Pool` fits). */
interface Connectable extends Queryable {
  connect(): Promise<HeldClient>;
}

const canConnect = (db: Queryable): db is Connectable => typeof (db as Partial<Connectable>).connect === 'function';

export class Liveness {
  #client: HeldClient | undefined;

  constructor(
    private readonly source: Queryable,
    private readonly workerId: string,
    /** The lock's connection ended: peers may take this process for dead from now on. */
    private readonly onLost: (error: Error | undefined) => void,
  ) {}

  /** The source is a pool: the lock can be held (otherwise peers wait for the heartbeat's expiry). */
  get possible(): boolean {
    return canConnect(this.source);
  }

  get held(): boolean {
    return this.#client !== undefined;
  }

  /** Where the heartbeat is renewed: the lock's own connection while it is held. */
  get db(): Queryable {
    return this.#client ?? this.source;
  }

  /** Takes a connection of its own and the lock on it; false when the source is no pool or another holds the lock. */
  async take(): Promise<boolean> {
    if (this.#client) return true;
    if (!canConnect(this.source)) return false;
    const client = await this.source.connect();
    let locked: boolean;
    try {
      locked = await lockLiveness(client, this.workerId);
    } catch (error) {
      client.release(error instanceof Error ? error : true);
      throw error;
    }
    if (!locked) {
      client.release();
      return false;
    }
    const lost = (error?: Error) => {
      if (this.#client !== client) return;
      this.#client = undefined;
      client.release(error ?? true);
      this.onLost(error);
    };
    client.on('error', lost);
    client.on('end', () => lost());
    this.#client = client;
    return true;
  }

  /** Ends the lock's connection (which releases the lock). */
  close(): void {
    const client = this.#client;
    this.#client = undefined;
    client?.release(true);
  }
}

/**
 * `removeIfDead`, tried again after 100 and 300 ms (PostgreSQL may see a connection end a moment
 * after a peer does): how many processes at `url` were removed; 0 on an error (reported).
 */
export async function provablyDead(db: Queryable, t: Tables, url: string, self: string, report: (error: unknown) => void): Promise<number> {
  for (const delay of [0, 100, 200]) {
    if (delay) await new Promise((resolve) => setTimeout(resolve, delay));
    try {
      const removed = await removeIfDead(db, t, url, self);
      if (removed > 0) return removed;
    } catch (error) {
      report(error);
      return 0;
    }
  }
  return 0;
}
