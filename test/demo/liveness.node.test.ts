import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { rawSocket } from '../transport/helpers.js';
import { TSX_IMPORT } from '../../fixtures/tsxImport.js';

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('the demo server as a real process: hostile frames do not stop it', () => {
  let child: ChildProcess;
  let out: string;
  let port: number;
  let exited: number | null | undefined;
  before(async () => {
    out = mkdtempSync(join(tmpdir(), 'demo-live-'));
    child = spawn(process.execPath, [...TSX_IMPORT, 'demo/server.ts', '--memory'], {
      // The scripted agent, whatever model keys the environment has.
      env: { ...process.env, PORT: '0', TASK_SURFACE_DEMO_OUT: out, OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.on('exit', (code) => (exited = code));
    let stdout = '';
    port = await new Promise<number>((resolve, reject) => {
      child.stdout!.on('data', (chunk) => {
        stdout += String(chunk);
        const match = /demo on http:\/\/127\.0\.0\.1:(\d+)\//.exec(stdout);
        if (match) resolve(Number(match[1]));
      });
      child.once('exit', (code) => reject(new Error(`the demo exited (${code}) before listening: ${stdout}`)));
    });
  });
  after(() => {
    child.kill('SIGTERM');
    rmSync(out, { recursive: true, force: true });
  });

  it('answers 3,000-deep act payloads and submit values with errors and keeps serving everyone', async () => {
    // The page's first GET gives the browser its identity cookie; the socket needs it.
    const cookie = (await fetch(`http://127.0.0.1:${port}/`)).headers.get('set-cookie')!.split(';')[0]!;
    const raw = await rawSocket(port, { path: '/ws', headers: { Cookie: cookie } });
    const list = await raw.ask('{"id":"l","type":"session.list"}');
    const sessionId = (list.result as { sessionId: string }[])[0]!.sessionId;
    for (let i = 0; i < 3; i++) {
      const act = await raw.ask(
        `{"id":"a${i}","type":"actionCards.act","params":{"sessionId":"${sessionId}","callId":"c1","verb":"confirm","payload":${nested(3000)}}}`,
      );
      assert.equal(act.code, 'bad-request');
      const submit = await raw.ask(
        `{"id":"s${i}","type":"taskSurface.submit","params":{"sessionId":"${sessionId}","surfaceId":"f1","submissionId":"x","values":{"v":${nested(3000)}}}}`,
      );
      assert.equal(submit.code, 'bad-request');
    }
    assert.equal((await raw.ask('{"id":"p","type":"ping"}')).result, 'pong');
    const other = await rawSocket(port, { path: '/ws', headers: { Cookie: cookie } });
    assert.equal((await other.ask('{"id":"p2","type":"ping"}')).result, 'pong');
    assert.equal(exited, undefined, 'the process is still running');
    raw.close();
    other.close();
  });
});
