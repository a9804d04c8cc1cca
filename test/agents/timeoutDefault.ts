// The drivers' default `timeoutMs` (60 s), observed on a driver built without it: a reply that stalls
// mid-way is still running after 59.999 s of silence and fails at 60 s, saying so. Only `setTimeout`
// is mocked (the stall watchdog's clock); the fake provider's sockets are real.
//
// One driver per test file: after one mocked-clock run, the next in the same process saw its stream
// cut at 60 s instead of stalled (the HTTP client's own timers had been made under the previous mock).
import assert from 'node:assert/strict';
import { it, mock } from 'node:test';
import type { AgentDriver } from '../../host/types.js';
import { closeWhenDone } from '../closeWhenDone.js';
import { realWait, untilReal } from '../loopTime.js';
import type { FakeProvider } from './fakeProviders.js';
import { driverHost, lastTurnEnd, say } from './helpers.js';

export function timeoutDefaultCase(name: string, start: () => Promise<FakeProvider>, driver: (url: string) => AgentDriver): void {
  it(`${name} driver without timeoutMs: a reply silent for 60 s fails, saying so; at 59.999 s it still runs`, async (t) => {
    const fake = await start();
    closeWhenDone(t, fake);
    mock.timers.enable({ apis: ['setTimeout'] });
    t.after(() => mock.timers.reset());
    const host = driverHost(driver(fake.url));
    t.after(() => host.dispose());
    const sessionId = host.openSession();
    fake.script({ stall: 'Half of an answer that then' });
    await say(host, sessionId, 'hi');
    await untilReal(() => host.getView(sessionId).streaming?.text === 'Half of an answer that then', 'the partial reply arrived');
    await realWait(300); // the last chunk read, the watchdog set again from it

    mock.timers.tick(59_999);
    await realWait(300);
    assert.equal(host.getView(sessionId).turn, 'running', 'still waiting at 59.999 s');

    mock.timers.tick(1);
    await untilReal(() => host.getView(sessionId).turn === 'idle', 'the turn ended at 60 s');
    const ended = await lastTurnEnd(host, sessionId);
    assert.equal(ended.outcome, 'failed');
    assert.match(ended.error ?? '', /stopped sending mid-reply: nothing arrived for 60 s \(after \d+ characters\)\.$/);
  });
}
