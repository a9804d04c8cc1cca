// `npm run bench -- aiSdkAbuse`: one hostile person at the AI SDK example's limits must not take it
// from everyone else (issue 37). 10 ordinary people, each in a chat of their own, send a message and
// read the scripted model's whole reply, two a second, each from an address of their own (127.0.0.x:
// Linux routes all of 127/8 to loopback); first alone, then while one person (one cookie, one
// address) floods new chats, over-size bodies, bodies that never finish and deeply nested ones,
// ignoring every refusal. Prints the ordinary turns' p99 with the attacker over their
// p99 without (aim ≤ 2x), and what the attacker got. A figure, not asserted anywhere.
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scriptedModel } from '../../demo/ai-sdk/model.js';
import { startAiSdkDemo, type AiSdkDemo } from '../../demo/ai-sdk/server.js';
import { percentile } from '../stats.js';

const PEOPLE = 10;
const RUN_MS = 4_000;
const PACE_MS = 500;

const cookieOf = (demo: AiSdkDemo) => {
  const { cookie } = demo.identities.issue();
  return `${cookie.name}=${cookie.value}`;
};

/** The attacker's address; ordinary person i's is 127.0.0.(10 + i). */
const ATTACKER = '127.0.0.66';

/** One POST /api/chat from `from`, its whole answer read; its status (0: no answer). */
function post(demo: AiSdkDemo, from: string, cookie: string, body: string | null, length?: number): Promise<number> {
  const url = new URL('/api/chat', demo.url);
  return new Promise((resolve) => {
    const req = request(url, {
      method: 'POST',
      localAddress: from,
      headers: {
        cookie,
        origin: url.origin,
        'content-type': 'application/json',
        ...(length === undefined ? {} : { 'content-length': String(length) }),
      },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
    if (body === null) req.write('{"id":');
    else req.end(body);
  });
}

const say = (chat: string, n: number) =>
  JSON.stringify({ id: chat, message: { id: `${chat}-m${n}`, role: 'user', parts: [{ type: 'text', text: `hello ${n}` }] } });

/** Every person sends a message and reads the reply, again and again for RUN_MS; each turn's time. */
async function ordinary(demo: AiSdkDemo, cookies: string[], round: string): Promise<number[]> {
  const times: number[] = [];
  const end = Date.now() + RUN_MS;
  await Promise.all(
    cookies.map(async (cookie, i) => {
      for (let n = 0; Date.now() < end; n++) {
        const started = performance.now();
        const status = await post(demo, `127.0.0.${10 + i}`, cookie, say(`${round}-${i}-${n}`, n));
        if (status !== 200) throw new Error(`an ordinary person was refused ${status}`);
        times.push(performance.now() - started);
        // A person's pace, two messages a second at most: within the 30 a minute a person may send.
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, PACE_MS - (performance.now() - started))));
      }
    }),
  );
  return times;
}

async function attack(demo: AiSdkDemo, stop: () => boolean): Promise<Record<string, number>> {
  const cookie = cookieOf(demo);
  const statuses: Record<string, number> = {};
  const count = (status: number) => (statuses[status] = (statuses[status] ?? 0) + 1);
  let n = 0;
  const big = JSON.stringify({ id: 'big', message: { id: 'b', role: 'user', parts: [{ type: 'text', text: 'x'.repeat(300_000) }] } });
  const deep = `{"id":"deep","message":${'['.repeat(50_000)}${']'.repeat(50_000)}}`;
  const loop = async (send: () => Promise<number>) => {
    while (!stop()) count(await send());
  };
  await Promise.all([
    ...Array.from({ length: 4 }, () => loop(() => post(demo, ATTACKER, cookie, say(`flood-${++n}`, n)))),
    ...Array.from({ length: 32 }, () => loop(() => post(demo, ATTACKER, cookie, null, 200_000))),
    loop(() => post(demo, ATTACKER, cookie, big)),
    loop(() => post(demo, ATTACKER, cookie, deep)),
  ]);
  return statuses;
}

export default {
  title: 'AI SDK example: ordinary chats while one person floods chats and bodies',
  async run() {
    const dataDir = mkdtempSync(join(tmpdir(), 'ts-bench-ai-sdk-'));
    const demo = await startAiSdkDemo({ model: scriptedModel(), dataDir });
    try {
      const cookies = Array.from({ length: PEOPLE }, () => cookieOf(demo));
      await ordinary(demo, cookies, 'warm'); // not measured
      const quiet = await ordinary(demo, cookies, 'quiet');
      let stopped = false;
      const flood = attack(demo, () => stopped);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const attacked = await ordinary(demo, cookies, 'attacked');
      stopped = true;
      const statuses = await Promise.race([flood, new Promise<Record<string, number>>((r) => setTimeout(() => r({}), 15_000))]);
      const [p99Quiet, p99Attacked] = [percentile(quiet, 99), percentile(attacked, 99)];
      console.log(
        `ordinary turns, ${PEOPLE} people: alone p50 ${percentile(quiet, 50).toFixed(1)} ms, p99 ${p99Quiet.toFixed(1)} ms (${quiet.length})`,
      );
      console.log(`under attack: p50 ${percentile(attacked, 50).toFixed(1)} ms, p99 ${p99Attacked.toFixed(1)} ms (${attacked.length})`);
      console.log(`the attacker's answers by status: ${JSON.stringify(statuses)}`);
      return {
        'AI SDK example ordinary p99 under attack (aim ≤ 2x)': `${(p99Attacked / p99Quiet).toFixed(2)}x (${p99Attacked.toFixed(1)} / ${p99Quiet.toFixed(1)} ms)`,
      };
    } finally {
      await demo.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
};
