/*
 * A per-address limit held by several processes between them (Node only). Behind a balancer that
 * deals one address's connections over N processes, a limit each counted in its own memory would
 * give that address N times its total: each process holds its share, ceil(limit / N), and its
 * refusals name the share and the total, so that a client reading one knows why it came early.
 */

/** `processes` when it is a positive integer, else 1 (one process holds the whole limit). */
export function processCount(processes: number | undefined): number {
  return processes !== undefined && Number.isInteger(processes) && processes > 0 ? processes : 1;
}

/** One process's share of `limit` held by `processes` between them: ceil(limit / processes); the limit itself for one. */
export function processShare(limit: number, processes: number): number {
  return processes > 1 ? Math.ceil(limit / processes) : limit;
}

/**
 * How many of something one address may hold, after `this address already holds 22 connections`:
 * `(at most 64)` for one process, and for 3
 * `on this process (at most 22: its share of the 64 one address may hold across 3 processes)`.
 */
export function holdsAtMost(total: number, processes: number): string {
  const share = processShare(total, processes);
  if (processes <= 1) return `(at most ${share})`;
  return `on this process (at most ${share}: its share of the ${total} one address may hold across ${processes} processes)`;
}

/**
 * How fast `who` may send, after `this address may send`: `200 a second (bursts of 400)` for one
 * process, and for 3 `67 a second (bursts of 134) to this process: its share of the 200 a second
 * (bursts of 400) one address may send across 3 processes`.
 */
export function sendsAtMost(total: { perSecond: number; burst: number }, processes: number, one = 'one address'): string {
  const rate = (perSecond: number, burst: number) => `${perSecond} a second (bursts of ${burst})`;
  const own = rate(processShare(total.perSecond, processes), processShare(total.burst, processes));
  if (processes <= 1) return own;
  return `${own} to this process: its share of the ${rate(total.perSecond, total.burst)} ${one} may send across ${processes} processes`;
}
