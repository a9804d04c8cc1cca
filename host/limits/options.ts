/*
 * The Host's per-principal limits as configuration: every field optional, each with a documented
 * default (docs/security.md). A limit is a positive integer; `Infinity` switches it off.
 */

export interface QuotaOptions {
  /** Sessions one principal may own (opened or forked). Past it `session.open` and `fork` are `quota-exceeded`. Default 200. */
  sessionsPerPrincipal?: number;
  /** UTF-8 bytes one session's stored log may reach before it takes no more input. Default 16 MiB. */
  bytesPerSession?: number;
  /** UTF-8 bytes of all a principal's sessions together before they take no more input. Default 128 MiB. */
  bytesPerPrincipal?: number;
  /** Messages (sends and Task Surface submissions) one principal may send per minute (a bucket refilled evenly). Default 30. */
  messagesPerMinute?: number;
  /** Sessions of one owner with a turn running or waiting to run; a message to another is `too-busy`. Default 4. */
  turnsPerPrincipal?: number;
  /** Model calls one owner's turns make at once; later ones wait their turn. Default 2. */
  modelCallsPerPrincipal?: number;
  /** Model calls the whole Host makes at once; past it calls wait, taken round-robin across owners. Default 32. */
  modelCalls?: number;
}

export type Quotas = Required<QuotaOptions>;

export const DEFAULT_QUOTAS: Readonly<Quotas> = Object.freeze({
  sessionsPerPrincipal: 200,
  bytesPerSession: 16 * 1024 * 1024,
  bytesPerPrincipal: 128 * 1024 * 1024,
  messagesPerMinute: 30,
  turnsPerPrincipal: 4,
  modelCallsPerPrincipal: 2,
  modelCalls: 32,
});

/** Every limit set: each given value checked (a positive integer or Infinity), the default otherwise. */
export function resolveQuotas(input: QuotaOptions = {}): Quotas {
  if (typeof input !== 'object' || input === null) throw new TypeError('createHost: quotas must be an object');
  const quotas = { ...DEFAULT_QUOTAS };
  for (const [key, value] of Object.entries(input) as [keyof Quotas, unknown][]) {
    if (!Object.hasOwn(DEFAULT_QUOTAS, key)) {
      throw new TypeError(`createHost: unknown quota "${key}"; known: ${Object.keys(DEFAULT_QUOTAS).join(', ')}`);
    }
    if (value === undefined) continue;
    if (value !== Infinity && !(typeof value === 'number' && Number.isInteger(value) && value > 0)) {
      throw new TypeError(`createHost: quotas.${key} must be a positive integer or Infinity, not ${String(value)}`);
    }
    quotas[key] = value;
  }
  return quotas;
}
