/*
 * One process owns a SQLite store's file. SQLite's own exclusive lock is the authority (the kernel
 * drops it when the process dies, so a crash leaves nothing stale); a small file beside the
 * database names the holder, so that a second opener's error can say who it is.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import type Database from 'better-sqlite3';

/** Who holds a store's file, as its owner file says. */
export interface StoreHolder {
  pid: number;
  hostname: string;
  /** When it took the file (ISO 8601). */
  since: string;
}

/** A second opener of a SQLite store's file: another store (in this process or another) holds it. */
export class StoreLockedError extends Error {
  override readonly name = 'StoreLockedError';
  constructor(
    /** The database file. */
    readonly path: string,
    /** The holder, when its owner file could be read. */
    readonly holder: StoreHolder | undefined,
  ) {
    super(
      `the SQLite store ${path} is in use by ${holder ? `process ${holder.pid} on ${holder.hostname} (since ${holder.since})` : 'another process'}: a store's file belongs to one process at a time; stop that process, or use another file`,
    );
  }
}

/** The file beside the database that names its holder. */
export const ownerFileOf = (path: string) => `${path}.owner`;

/**
 * Takes the database's file for this connection until it closes: `locking_mode = EXCLUSIVE` and one
 * write transaction. Fails at once (no busy wait) with a StoreLockedError when another connection
 * holds it. Returns the release of the owner file.
 */
export function lockStoreFile(db: Database.Database, path: string): () => void {
  db.pragma('busy_timeout = 0');
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.pragma('journal_mode = WAL');
    db.exec('BEGIN EXCLUSIVE; COMMIT');
  } catch (error) {
    if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
    throw new StoreLockedError(path, readHolder(path));
  } finally {
    db.pragma('busy_timeout = 5000');
  }
  const me: StoreHolder = { pid: process.pid, hostname: hostname(), since: new Date().toISOString() };
  const ownerFile = ownerFileOf(path);
  writeFileSync(ownerFile, `${JSON.stringify(me)}\n`, { mode: 0o600 });
  return () => {
    // Only our own: a later holder's file (after ours was left by a crash) stays.
    if (readHolder(path)?.pid === me.pid) rmSync(ownerFile, { force: true });
  };
}

function readHolder(path: string): StoreHolder | undefined {
  try {
    const parsed = JSON.parse(readFileSync(ownerFileOf(path), 'utf8')) as Partial<StoreHolder>;
    if (typeof parsed.pid === 'number' && typeof parsed.hostname === 'string' && typeof parsed.since === 'string') {
      return { pid: parsed.pid, hostname: parsed.hostname, since: parsed.since };
    }
  } catch {
    // No owner file (an older version, or a foreign tool holds the lock): the error says so.
  }
  return undefined;
}
