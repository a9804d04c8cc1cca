// `npm run bench -- mcpAbuse`: one hostile principal at `/mcp`'s limits must not take it from everyone
// else (issue 37). 20 ordinary people, each with their own 2025-era session, list the tools again and
// again; first alone, then while one principal from one address floods: initialize calls (sessions),
// bodies that never finish, over-size bodies, deeply nested bodies and panel shows, ignoring every
// refusal. Prints the ordinary requests' p99 with the attacker over their p99 without (aim ≤ 2x), and
// what the attacker got, with the handler's default limits. Not asserted anywhere: a figure.
import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMemoryStore } from '../../host/store/memory.js';
import { createMcpHttpHandler } from '../../mcp/http.js';
import { createPanelLedger } from '../../mcp/ledger.js';
import type { Principal } from '../../protocol/index.js';
import { percentile } from '../stats.js';

const PEOPLE = 20;
const RUN_MS = 4_000;
const model = {
  version: 1,
  title: 'Pick',
  blocks: [{ kind: 'form', id: 'f', fields: [{ kind: 'choice', id: 'db', label: 'DB', options: [{ id: 'a', label: 'A' }] }] }],
  submit: { label: 'Send' },
};

async function serve() {
  const store = createMemoryStore();
  const ledger = createPanelLedger({ store });
  const handler = createMcpHttpHandler({
    appHtml: '<!doctype html><title>panel</title>',
    ledger,
    authenticate: (req: IncomingMessage) => {
      const who = req.headers['x-who'];
      return typeof who === 'string' && who ? ({ id: who } as Principal) : null;
    },
    // Every principal from a machine of its own, as the people and the attacker are: the requests all
    // come from 127.0.0.1 here, and the address's request rate would count them together.
    remoteAddress: (req: IncomingMessage) => `machine-of-${String(req.headers['x-who'])}`,
  });
  const server = createServer((req, res) => void handler.handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  return {
    url,
    async close() {
      await handler.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await ledger.close();
      store.close();
    },
  };
}

/** Every person lists the tools again and again for RUN_MS; each request's time. */
async function ordinary(clients: Client[]): Promise<number[]> {
  const times: number[] = [];
  const end = Date.now() + RUN_MS;
  await Promise.all(
    clients.map(async (client) => {
      while (Date.now() < end) {
        const started = performance.now();
        await client.listTools();
        times.push(performance.now() - started);
      }
    }),
  );
  return times;
}

/** One raw request as the attacker; its status (0: no answer or cut off). */
function raw(url: URL, body: string | null, length?: number): Promise<number> {
  return new Promise((resolve) => {
    const req = request(url, {
      method: 'POST',
      headers: {
        'x-who': 'mallory',
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        ...(length === undefined ? {} : { 'Content-Length': String(length) }),
      },
    });
    req.on('response', (res) => (res.resume(), resolve(res.statusCode ?? 0)));
    req.on('error', () => resolve(0));
    if (body === null) req.write('{"jsonrpc":"2.0",');
    else req.end(body);
  });
}

/** The flood, until `stop`; the answers it got, by status. */
async function attack(url: URL, stop: () => boolean): Promise<Record<string, number>> {
  const statuses: Record<string, number> = {};
  const count = (status: number) => (statuses[status] = (statuses[status] ?? 0) + 1);
  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
  });
  const deep = `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`;
  const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { x: 'x'.repeat(5 * 1024 * 1024) } });
  const show = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'show_task_surface', arguments: { model } } });
  const loop = async (send: () => Promise<number>) => {
    while (!stop()) count(await send());
  };
  await Promise.all([
    ...Array.from({ length: 4 }, () => loop(() => raw(url, initialize))),
    ...Array.from({ length: 64 }, () => loop(() => raw(url, null, 4 * 1024 * 1024))),
    loop(() => raw(url, deep)),
    loop(() => raw(url, big)),
    ...Array.from({ length: 2 }, () => loop(() => raw(url, show))),
  ]);
  return statuses;
}

export default {
  title: '/mcp: ordinary people while one principal floods sessions, bodies and panels',
  async run() {
    const server = await serve();
    const clients: Client[] = [];
    try {
      for (let i = 0; i < PEOPLE; i++) {
        const client = new Client({ name: `person-${i}`, version: '1' });
        await client.connect(new StreamableHTTPClientTransport(server.url, { requestInit: { headers: { 'x-who': `person-${i}` } } }));
        clients.push(client);
      }
      await ordinary(clients); // warm-up, not measured
      const quiet = await ordinary(clients);
      let stopped = false;
      const flood = attack(server.url, () => stopped);
      await new Promise((resolve) => setTimeout(resolve, 500)); // the flood at its height first
      const attacked = await ordinary(clients);
      stopped = true;
      const statuses = await Promise.race([flood, new Promise<Record<string, number>>((r) => setTimeout(() => r({}), 15_000))]);
      const [p99Quiet, p99Attacked] = [percentile(quiet, 99), percentile(attacked, 99)];
      console.log(
        `ordinary tools/list, ${PEOPLE} people: alone p50 ${percentile(quiet, 50).toFixed(1)} ms, p99 ${p99Quiet.toFixed(1)} ms (${quiet.length} requests)`,
      );
      console.log(
        `under attack: p50 ${percentile(attacked, 50).toFixed(1)} ms, p99 ${p99Attacked.toFixed(1)} ms (${attacked.length} requests)`,
      );
      console.log(`the attacker's answers by status: ${JSON.stringify(statuses)}`);
      return {
        '/mcp ordinary p99 under attack (aim ≤ 2x)': `${(p99Attacked / p99Quiet).toFixed(2)}x (${p99Attacked.toFixed(1)} / ${p99Quiet.toFixed(1)} ms)`,
      };
    } finally {
      await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
      await server.close();
    }
  },
};
