// A reader that never reads (`npm run bench -- reader`): sockets that ask `log.read` (limit 500) 60
// times each on a session of 500 messages of 30 KB and never read an answer. Prints the server's
// RSS added by 1 and by 10 such sockets (aim ≤ 64 MB and ≤ 256 MB), against its own RSS just before
// in the same run. The server runs in a child process, so the figure is the server's alone.
import { BIG_LOG, neverReading, startBigLogServer } from '../../fixtures/bigLogServer.js';

const ASKS = 60;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

async function run(): Promise<Record<string, string>> {
  const server = await startBigLogServer();
  try {
    const added: Record<number, number> = {};
    for (const count of [1, 10]) {
      const before = await server.reset();
      await neverReading(server.port, count, ASKS, 4_000);
      const peak = await server.peak();
      added[count] = peak - before;
      const session = mb(BIG_LOG.messages * BIG_LOG.messageBytes);
      console.log(
        `  ${count} never-reading socket${count === 1 ? '' : 's'} × ${ASKS} log.read (limit 500, ${session} session): server RSS ${mb(before)} → peak ${mb(peak)}, +${mb(peak - before)}`,
      );
    }
    return { 'never-reading sockets': `+${mb(added[1]!)} RSS for 1 (aim ≤ 64 MB), +${mb(added[10]!)} for 10 (aim ≤ 256 MB)` };
  } finally {
    server.close();
  }
}

export default { title: 'A reader that never reads: server RSS', run };
