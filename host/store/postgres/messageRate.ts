/*
 * The Host's messages per minute for a cluster (`createHost({ messageRate })`): each principal's
 * bucket in PostgreSQL, so that every process serving a principal takes from the same one.
 */
import type { SharedMessageRate } from '../../limits/admission.js';
import { tokenBuckets, type BucketQueryable } from './buckets.js';

export interface PostgresMessageRateOptions {
  /** The database's pool (the store's: `store.pool`). */
  db: BucketQueryable;
  /** The store's schema: its migrations made `ts_address_buckets` there. */
  schema: string;
  /** The bucket's name in the table (one row per bucket and principal). Default `messages`. */
  bucket?: string;
  /** How often this process deletes the rows idle long enough to be full again (a minute). Default 60 s. */
  sweepMs?: number;
}

export interface PostgresMessageRate extends SharedMessageRate {
  /** Deletes the rows idle a minute or more (full again: a missing row says the same); answers how many. */
  sweep(): Promise<number>;
  /** Stops the sweep's timer (the pool is the caller's). */
  close(): void;
}

/**
 * Messages per minute per principal, counted in PostgreSQL (`ts_address_buckets`, keyed by the
 * principal's id under the bucket `messages`): a token bucket of `perMinute` (the Host's
 * `quotas.messagesPerMinute`) refilled evenly by the database's clock, taken by one statement per
 * message whichever process asks. A bucket idle a minute is full again, so each process deletes
 * those rows every `sweepMs`. `take` rejects when the database does not answer: the Host then
 * admits nothing (docs/cluster.md).
 */
export function createPostgresMessageRate(options: PostgresMessageRateOptions): PostgresMessageRate {
  const buckets = tokenBuckets(options.db, options.schema, options.bucket ?? 'messages');
  const rate = (perMinute: number) => ({ burst: perMinute, perMinute });
  const sweep = () => buckets.sweep(60);
  const timer = setInterval(() => void sweep().catch(() => undefined), options.sweepMs ?? 60_000);
  timer.unref();
  return {
    async take(principal, perMinute) {
      const { taken, tokens } = await buckets.take(principal, rate(perMinute));
      return taken ? 0 : Math.ceil(((1 - tokens) * 60_000) / perMinute);
    },
    refund: (principal, perMinute) => buckets.give(principal, rate(perMinute)),
    sweep,
    close: () => clearInterval(timer),
  };
}
