/*
 * Token buckets in PostgreSQL (`ts_address_buckets`, migration 5): one row per bucket name and key,
 * shared by every process on the database. Each take is one statement: it inserts a full bucket less
 * one, or refills the stored one from its stored time by the database's clock (the processes' clocks
 * never matter) and takes a token if one is there; the row's lock orders two takes of one key,
 * wherever they run. Used by the cluster's message rate (messageRate.ts) and the demo's identity
 * bucket (demo/mintRate.ts).
 */
import { quoteSchema } from './migrations.js';

/** What the buckets need of a pool or client (pg's `Pool` is one). */
export interface BucketQueryable {
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[]; rowCount: number | null }>;
}

/** A bucket's size: `burst` tokens, refilled at `perMinute`. */
export interface BucketRate {
  burst: number;
  perMinute: number;
}

export interface TokenBuckets {
  /** Takes one token of `key`'s bucket: whether one was taken, and the tokens left (a fraction when none was). */
  take(key: string, rate: BucketRate): Promise<{ taken: boolean; tokens: number }>;
  /** Gives one token back to `key`'s bucket (never past `burst`); a bucket swept meanwhile is full already. */
  give(key: string, rate: BucketRate): Promise<void>;
  /** Deletes the rows of this bucket idle `idleSeconds` or more (full again: a missing row says the same); answers how many. */
  sweep(idleSeconds: number): Promise<number>;
}

/** The buckets named `bucket` in `schema`'s `ts_address_buckets`. */
export function tokenBuckets(db: BucketQueryable, schema: string, bucket: string): TokenBuckets {
  const table = `${quoteSchema(schema)}.ts_address_buckets`;
  // The stored bucket refilled to now: $3 burst, $4 tokens a second. `now()` is the statement's
  // transaction start: a statement that waited for the row's lock may see a stored time a moment
  // after it, hence greatest(0, …).
  const refilled = `least($3::double precision,
    b.tokens + greatest(0, extract(epoch FROM now() - b.at)::double precision) * $4::double precision)`;
  // $1 bucket, $2 key.
  const takeSql = `
INSERT INTO ${table} AS b (bucket, address, tokens, taken, at)
VALUES ($1, $2, $3::double precision - 1, true, now())
ON CONFLICT (bucket, address) DO UPDATE SET (tokens, taken, at) = (
  SELECT CASE WHEN f.tokens >= 1 THEN f.tokens - 1 ELSE f.tokens END, f.tokens >= 1, now()
  FROM (SELECT ${refilled} AS tokens) f)
RETURNING tokens, taken`;
  const giveSql = `
UPDATE ${table} AS b SET tokens = least($3::double precision, ${refilled} + 1), at = now()
WHERE b.bucket = $1 AND b.address = $2`;
  const sweepSql = `DELETE FROM ${table} WHERE bucket = $1 AND at < now() - make_interval(secs => $2::double precision)`;
  return {
    async take(key, rate) {
      const { rows } = await db.query(takeSql, [bucket, key, rate.burst, rate.perMinute / 60]);
      const row = rows[0] as { tokens: number; taken: boolean };
      return { taken: row.taken, tokens: row.tokens };
    },
    async give(key, rate) {
      await db.query(giveSql, [bucket, key, rate.burst, rate.perMinute / 60]);
    },
    sweep: async (idleSeconds) => (await db.query(sweepSql, [bucket, idleSeconds])).rowCount ?? 0,
  };
}
