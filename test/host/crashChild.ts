// A host process for the crash test: runs a turn that blocks mid-way (after a reply and inside a
// tool call) and prints `blocked` there, so the parent can kill it with SIGKILL.
// Usage: node --import tsx test/host/crashChild.ts <db path | postgres://… schema> <session id> <first|again>
import { createHost } from '../../host/createHost.js';
import { createPostgresStore } from '../../host/store/postgres/index.js';
import { createSqliteStore } from '../../host/store/sqlite.js';
import type { MessageId, RpcId, SessionId } from '../../protocol/index.js';

const [target, sessionId, mode] = process.argv.slice(2) as [string, SessionId, 'first' | 'again'];
const [connectionString, schema] = target.split(' ');
const forever = new Promise<never>(() => {});
const host = createHost({
  store: target.startsWith('postgres://') ? await createPostgresStore({ connectionString, schema }) : createSqliteStore(target),
  driver: {
    async runTurn(turn) {
      turn.step();
      turn.reply(`partial answer (${mode})`);
      await turn.callTool('wait_forever', {});
    },
  },
});
host.plugins.registerTool({
  definition: { name: 'wait_forever', description: 'Blocks until the process is killed.', inputSchema: { type: 'object' } },
  modes: ['native', 'both', 'code'],
  execute: async () => {
    // Killed only once what the turn wrote so far is durable (PostgreSQL commits a moment later).
    await host.whenDurable(sessionId);
    process.stdout.write('blocked\n');
    return forever;
  },
});
if (mode === 'first') {
  host.openSession({ sessionId, title: 'Crash' });
  await host.session.send({ sessionId, messageId: 'm-1' as MessageId, rpcId: 'r-1' as RpcId, text: 'please work' });
} else {
  await host.load(sessionId);
  host.getView(sessionId); // the first use after the crash: the interrupted turn is run again
}
