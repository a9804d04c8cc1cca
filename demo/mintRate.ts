import type { IncomingMessage } from 'node:http';
import { addressKey, requestAddress } from '../transport/forwarded.js';

/** How fast one address may be given new identities: `burst` at once, then `perMinute`. */
export interface MintRate {
  perMinute: number;
  burst: number;
}

/** The demo's default: a browser needs one identity; a classroom behind one NAT needs a few dozen. */
export const DEFAULT_MINT_RATE: MintRate = { perMinute: 30, burst: 60 };

/** Addresses remembered at once; past it the fullest buckets (least recent use) are forgotten. */
const MAX_ADDRESSES = 10_000;

/**
 * A token bucket per remote address for minting demo identities: an identity costs one `GET /`, so
 * without this one address could mint thousands a second and spread its use over all of them.
 * `take(request)` answers 0 when the address may have one more, else the seconds until it may.
 */
export function createMintLimiter(rate: MintRate = DEFAULT_MINT_RATE): { take(request: IncomingMessage): number } {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take(request) {
      // Behind a balancer: the address its PROXY header (or a trusted X-Forwarded-For) named; IPv6 by its /64.
      const address = addressKey(requestAddress(request) ?? 'unknown');
      const now = Date.now();
      const known = buckets.get(address);
      const bucket = known ?? { tokens: rate.burst, at: now };
      bucket.tokens = Math.min(rate.burst, bucket.tokens + ((now - bucket.at) * rate.perMinute) / 60_000);
      bucket.at = now;
      // Most recently used last, so the first entries are the ones to forget.
      buckets.delete(address);
      buckets.set(address, bucket);
      if (buckets.size > MAX_ADDRESSES) buckets.delete(buckets.keys().next().value!);
      if (bucket.tokens < 1) return Math.ceil(((1 - bucket.tokens) * 60) / rate.perMinute);
      bucket.tokens -= 1;
      return 0;
    },
  };
}
