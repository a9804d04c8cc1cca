import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { privateDir, privateFile } from '../host/store/fileModes.js';
import type { Principal } from '../protocol/index.js';

/** The demo identity's cookie: `<random id>.<HMAC-SHA256 of the id>`, both base64url. */
export const IDENTITY_COOKIE = 'ts_demo_id';
/** A demo identity lasts a year in the browser. */
const MAX_AGE_S = 365 * 24 * 60 * 60;
const SECRET_FILE = 'identity.secret';

/**
 * The demo's anonymous identities: each browser gets a random id in an `HttpOnly`, `SameSite=Strict`
 * cookie signed with a secret kept in `<dataDir>/identity.secret` (made on first start, mode 0600).
 * Not an account system: it only keeps one browser's chats apart from another's.
 */
export interface DemoIdentities {
  /**
   * The principal of a request whose cookie is valid, or (an MCP host has no cookie jar) whose
   * `Authorization: Bearer <the cookie's value>` is; null for none or a forged one.
   */
  principalOf(request: IncomingMessage): Principal | null;
  /** Sets a fresh identity cookie on a page response unless the request already has a valid one. */
  ensureCookie(request: IncomingMessage, response: ServerResponse): void;
  /** A new identity (tests, scripts): its principal and the cookie's value. */
  issue(): { principal: Principal; cookie: { name: string; value: string } };
}

/** `dataDir` undefined: the secret lives only in memory (the memory store: nothing survives anyway). */
export function createDemoIdentities(dataDir: string | undefined): DemoIdentities {
  const secret = dataDir === undefined ? randomBytes(32) : loadSecret(dataDir);
  const sign = (id: string) => createHmac('sha256', secret).update(id).digest('base64url');
  const mint = () => {
    const id = randomBytes(16).toString('base64url');
    return { id, value: `${id}.${sign(id)}` };
  };
  const verify = (value: string | undefined): string | null => {
    if (value === undefined) return null;
    const match = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/.exec(value);
    if (!match) return null;
    const [, id, mac] = match as unknown as [string, string, string];
    const expected = Buffer.from(sign(id));
    return timingSafeEqual(expected, Buffer.from(mac)) ? id : null;
  };
  const principal = (id: string): Principal => ({ id: `demo:${id}`, name: 'Demo visitor' });
  return {
    principalOf(request) {
      const id = verify(cookieValue(request.headers.cookie, IDENTITY_COOKIE) ?? bearerToken(request.headers.authorization));
      return id === null ? null : principal(id);
    },
    ensureCookie(request, response) {
      if (verify(cookieValue(request.headers.cookie, IDENTITY_COOKIE)) !== null) return;
      response.setHeader('Set-Cookie', `${IDENTITY_COOKIE}=${mint().value}; Path=/; Max-Age=${MAX_AGE_S}; HttpOnly; SameSite=Strict`);
    },
    issue() {
      const { id, value } = mint();
      return { principal: principal(id), cookie: { name: IDENTITY_COOKIE, value } };
    },
  };
}

/** The signing secret, created on first start (mode 0600: only the demo's user may read it). */
function loadSecret(dataDir: string): Buffer {
  privateDir(dataDir);
  const path = join(dataDir, SECRET_FILE);
  // A secret another local user could read forges every cookie: an existing one is tightened to 0600.
  if (existsSync(path)) privateFile(path);
  try {
    const secret = Buffer.from(readFileSync(path, 'utf8').trim(), 'hex');
    if (secret.length >= 32) return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const secret = randomBytes(32);
  writeFileSync(path, `${secret.toString('hex')}\n`, { mode: 0o600 });
  chmodSync(path, 0o600); // also when the file existed (too short) with looser bits
  return secret;
}

/** One cookie's value from a `Cookie` header (the first of that name), or undefined. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = header === undefined ? null : /^Bearer +(\S+) *$/i.exec(header);
  return match ? match[1] : undefined;
}
