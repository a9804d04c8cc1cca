/** Median of a sample (milliseconds or any unit). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Percentile p (0–100) by nearest rank. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/**
 * Times `fn` `runs` times after `warmup` untimed runs, interleaved with `baseline` so both see the
 * same machine load; returns both medians (ms) and their ratio.
 */
export function compare(fn: () => unknown, baseline: () => unknown, runs = 200, warmup = 50) {
  for (let i = 0; i < warmup; i++) {
    fn();
    baseline();
  }
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < runs; i++) {
    let t = performance.now();
    baseline();
    b.push(performance.now() - t);
    t = performance.now();
    fn();
    a.push(performance.now() - t);
  }
  const subject = median(a);
  const base = median(b);
  return { subject, baseline: base, ratio: subject / base };
}
