// A turn a crash interrupted is answered: a real host process is killed with SIGKILL mid-turn and a
// new host on the same SQLite file (or PostgreSQL schema) ends that turn `interrupted` and runs it
// again, exactly once.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it, type TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createHost } from '../../host/createHost.js';
import { INTERRUPTED_CALL_TEXT, INTERRUPTED_TURN_TEXT } from '../../host/recovery.js';
import { createSqliteStore } from '../../host/store/sqlite.js';
import type { SessionLogStore } from '../../host/store/types.js';
import type { AgentTurn } from '../../host/types.js';
import type { SessionEvent, SessionId } from '../../protocol/index.js';
import { closeWhenDone } from '../closeWhenDone.js';
import { inTime } from '../transport/helpers.js';
import { ScriptedDriver, say } from './helpers.js';
import { dropSchema, freshSchema, openPostgresStore, TEST_DATABASE_URL, testPool } from './stores.js';
import { TSX_IMPORT } from '../../fixtures/tsxImport.js';

const child = fileURLToPath(new URL('./crashChild.ts', import.meta.url));

/**
 * Runs the child until its turn blocks, then kills it with SIGKILL; a child that has not blocked
 * within a minute (compiling on a loaded machine) is killed and fails the test by name.
 */
function runAndKill(target: string, sessionId: SessionId, mode: 'first' | 'again'): Promise<void> {
  let proc: ReturnType<typeof spawn> | undefined;
  const killed = new Promise<void>((resolve, reject) => {
    proc = spawn(process.execPath, [...TSX_IMPORT, child, target, sessionId, mode], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    proc.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('blocked')) proc!.kill('SIGKILL');
    });
    proc.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    proc.on('exit', (code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`child exited ${code}: ${err}`))));
  });
  return inTime(killed, `the ${mode} child's turn to block`, 60_000).catch((error: unknown) => {
    proc?.kill('SIGKILL');
    throw error;
  });
}

const summary = (events: SessionEvent[]) =>
  events.map((e) => {
    switch (e.type) {
      case 'turn/started':
        return e.rerunOf ? `started ${e.turnId} rerunOf ${e.rerunOf}` : `started ${e.turnId}`;
      case 'turn/ended':
        return `ended ${e.turnId} ${e.outcome}`;
      case 'tool/result':
        return `result ${e.name} ${e.ok ? 'ok' : 'failed'}`;
      case 'tool/call':
        return `call ${e.name}`;
      case 'assistant/message':
        return `assistant ${e.text}`;
      case 'user/message':
        return `user ${e.text}`;
      default:
        return e.type;
    }
  });

/** Where the killed process and the next one keep their sessions. */
interface Backend {
  /** What the child is told (a file, or `postgres://… schema`). */
  target: string;
  /** The store a process started now would open (every stored session loaded). */
  open(): Promise<{ store: SessionLogStore; close(): Promise<void> | void }>;
  cleanup(): Promise<void>;
}

const backends: { name: string; create(): Backend }[] = [
  {
    name: 'SQLite',
    create() {
      const dir = mkdtempSync(join(tmpdir(), 'task-surface-crash-'));
      const path = join(dir, 'log.db');
      return {
        target: path,
        async open() {
          const store = createSqliteStore(path);
          return { store, close: () => store.close() };
        },
        async cleanup() {
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
  ...(TEST_DATABASE_URL
    ? [
        {
          name: 'PostgreSQL',
          create(): Backend {
            const schema = freshSchema();
            return {
              target: `${TEST_DATABASE_URL} ${schema}`,
              async open() {
                const store = await openPostgresStore(schema);
                return { store, close: () => store.close() };
              },
              async cleanup() {
                await dropSchema(schema);
                await testPool().end();
              },
            };
          },
        },
      ]
    : []),
];

/** A host error fails the test. */
const strict = { onError: (e: Error) => assert.fail(e) };

for (const { name, create } of backends) {
  describe(`a turn interrupted by kill -9 (${name}, real process)`, () => {
    let backend: Backend;
    let path: string;
    const sessionId = 'crash-session' as SessionId;
    before(() => {
      backend = create();
      path = backend.target;
    });
    after(() => backend.cleanup());

    /**
     * A host in this process over the same data and its store, both closed when the test ends (or
     * by the returned `close`, the host first).
     */
    async function hostOver(t: TestContext, driver: ScriptedDriver, options: Pick<Parameters<typeof createHost>[0], 'onError'> = strict) {
      const opened = await backend.open();
      const host = createHost({ store: opened.store, driver, ...options });
      const close = closeWhenDone(t, { close: () => host.dispose().then(() => opened.close()) });
      return { store: opened.store, host, close };
    }

    /** `hostOver`, having touched the session first (its inbox starts). */
    async function reopen(t: TestContext, driver: ScriptedDriver) {
      const { store, host, close } = await hostOver(t, driver);
      assert.equal(host.getView(sessionId).turn, 'running');
      await inTime(host.whenIdle(sessionId), 'the reopened host to be idle');
      await host.whenDurable(sessionId);
      return { store, host, close };
    }

    it('is ended interrupted and run again once; the rerun sees the partial turn marked incomplete', async (t) => {
      await runAndKill(path, sessionId, 'first');
      const driver = new ScriptedDriver();
      let prompt: { role: string; text: string }[] = [];
      driver.then((turn: AgentTurn) => {
        prompt = turn.step().messages;
        turn.reply('done');
      });
      const { store, host, close } = await reopen(t, driver);
      const events = store.read(sessionId);
      const [first] = events.filter((e) => e.type === 'turn/started');
      const turnId = first!.type === 'turn/started' ? first!.turnId : '';
      assert.deepEqual(summary(events).slice(0, 8), [
        'user please work',
        `started ${turnId}`,
        'assistant partial answer (first)',
        'call wait_forever',
        'result wait_forever failed',
        `ended ${turnId} interrupted`,
        summary(events)[6]!,
        'assistant done',
      ]);
      assert.match(summary(events)[6]!, new RegExp(`^started .* rerunOf ${turnId}$`));
      assert.equal(summary(events)[8], summary(events)[6]!.replace(/^started (\S+).*/, 'ended $1 completed'));
      assert.equal(events.length, 9);
      const result = events[4]!;
      assert.equal(result.type === 'tool/result' && result.content, INTERRUPTED_CALL_TEXT);
      assert.equal(driver.turns.length, 1);
      assert.deepEqual(
        driver.turns[0]!.input.map((m) => m.text),
        ['please work'],
      );
      // The partial turn stays in the prompt, closed by the failed result and then the developer note.
      assert.deepEqual(
        prompt.map((m) => m.role),
        ['user', 'assistant', 'assistant', 'tool', 'developer'],
      );
      assert.equal(prompt[1]!.text, 'partial answer (first)');
      assert.match(prompt[3]!.text, /^\[result wait_forever \S+ failed\] The call was interrupted/);
      assert.equal(prompt[4]!.text, INTERRUPTED_TURN_TEXT);
      assert.equal(host.getView(sessionId).turn, 'idle');
      await close();
      // A later host finds nothing unfinished: the turn is not run a second time.
      const later = await hostOver(t, new ScriptedDriver(), {});
      assert.equal(later.host.getView(sessionId).turn, 'idle');
      await inTime(later.host.whenIdle(sessionId), 'the later host to be idle');
      assert.equal(later.store.read(sessionId).length, 9);
    });

    it('a crash during the rerun ends it interrupted and does not run it again; the next message starts a fresh turn', async (t) => {
      const fresh = 'crash-again' as SessionId;
      await runAndKill(path, fresh, 'first');
      await runAndKill(path, fresh, 'again'); // the rerun blocks too, and is killed
      const driver = new ScriptedDriver();
      const { store, host } = await hostOver(t, driver);
      assert.equal(host.getView(fresh).turn, 'idle');
      await inTime(host.whenIdle(fresh), 'the host to be idle');
      assert.equal(driver.turns.length, 0);
      const ended = store
        .read(fresh)
        .filter((e) => e.type === 'turn/ended')
        .map((e) => e.type === 'turn/ended' && e.outcome);
      assert.deepEqual(ended, ['interrupted', 'interrupted']);
      assert.equal(store.read(fresh).filter((e) => e.type === 'turn/started' && e.rerunOf).length, 1);
      await say(host, fresh, 'try again');
      await inTime(host.whenIdle(fresh), 'the host to be idle');
      assert.equal(driver.turns.length, 1);
      assert.equal(summary(store.read(fresh)).at(-1)?.endsWith('completed'), true);
    });
  });
}
