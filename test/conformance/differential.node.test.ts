// The paths against the Host on random sequences: the same person and the same scripted model, in a
// random language, and every answer, every text the model read (ids aside), every panel's status and
// every card's phase must be the Host's. The kit's scenarios name the rules; this finds the orders
// between them that no scenario wrote down.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { answer, cardKinds, LOCALES, loadSkill, propose, registerProductLocale, show, texts } from '../../conformance/index.js';
import type { Conversation, ConformanceDriver, ModelStep } from '../../conformance/index.js';
import { hostDriver } from '../../conformance/drivers/host.js';
import { hostWebSocketDriver } from '../../conformance/drivers/hostWs.js';
import { aiSdkDriver } from '../../conformance/drivers/aiSdk.js';
import { agUiDriver } from '../../conformance/drivers/agUi.js';
import { docsRoutes } from './docsRoute.js';

/** What the model answers a message with: the responses the rules meet each other in. */
const RESPONSES: Record<string, ModelStep[]> = {
  show: [{ calls: [show()] }],
  text: [{ text: 'Noted.' }],
  card: [{ calls: [loadSkill(), propose()] }, { text: 'A card below.' }],
  showThenSkill: [{ calls: [show('Second'), loadSkill()] }],
  twoCards: [{ calls: [loadSkill(), propose('One'), propose('Two')] }],
  twoShows: [{ calls: [show('A'), show('B')] }],
};

type Step =
  | { op: 'say'; response: keyof typeof RESPONSES }
  | { op: 'submit'; id: 'a' | 'b' | 'c'; valid: boolean; stale: boolean }
  | { op: 'doubleSubmit'; id: 'a' | 'b' | 'c' }
  | { op: 'dismiss'; id: 'x' | 'y' }
  | { op: 'act'; verb: 'create' | 'dismiss' }
  | { op: 'reload' };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ op: fc.constant('say' as const), response: fc.constantFrom(...(Object.keys(RESPONSES) as (keyof typeof RESPONSES)[])) }),
  fc.record({
    op: fc.constant('submit' as const),
    id: fc.constantFrom('a' as const, 'b' as const, 'c' as const),
    valid: fc.boolean(),
    stale: fc.boolean(),
  }),
  fc.record({ op: fc.constant('doubleSubmit' as const), id: fc.constantFrom('a' as const, 'b' as const, 'c' as const) }),
  fc.record({ op: fc.constant('dismiss' as const), id: fc.constantFrom('x' as const, 'y' as const) }),
  fc.record({ op: fc.constant('act' as const), verb: fc.constantFrom('create' as const, 'dismiss' as const) }),
  fc.record({ op: fc.constant('reload' as const) }),
);

/** Runs `steps` on one path; every observation with the path's own ids replaced by their order of appearance. */
async function observe(driver: ConformanceDriver, steps: readonly Step[], locale: string, run: number): Promise<unknown[]> {
  const c: Conversation = await driver.open({ locale, kinds: cardKinds() });
  const seen: unknown[] = [];
  const ids = new Map<string, string>();
  const name = (id: string) => ids.get(id) ?? (ids.set(id, `#${ids.size + 1}`), ids.get(id)!);
  let surfaceIds: string[] = [];
  const anonymous = (value: unknown) => {
    let json = JSON.stringify(value) ?? 'null';
    for (const id of surfaceIds) json = json.split(id).join(name(id));
    return JSON.parse(json) as unknown;
  };
  const refresh = async () => {
    surfaceIds = (await c.surfaces()).map((s) => s.surfaceId);
    for (const s of surfaceIds) name(s);
  };
  try {
    for (const s of steps) {
      let outcome: unknown;
      if (s.op === 'say') {
        c.script(...RESPONSES[s.response]!);
        outcome = await c.say(`please (${s.response})`);
      } else if (s.op === 'submit') {
        const surfaceId = s.stale ? surfaceIds[0] : undefined;
        const values = s.valid ? answer() : { ...answer(), place: 'moon' };
        outcome = await c.submit({ submissionId: `sub-${run}-${s.id}`, values, ...(surfaceId ? { surfaceId } : {}) });
      } else if (s.op === 'doubleSubmit') {
        const request = { submissionId: `sub-${run}-${s.id}`, values: answer() };
        outcome = await Promise.all([c.submit(request), c.submit(request)]);
      } else if (s.op === 'dismiss') outcome = await c.dismiss({ dismissalId: `dis-${run}-${s.id}` });
      else if (s.op === 'act') {
        const card = (await c.cards()).at(-1);
        outcome = card ? await c.act({ callId: card.callId, verb: s.verb }) : 'no card';
      } else await c.reload();
      await refresh();
      seen.push({ step: s, outcome: anonymous(outcome), surfaces: anonymous(await c.surfaces()) });
    }
    await refresh();
    seen.push({ calls: anonymous(c.calls()), cards: (await c.cards()).map((card) => [card.action, card.phase]) });
    // A notice is a developer message on the Host and a text part of the user message on the AI SDK
    // path: what must agree is how many each request carries, and the person's own texts.
    const notice = (text: string) => text.includes(texts.NOTICE_PREAMBLE);
    const userTexts = c.requests().flatMap((r) => r.messages.filter((m) => m.role === 'user' && !notice(m.text)).map((m) => m.text));
    seen.push({
      lastUserTexts: anonymous(userTexts.slice(-3)),
      noticesPerRequest: c.requests().map((r) => r.messages.filter((m) => notice(m.text)).length),
    });
    return seen;
  } finally {
    await c.close();
  }
}

describe('conformance: random sequences, every path as the Host', () => {
  let unregister = () => {};
  before(() => (unregister = registerProductLocale()));
  after(() => unregister());
  const others = [hostWebSocketDriver, aiSdkDriver(docsRoutes), agUiDriver];
  let run = 0;
  for (const driver of others) {
    it(`${driver.path} answers, reads and folds as the Host`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 9 }), fc.constantFrom(...LOCALES), async (steps, locale) => {
          const at = ++run;
          const expected = await observe(hostDriver, steps, locale, at);
          const actual = await observe(driver, steps, locale, at);
          // The first observation that differs, named: the Host's is the expected one.
          const i = actual.findIndex((o, n) => JSON.stringify(o) !== JSON.stringify(expected[n]));
          if (i >= 0) assert.deepEqual(actual[i], expected[i], `${driver.path} differs from the Host at observation ${i}`);
        }),
        { numRuns: Number(process.env.DIFFERENTIAL_RUNS ?? 100) },
      );
    });
  }
});
