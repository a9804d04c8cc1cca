/** A PostgreSQL server for tests and benchmarks (see ensure-postgres.mjs). */
export function ensurePostgres(options?: { durable?: boolean }): Promise<{ url: string; stop(): void }>;
