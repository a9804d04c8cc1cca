import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startDemoServer, type DemoServer } from '../../demo/app.js';
import { buildDemo } from '../../demo/build.js';
import { chooseContentCoding } from '../../demo/staticFiles.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A raw HTTP request (fetch would decompress and hide Content-Encoding). */
function get(server: DemoServer, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: server.port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const decode = (answer: Answer) =>
  answer.headers['content-encoding'] === 'br'
    ? brotliDecompressSync(answer.body)
    : answer.headers['content-encoding'] === 'gzip'
      ? gunzipSync(answer.body)
      : answer.body;

let root: string;
let data: string;
let server: DemoServer;
before(async () => {
  root = await buildDemo(mkdtempSync(join(tmpdir(), 'demo-http-')));
  data = mkdtempSync(join(tmpdir(), 'demo-http-data-'));
  server = await startDemoServer({ root, store: 'memory', dataDir: data });
});
after(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
  rmSync(data, { recursive: true, force: true });
});

/** The hashed files the page names (its script and style sheet). */
const pageAssets = () => [...readFileSync(join(root, 'index.html'), 'utf8').matchAll(/\/assets\/[\w.-]+/g)].map((m) => m[0]);

describe('demo static serving', () => {
  it('picks brotli or gzip by Accept-Encoding and its q-values', () => {
    assert.equal(chooseContentCoding(undefined), 'identity');
    assert.equal(chooseContentCoding(''), 'identity');
    assert.equal(chooseContentCoding('gzip, deflate, br, zstd'), 'br');
    assert.equal(chooseContentCoding('gzip'), 'gzip');
    assert.equal(chooseContentCoding('x-gzip'), 'gzip');
    assert.equal(chooseContentCoding('br;q=0, gzip'), 'gzip');
    assert.equal(chooseContentCoding('gzip;q=0.9, br;q=0.1'), 'gzip');
    assert.equal(chooseContentCoding('BR;Q=1'), 'br');
    assert.equal(chooseContentCoding('*'), 'br');
    assert.equal(chooseContentCoding('*;q=0, identity'), 'identity');
    assert.equal(chooseContentCoding('deflate'), 'identity');
    assert.equal(chooseContentCoding('gzip;q=nonsense'), 'identity');
    assert.equal(chooseContentCoding('gzip;q=2'), 'identity');
  });

  it('serves the page and its hashed assets compressed, with Vary, and the same bytes once decoded', async () => {
    for (const path of ['/', ...pageAssets()]) {
      const plain = await get(server, path);
      assert.equal(plain.status, 200, path);
      assert.equal(plain.headers['content-encoding'], undefined);
      assert.equal(Number(plain.headers['content-length']), plain.body.length);
      for (const coding of ['br', 'gzip'] as const) {
        const coded = await get(server, path, { 'Accept-Encoding': coding });
        assert.equal(coded.headers['content-encoding'], coding, path);
        assert.equal(coded.headers.vary, 'Accept-Encoding', path);
        assert.equal(Number(coded.headers['content-length']), coded.body.length);
        assert.ok(coded.body.length < plain.body.length * 0.8, `${path} ${coding}: ${coded.body.length} of ${plain.body.length}`);
        assert.deepEqual(decode(coded), plain.body, path);
      }
    }
  });

  it('keeps the JavaScript a page loads first small on the wire (brotli)', async () => {
    const script = pageAssets().find((p) => p.endsWith('.js'))!;
    const entry = await get(server, script, { 'Accept-Encoding': 'br' });
    // The entry and the chunks it imports statically (not the inspector, loaded only with ?inspect).
    const imports = [
      ...decode(entry)
        .toString('utf8')
        .matchAll(/(?:^|[;}])import[^'"]*["']\.\/([\w.-]+\.js)["']/g),
    ].map((m) => `/assets/${m[1]}`);
    let wire = entry.body.length;
    for (const path of imports) wire += (await get(server, path, { 'Accept-Encoding': 'br' })).body.length;
    assert.ok(imports.length > 0);
    assert.ok(wire < 120 * 1024, `${wire} bytes of JavaScript on the wire`);
  });

  it('caches hashed assets for a year as immutable, and revalidates pages and stable names', async () => {
    for (const path of pageAssets()) {
      assert.match(path, /-[A-Z0-9]{8}\.(js|css)$/);
      assert.equal((await get(server, path)).headers['cache-control'], 'public, max-age=31536000, immutable');
    }
    for (const path of ['/', '/embed/plain', '/embed/react', '/assets/task-surface.js']) {
      const answer = await get(server, path);
      assert.equal(answer.status, 200, path);
      assert.equal(answer.headers['cache-control'], 'no-cache', path);
      assert.ok(answer.headers.etag, path);
    }
    for (const path of ['/nope', '/assets/nope.js', '/assets/..%2fpackage.json']) {
      const answer = await get(server, path);
      assert.equal(answer.status, 404, path);
      assert.equal(answer.headers['cache-control'], 'no-store', path);
    }
    assert.equal((await get(server, '/', {}, 'POST')).headers['cache-control'], 'no-store');
  });

  it('answers 304 to a matching If-None-Match per coding, and a changed page gets a new ETag', async () => {
    const script = pageAssets().find((p) => p.endsWith('.js'))!;
    const br = await get(server, script, { 'Accept-Encoding': 'br' });
    const identity = await get(server, script);
    assert.notEqual(br.headers.etag, identity.headers.etag, 'each coding has its own tag');
    const again = await get(server, script, { 'Accept-Encoding': 'br', 'If-None-Match': String(br.headers.etag) });
    assert.equal(again.status, 304);
    assert.equal(again.body.length, 0);
    assert.equal(
      (await get(server, script, { 'If-None-Match': String(br.headers.etag) })).status,
      200,
      'the br tag does not match identity',
    );
    assert.equal((await get(server, script, { 'If-None-Match': `"x", W/${String(identity.headers.etag)}` })).status, 304);

    const plain = await get(server, '/');
    assert.equal(plain.headers.vary, 'Accept-Encoding');
    assert.equal((await get(server, '/', { 'If-None-Match': String(plain.headers.etag) })).status, 304);

    const file = join(root, 'index.html');
    writeFileSync(file, readFileSync(file, 'utf8').replace('<title>', '<title>Changed '));
    utimesSync(file, new Date(), new Date(Date.now() + 5_000));
    const changed = await get(server, '/', { 'If-None-Match': String(plain.headers.etag) });
    assert.equal(changed.status, 200);
    assert.match(changed.body.toString('utf8'), /<title>Changed /);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const script = pageAssets().find((p) => p.endsWith('.js'))!;
    const head = await get(server, script, { 'Accept-Encoding': 'gzip' }, 'HEAD');
    const full = await get(server, script, { 'Accept-Encoding': 'gzip' });
    assert.equal(head.status, 200);
    assert.equal(head.body.length, 0);
    assert.equal(head.headers['content-length'], full.headers['content-length']);
    assert.equal(head.headers['content-encoding'], 'gzip');
  });
});
