export interface ReconnectOptions {
  /** Delay before the first reconnect attempt. Default 100 ms. */
  initialDelayMs?: number;
  /** Longest delay between attempts. Default 5 s. */
  maxDelayMs?: number;
}

/**
 * Delay before reconnect attempt `attempt` (0-based): exponential from `initialDelayMs`, capped at
 * `maxDelayMs`, with "equal jitter" (half fixed, half random) so a restarted host is not hit by every
 * client at the same instant.
 */
export function backoffDelay(attempt: number, options: ReconnectOptions = {}): number {
  const initial = options.initialDelayMs ?? 100;
  const max = options.maxDelayMs ?? 5_000;
  const ceiling = Math.min(max, initial * 2 ** Math.min(attempt, 20));
  return ceiling / 2 + Math.random() * (ceiling / 2);
}
