// Conversations and the identity secret are the server user's alone: the demo's data folder is 0700,
// identity.secret 0600 (a loose existing one is tightened on load), the SQLite database and its WAL
// 0600, whatever the umask.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import { createDemoHost } from '../../demo/host.js';
import { createDemoIdentities } from '../../demo/identity.js';

const mode = (path: string) => statSync(path).mode & 0o777;

it('a loose data folder and identity.secret are tightened; the database and WAL are created private', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'task-surface-modes-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const dataDir = join(root, '.data');
  const old = process.umask(0o022);
  t.after(() => process.umask(old));
  mkdirSync(dataDir, { mode: 0o755 });
  chmodSync(dataDir, 0o755);
  writeFileSync(join(dataDir, 'identity.secret'), `${'ab'.repeat(32)}\n`);
  chmodSync(join(dataDir, 'identity.secret'), 0o644);

  const identities = createDemoIdentities(dataDir);
  assert.equal(mode(dataDir), 0o700);
  assert.equal(mode(join(dataDir, 'identity.secret')), 0o600, 'tightened, and the secret kept');
  assert.ok(identities.issue().cookie.value.length > 0);

  const demo = createDemoHost({ dataDir });
  t.after(() => demo.dispose());
  demo.welcome({ id: 'someone' });
  const db = join(dataDir, 'demo.sqlite');
  assert.equal(mode(db), 0o600);
  assert.ok(existsSync(`${db}-wal`), 'WAL mode');
  assert.equal(mode(`${db}-wal`), 0o600);
  if (existsSync(`${db}-shm`)) assert.equal(mode(`${db}-shm`), 0o600);
});
