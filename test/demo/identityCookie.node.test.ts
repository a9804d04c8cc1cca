// The identity cookie on its own (no server): what a forged or tampered cookie gets.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { cookieValue, createDemoIdentities, IDENTITY_COOKIE } from '../../demo/identity.js';

describe('demo identity cookie', () => {
  it('refuses a cookie with any one character of its MAC or its id changed', () => {
    const identities = createDemoIdentities(undefined);
    const { principal, cookie } = identities.issue();
    const principalFor = (value: string) =>
      identities.principalOf({ headers: { cookie: `${IDENTITY_COOKIE}=${value}` } } as IncomingMessage);
    assert.deepEqual(principalFor(cookie.value), principal);
    assert.deepEqual(principal, { id: `demo:${cookie.value.split('.')[0]}`, name: 'Demo visitor' });
    assert.equal(cookie.name, 'ts_demo_id');
    const changed = (c: string) => (c === 'A' ? 'B' : 'A');
    for (let i = 0; i < cookie.value.length; i++) {
      if (cookie.value[i] === '.') continue;
      const forged = cookie.value.slice(0, i) + changed(cookie.value[i]!) + cookie.value.slice(i + 1);
      assert.equal(principalFor(forged), null, `character ${i} changed: ${forged}`);
    }
  });

  it('reads one cookie out of a Cookie header', () => {
    assert.equal(cookieValue('a=1; ts_demo_id=x.y; b=2', 'ts_demo_id'), 'x.y');
    assert.equal(cookieValue('xts_demo_id=1', 'ts_demo_id'), undefined);
    assert.equal(cookieValue(undefined, 'ts_demo_id'), undefined);
  });

  it('sets a year-long HttpOnly, SameSite=Strict cookie, and only when the request has no valid one', () => {
    const identities = createDemoIdentities(undefined);
    const set = (cookie?: string) => {
      const headers: Record<string, string> = {};
      const request = { headers: cookie === undefined ? {} : { cookie } } as IncomingMessage;
      identities.ensureCookie(request, {
        setHeader: (name: string, value: string) => (headers[name] = value),
      } as unknown as ServerResponse);
      return headers['Set-Cookie'];
    };
    const fresh = set()!;
    assert.match(fresh, /^ts_demo_id=[\w-]{22}\.[\w-]{43}; Path=\/; Max-Age=31536000; HttpOnly; SameSite=Strict$/);
    assert.equal(set(fresh.split(';')[0]), undefined, 'a valid cookie is kept');
    assert.notEqual(set(`${IDENTITY_COOKIE}=forged.value`), undefined, 'a forged one is replaced');
  });

  it('keeps its secret in identity.secret, mode 0600, replacing one too short to trust', (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'ts-identity-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'identity.secret');
    writeFileSync(file, 'abcd\n', { mode: 0o644 });
    const first = createDemoIdentities(dir);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const secret = readFileSync(file, 'utf8');
    assert.match(secret, /^[0-9a-f]{64}\n$/, '32 random bytes, hex');
    const { cookie } = first.issue();
    const again = createDemoIdentities(dir);
    assert.equal(readFileSync(file, 'utf8'), secret);
    assert.notEqual(
      again.principalOf({ headers: { cookie: `${cookie.name}=${cookie.value}` } } as IncomingMessage),
      null,
      'the same secret signs',
    );
  });

  it('refuses a valid cookie with anything added before or after it', () => {
    const identities = createDemoIdentities(undefined);
    const { cookie } = identities.issue();
    const principalFor = (value: string) =>
      identities.principalOf({ headers: { cookie: `${IDENTITY_COOKIE}=${value}` } } as IncomingMessage);
    assert.equal(principalFor(`${cookie.value}A`), null);
    assert.equal(principalFor(`A${cookie.value}`), null);
    assert.equal(principalFor(cookie.value.replace('.', '')), null);
  });

  it('reads the first cookie of that name, trimmed, and nothing from a part without a name', () => {
    assert.equal(cookieValue(' ts_demo_id = a ; ts_demo_id=b', 'ts_demo_id'), 'a');
    assert.equal(cookieValue('=ts_demo_id; x=1', 'ts_demo_id'), undefined);
    assert.equal(cookieValue('ts_demo_id', 'ts_demo_id'), undefined);
    assert.equal(cookieValue('ts_demo_idX', 'ts_demo_id'), undefined, 'a part without = has no value');
  });

  it('reuses a stored 32-byte secret, replaces a shorter one, and fails on an unreadable one', (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'ts-identity-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const data = join(dir, 'nested', 'data');
    const file = join(data, 'identity.secret');
    createDemoIdentities(data); // makes the folder
    const exact = `${'ab'.repeat(32)}\n`;
    writeFileSync(file, exact);
    createDemoIdentities(data);
    assert.equal(readFileSync(file, 'utf8'), exact, '32 bytes are kept');
    writeFileSync(file, `${'ab'.repeat(31)}\n`);
    createDemoIdentities(data);
    assert.notEqual(readFileSync(file, 'utf8'), `${'ab'.repeat(31)}\n`, '31 bytes are replaced');
    rmSync(file);
    mkdirSync(file); // not a file: the demo stops with the error rather than minting a new secret
    assert.throws(() => createDemoIdentities(data), /EISDIR/);
  });
});
