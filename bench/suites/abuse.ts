// One hostile principal at its limits must not take the server from everyone else (docs/security.md).
// 100 ordinary people, each with one session, send a message and wait for the agent's answer (a
// model call of 5 ms), again and again; first alone, then while a hostile principal, over 4 sockets,
// opens sessions up to its quota and sends to all of them as fast as the server answers, ignoring
// every refusal. Prints the ordinary turns' p99 with the attacker over their p99 without (aim ≤ 2x),
// in the same process, with the Host's default limits.
import { WebSocket } from 'ws';
import { createLoopDriver } from '../../agents/loop.js';
import { createHost } from '../../host/createHost.js';
import { createMemoryStore } from '../../host/store/memory.js';
import { mintMessageId, mintRpcId, type SessionId, type SessionView } from '../../protocol/index.js';
import { createWebSocketServer } from '../../transport/ws/server.js';
import { createWebSocketTransport, type WebSocketConstructor } from '../../transport/ws/client.js';
import { percentile } from '../stats.js';

const PEOPLE = 100;
const RUN_MS = 4_000;
const MODEL_MS = 5;

async function serve() {
  const host = createHost({
    store: createMemoryStore(),
    driver: createLoopDriver({
      label: 'Bench model',
      retries: 0,
      timeoutMs: 60_000,
      call: async () => {
        await new Promise((r) => setTimeout(r, MODEL_MS));
        return { text: 'ok', toolCalls: [] };
      },
    }),
  });
  const server = await createWebSocketServer({
    host,
    port: 0,
    heartbeatMs: 0,
    // Every simulated person connects from 127.0.0.1: the per-address cap would count them as one.
    maxConnectionsPerAddress: 1_000,
    authenticate: (request) => ({ id: new URL(request.url ?? '/', 'http://x').searchParams.get('as') ?? 'nobody' }),
  });
  const client = (principal: string) =>
    createWebSocketTransport({
      url: `ws://127.0.0.1:${server.port}/?as=${principal}`,
      WebSocket: WebSocket as unknown as WebSocketConstructor,
    });
  return { host, server, client };
}

/** One person's loop: send, wait until the turn answered, repeat until `until`; each turn's ms. */
async function person(client: Client, until: number): Promise<number[]> {
  const { sessionId } = await client.openSession();
  let view: SessionView | undefined;
  let changed = () => {};
  client.watchSession(sessionId, (v) => {
    view = v;
    changed();
  });
  const times: number[] = [];
  while (Date.now() < until) {
    const before = view?.lastSeq ?? 0;
    const start = performance.now();
    const sent = await client.session.send({ sessionId, messageId: mintMessageId(), rpcId: mintRpcId(), text: 'hi' });
    if (!sent.accepted) throw new Error(`an ordinary message was refused: ${sent.reason}`);
    while (!(view && view.turn === 'idle' && view.queue.length === 0 && view.lastSeq >= before + 4)) {
      await new Promise<void>((resolve) => (changed = resolve));
    }
    times.push(performance.now() - start);
  }
  return times;
}

type Client = ReturnType<Awaited<ReturnType<typeof serve>>['client']>;

/** The attacker's quota of sessions, opened before the measured window (until it is refused). */
async function openAll(client: Client, refused: Record<string, number>): Promise<SessionId[]> {
  const sessions: SessionId[] = [];
  for (;;) {
    try {
      sessions.push((await client.openSession()).sessionId);
    } catch (error) {
      const code = (error as { code?: string }).code ?? 'error';
      refused[code] = (refused[code] ?? 0) + 1;
      return sessions;
    }
  }
}

/** The attacker: messages to all its sessions over several sockets, as fast as answers come. */
async function attack(clients: Client[], sessions: SessionId[], refused: Record<string, number>, until: number) {
  await Promise.all(
    clients.map(async (client, c) => {
      for (let i = c; Date.now() < until; i += clients.length) {
        const sessionId = sessions[i % sessions.length]!;
        const sent = await client.session.send({ sessionId, messageId: mintMessageId(), rpcId: mintRpcId(), text: 'x'.repeat(4_000) });
        if (!sent.accepted) refused[sent.reason] = (refused[sent.reason] ?? 0) + 1;
      }
    }),
  );
}

async function round(withAttacker: boolean) {
  const { host, server, client } = await serve();
  const hostile = withAttacker ? Array.from({ length: 4 }, () => client('mallory')) : [];
  const refused: Record<string, number> = {};
  const sessions = withAttacker ? await openAll(hostile[0]!, refused) : [];
  const until = Date.now() + RUN_MS;
  const people = Array.from({ length: PEOPLE }, (_, i) => client(`person-${i}`));
  const [times] = await Promise.all([
    Promise.all(people.map((c) => person(c, until))).then((all) => all.flat()),
    withAttacker ? attack(hostile, sessions, refused, until) : Promise.resolve(),
  ]);
  for (const c of [...people, ...hostile]) c.dispose();
  await server.close();
  await host.dispose();
  return { times, attacked: { sessions: sessions.length, refused } };
}

export default {
  title: 'Abuse: 100 ordinary sessions while one principal sits at its limits',
  async run() {
    const alone = await round(false);
    const attacked = await round(true);
    const p99 = (t: number[]) => percentile(t, 99);
    const ratio = p99(attacked.times) / p99(alone.times);
    console.log(`ordinary turns without the attacker: ${alone.times.length}, p99 ${p99(alone.times).toFixed(1)} ms`);
    console.log(`ordinary turns with the attacker:    ${attacked.times.length}, p99 ${p99(attacked.times).toFixed(1)} ms`);
    console.log(`the attacker: ${attacked.attacked?.sessions} sessions opened, refusals ${JSON.stringify(attacked.attacked?.refused)}`);
    console.log(`ordinary p99 with / without the attacker: ${ratio.toFixed(2)}x (aim ≤ 2x)`);
    return { 'abuse: ordinary p99 under attack': `${ratio.toFixed(2)}x of the p99 without it (aim ≤ 2x)` };
  },
};
