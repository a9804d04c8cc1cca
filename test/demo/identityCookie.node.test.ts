// The identity cookie on its own (no server): what a forged or tampered cookie gets.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
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
});
