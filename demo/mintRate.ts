import type { IncomingMessage } from 'node:http';
import { tokenBuckets } from '../host/store/postgres/buckets.js';
import type { Queryable } from '../transport/cluster/ownership.js';
import { addressKey, requestAddress } from '../transport/forwarded.js';

/** How fast one address may be given new identities: `burst` at once, then `perMinute`. */
export interface MintRate {
  perMinute: number;
  burst: number;
}

/** The demo's default: a browser needs one identity; a classroom behind one NAT needs a few dozen. */
export const DEFAULT_MINT_RATE: MintRate = { perMinute: 30, burst: 60 };

/** Answers 0 when the request's address may have one more identity, else the seconds until it may. */
export interface MintLimiter {
  take(request: IncomingMessage): number | Promise<number>;
  close(): void;
}

/** Addresses remembered at once; past it the fullest buckets (least recent use) are forgotten. */
const MAX_ADDRESSES = 10_000;

/** The address a request's identity counts against: behind a balancer, the one its PROXY header (or a trusted X-Forwarded-For) named; IPv6 by its /64. */
const addressOf = (request: IncomingMessage) => addressKey(requestAddress(request) ?? 'unknown');

/** Seconds until a bucket holding `tokens` has one again. */
const secondsUntilOne = (tokens: number, rate: MintRate) => Math.ceil(((1 - tokens) * 60) / rate.perMinute);

/**
 * A token bucket per remote address for minting demo identities: an identity costs one `GET /`, so
 * without this one address could mint thousands a second and spread its use over all of them.
 * `take(request)` answers 0 when the address may have one more, else the seconds until it may.
 * One process's memory: several processes sharing their users use `createSharedMintLimiter`.
 */
export function createMintLimiter(rate: MintRate = DEFAULT_MINT_RATE): MintLimiter & { take(request: IncomingMessage): number } {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take(request) {
      const address = addressOf(request);
      const now = Date.now();
      const known = buckets.get(address);
      const bucket = known ?? { tokens: rate.burst, at: now };
      bucket.tokens = Math.min(rate.burst, bucket.tokens + ((now - bucket.at) * rate.perMinute) / 60_000);
      bucket.at = now;
      // Most recently used last, so the first entries are the ones to forget.
      buckets.delete(address);
      buckets.set(address, bucket);
      if (buckets.size > MAX_ADDRESSES) buckets.delete(buckets.keys().next().value!);
      if (bucket.tokens < 1) return secondsUntilOne(bucket.tokens, rate);
      bucket.tokens -= 1;
      return 0;
    },
    close() {},
  };
}

/** How often each process deletes the shared buckets idle long enough to be full again. */
const SWEEP_MS = 60_000;

export interface SharedMintLimiterOptions {
  /** The cluster's database (the store's pool). */
  db: Queryable;
  /** The store's schema: its migrations made `ts_address_buckets` there. */
  schema: string;
  rate?: MintRate;
  /** The bucket's name in the table (one row per bucket and address). Default `identities`. */
  bucket?: string;
  /** How often this process deletes the rows idle long enough to be full again. Default 60 s. */
  sweepMs?: number;
}

export interface SharedMintLimiter extends MintLimiter {
  take(request: IncomingMessage): Promise<number>;
  /** `take` for an address as it is counted (`addressKey`). */
  takeAddress(address: string): Promise<number>;
  /** Deletes the rows idle long enough to be full again (what the timer does); answers how many. */
  sweep(): Promise<number>;
}

/**
 * The same bucket as `createMintLimiter`, kept in PostgreSQL (`ts_address_buckets`, in the store's
 * schema) so that every process of a cluster takes from one bucket per address: one address gets
 * `burst` identities at once and `perMinute` after from the whole cluster, not from each process.
 * Each take is one statement (host/store/postgres/buckets.ts): it refills the stored bucket from its
 * stored time by the database's clock and takes a token if one is there; the row's lock orders two
 * takes of one address, wherever they run. A row idle long
 * enough to be full again says nothing a missing one does not: each process deletes those every
 * `sweepMs`, so the table holds only the addresses seen in the last `burst / perMinute` minutes.
 * `take` rejects when the database does not answer (the caller refuses the identity).
 */
export function createSharedMintLimiter(options: SharedMintLimiterOptions): SharedMintLimiter {
  const rate = options.rate ?? DEFAULT_MINT_RATE;
  if (!(rate.burst >= 1 && rate.perMinute > 0)) {
    throw new RangeError(`a mint rate needs burst ≥ 1 and perMinute > 0, not ${JSON.stringify(rate)}`);
  }
  const buckets = tokenBuckets(options.db, options.schema, options.bucket ?? 'identities');
  const takeAddress = async (address: string) => {
    const { taken, tokens } = await buckets.take(address, rate);
    return taken ? 0 : secondsUntilOne(tokens, rate);
  };
  const sweep = () => buckets.sweep((rate.burst * 60) / rate.perMinute);
  const timer = setInterval(() => void sweep().catch(() => undefined), options.sweepMs ?? SWEEP_MS);
  timer.unref();
  return {
    take: (request) => takeAddress(addressOf(request)),
    takeAddress,
    sweep,
    close: () => clearInterval(timer),
  };
}
