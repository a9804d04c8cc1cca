/*
 * When is another process dead? At once when its liveness lock is free (it died), else once its
 * heartbeat is older than the expiry by the database's clock (frozen, or cut off while its database
 * connection stays up). Concurrent questions about one address share one answer.
 */
import { provablyDead } from './liveness.js';
import type { Queryable, Tables } from './ownership.js';

export class Suspicions {
  readonly #dead = new Map<string, Promise<number>>();
  readonly #expiring = new Map<string, Promise<void>>();

  constructor(
    private readonly db: Queryable,
    private readonly t: Tables,
    private readonly workerId: string,
    private readonly expiryMs: number,
    private readonly report: (error: unknown) => void,
  ) {}

  /**
   * A connection to the process at `url` broke: if it no longer holds its liveness lock it is dead,
   * and its row is removed so that its sessions may be taken at once. Tried again after 100 and
   * 300 ms (the database may see the connection end a moment after this process does). Answers
   * how many processes were removed (0: alive, or not provably dead: the expiry decides).
   */
  suspect(url: string): Promise<number> {
    let checking = this.#dead.get(url);
    if (!checking) {
      checking = provablyDead(this.db, this.t, url, this.workerId, this.report).finally(() => this.#dead.delete(url));
      this.#dead.set(url, checking);
    }
    return checking;
  }

  /**
   * Resolves once the process at `url` has been silent for the expiry by the database's clock, so
   * that its sessions may be taken (at once when it is gone; a live process just delays the caller
   * by about one expiry).
   */
  whenExpired(url: string): Promise<void> {
    let waiting = this.#expiring.get(url);
    if (!waiting) {
      waiting = this.#expired(url).finally(() => this.#expiring.delete(url));
      this.#expiring.set(url, waiting);
    }
    return waiting;
  }

  async #expired(url: string): Promise<void> {
    // Dead for certain (its liveness lock is free): no expiry to wait for.
    if ((await this.suspect(url)) > 0) return;
    let wait = this.expiryMs;
    try {
      const { rows } = await this.db.query(
        `SELECT (extract(epoch FROM (max(heartbeat_at) - now())) * 1000 + $2)::float8 AS wait FROM ${this.t.workers} WHERE url = $1`,
        [url, this.expiryMs],
      );
      wait = Math.max(0, Number(rows[0]?.wait ?? 0));
    } catch (error) {
      this.report(error);
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(wait, this.expiryMs) + 20));
  }
}
