/** One principal's bucket: tokens left and when it was last filled. */
interface Bucket {
  tokens: number;
  at: number;
}

/** Buckets kept before the full ones are swept (a full bucket is the same as none). */
const SWEEP_AT = 10_000;

/**
 * Messages per minute for each principal: a token bucket of `perMinute` tokens refilled evenly, so a
 * burst of `perMinute` is allowed and then one message every 60/perMinute s.
 */
export class MessageRate {
  readonly #buckets = new Map<string, Bucket>();

  constructor(
    private readonly perMinute: number,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Takes one token: 0 when allowed, else how many ms until one is there (nothing is taken). */
  take(principal: string): number {
    if (this.perMinute === Infinity) return 0;
    const now = this.clock();
    const bucket = this.#fill(principal, now);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - bucket.tokens) * 60_000) / this.perMinute);
  }

  #fill(principal: string, now: number): Bucket {
    let bucket = this.#buckets.get(principal);
    if (!bucket) {
      if (this.#buckets.size >= SWEEP_AT) this.#sweep(now);
      this.#buckets.set(principal, (bucket = { tokens: this.perMinute, at: now }));
      return bucket;
    }
    bucket.tokens = Math.min(this.perMinute, bucket.tokens + ((now - bucket.at) * this.perMinute) / 60_000);
    bucket.at = now;
    return bucket;
  }

  /** Forgets every bucket that has filled up again: memory stays bounded by the principals active within a minute. */
  #sweep(now: number): void {
    for (const [principal, bucket] of this.#buckets) {
      if (bucket.tokens + ((now - bucket.at) * this.perMinute) / 60_000 >= this.perMinute) this.#buckets.delete(principal);
    }
  }
}
