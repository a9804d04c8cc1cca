// A SQLite store's file belongs to one process: a second store on the file (in this process or
// another) fails at once naming the file and the holder, so a live process's running turn is never
// taken for a crashed one; when the holder dies (kill -9) the file is free at once.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createHost } from '../../host/createHost.js';
import { createSqliteStore, StoreLockedError } from '../../host/store/sqlite.js';
import type { SessionId } from '../../protocol/index.js';
import { closeWhenDone } from '../closeWhenDone.js';
import { inTime } from '../transport/helpers.js';
import { ScriptedDriver } from './helpers.js';
import { TSX_IMPORT } from '../../fixtures/tsxImport.js';

const crashChild = fileURLToPath(new URL('./crashChild.ts', import.meta.url));

function tempFile(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'task-surface-lock-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'log.db');
}

/**
 * Starts a host process on `path` whose turn blocks (it stays alive, holding the file); one that has
 * not blocked within 20 s (compiling on a loaded machine) is killed and fails the test by name.
 */
function liveHolder(t: { after(fn: () => void): void }, path: string, sessionId: SessionId): Promise<ChildProcess> {
  const child = spawn(process.execPath, [...TSX_IMPORT, crashChild, path, sessionId, 'first'], { stdio: ['ignore', 'pipe', 'pipe'] });
  t.after(() => child.kill('SIGKILL'));
  const blocked = new Promise<ChildProcess>((resolve, reject) => {
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('blocked') && resolve(child));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`the holder exited (${code}): ${err}`)));
  });
  return inTime(blocked, "the holder's turn to block", 20_000);
}

const killed = (child: ChildProcess) =>
  inTime(
    new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    }),
    'the holder to exit on SIGKILL',
  );

describe('a SQLite store file belongs to one process', () => {
  it('a second store on the file in this process fails at once, naming the file and this process', (t) => {
    const path = tempFile(t);
    const first = createSqliteStore(path);
    const close = closeWhenDone(t, first);
    const started = Date.now();
    assert.throws(
      () => createSqliteStore(path),
      (error: unknown) => {
        assert.ok(error instanceof StoreLockedError);
        assert.equal(error.path, path);
        assert.equal(error.holder?.pid, process.pid);
        assert.match(error.message, new RegExp(`${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is in use by process ${process.pid}`));
        return true;
      },
    );
    assert.ok(Date.now() - started < 1_000, 'no busy wait');
    // The first store is untouched and keeps working; once it closes the file is free.
    first.createSession({ sessionId: 's' as SessionId, title: 'T', createdAt: 1, toolMode: 'native', readOnly: false, locale: 'en' });
    assert.equal(first.listSessions().length, 1);
    void close();
    assert.equal(existsSync(`${path}.owner`), false, 'the owner file goes with the store');
    const again = createSqliteStore(path);
    closeWhenDone(t, again);
    assert.equal(again.listSessions().length, 1);
  });

  it("another process's live turn is never ended as interrupted; after kill -9 the next opener recovers it once", async (t) => {
    const path = tempFile(t);
    const sessionId = 'lock-session' as SessionId;
    const holder = await liveHolder(t, path, sessionId);
    assert.throws(
      () => createSqliteStore(path),
      (error: unknown) =>
        error instanceof StoreLockedError && error.holder?.pid === holder.pid && error.message.includes(`process ${holder.pid}`),
    );
    assert.equal(JSON.parse(readFileSync(`${path}.owner`, 'utf8')).pid, holder.pid);
    await killed(holder);
    // The kernel dropped the dead holder's lock: no stale lock to clear by hand.
    const store = createSqliteStore(path);
    closeWhenDone(t, store);
    assert.equal(JSON.parse(readFileSync(`${path}.owner`, 'utf8')).pid, process.pid, 'the stale owner file is replaced');
    assert.deepEqual(
      store.read(sessionId).flatMap((e) => (e.type === 'turn/ended' ? [e.outcome] : [])),
      [],
      'while it lived, nobody ended its turn',
    );
    const driver = new ScriptedDriver();
    const host = createHost({ store, driver });
    const dispose = closeWhenDone(t, { close: () => host.dispose() });
    host.getView(sessionId);
    await inTime(host.whenIdle(sessionId), 'the recovered session to be idle');
    const ends = store.read(sessionId).flatMap((e) => (e.type === 'turn/ended' ? [e.outcome] : []));
    assert.deepEqual(ends, ['interrupted', 'completed']);
    assert.equal(driver.turns.length, 1, 'run again exactly once');
    await dispose(); // before its store closes
  });
});
