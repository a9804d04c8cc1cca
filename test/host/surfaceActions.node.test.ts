// What `show_task_surface`, `taskSurface.submit` and `taskSurface.dismiss` record beyond the yes or
// no: the limits a panel travels with, the whole text of a refused model, the submission's language,
// who submitted, the per-principal admission, and the method named in an input error. (A mutation run over host/taskSurface/ found these unpinned.)
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { createHost } from '../../host/createHost.js';
import { createMemoryStore } from '../../host/store/memory.js';
import type { CreateHostOptions, Host } from '../../host/types.js';
import type { JsonValue, NewSessionEvent, SessionEvent, SessionId, TaskSurfaceId } from '../../protocol/index.js';
import { DEFAULT_LIMITS } from '../../protocol/index.js';
import { counterIds, goodValues, ids, sampleModel, say, ScriptedDriver, withOpenSurface } from './helpers.js';

function host(t: TestContext, options: Partial<CreateHostOptions> = {}) {
  const driver = new ScriptedDriver();
  const made = createHost({ store: createMemoryStore(), driver, ids: counterIds(), ...options });
  t.after(() => made.dispose());
  return { host: made, driver };
}

async function events(host: Host, sessionId: SessionId): Promise<SessionEvent[]> {
  return (await host.readLog(sessionId, { limit: 1000 })).events;
}

/** A session of the principal `alice` whose first turn opened a surface. */
async function aliceSurface(h: Host, driver: ScriptedDriver) {
  const alice = h.as({ id: 'alice' });
  const sessionId = alice.openSession();
  driver.showSurface();
  await alice.session.send({ sessionId, messageId: ids.message(), rpcId: ids.rpc(), text: 'show' });
  await h.whenIdle(sessionId);
  return { alice, sessionId, surfaceId: h.getView(sessionId).taskSurface.active!.surfaceId };
}

/**
 * A session whose first turn opened a surface, on a Host that then stopped, and a copy of its log
 * under the record `record` (each event passed through `change`), as another process might have written it.
 */
async function copiedSurfaceLog(record: { readOnly?: boolean }, change = (event: NewSessionEvent) => event) {
  const store = createMemoryStore();
  const driver = new ScriptedDriver();
  const first = createHost({ store, driver, ids: counterIds() });
  const source = await withOpenSurface(first, driver);
  await first.dispose();
  const sessionId = 'copied' as SessionId;
  store.createSession({ ...store.getSession(source.sessionId)!, ...record, sessionId });
  store.appendMany(
    sessionId,
    store.read(source.sessionId).map(({ seq: _seq, at, ...event }) => ({ event: change(event as NewSessionEvent), at })),
  );
  return { store, source, sessionId };
}

const resultOf = async (host: Host, sessionId: SessionId) =>
  (await events(host, sessionId)).find((e) => e.type === 'tool/result') as Extract<SessionEvent, { type: 'tool/result' }>;

describe('the limits a shown panel carries', () => {
  it('a Host with the default limits stores none in the result: the transcript row uses the spec’s', async (t) => {
    const { host: h, driver } = host(t);
    const { sessionId } = await withOpenSurface(h, driver);
    const meta = (await resultOf(h, sessionId)).meta as Record<string, unknown>;
    assert.equal(meta.kind, 'task-surface');
    assert.equal('limits' in meta, false);
  });

  for (const [name, limits] of [
    ['larger', { tableRows: 400 }],
    ['smaller', { tableRows: 100 }],
  ] as const) {
    it(`a Host with one ${name} limit stores all of its limits with the panel`, async (t) => {
      const { host: h, driver } = host(t, { limits: limits });
      const { sessionId } = await withOpenSurface(h, driver);
      const meta = (await resultOf(h, sessionId)).meta as Record<string, unknown>;
      assert.deepEqual(meta.limits, { ...DEFAULT_LIMITS, ...limits });
    });
  }
});

it('a refused model answers the model with every issue, paths rooted at the model, in the whole text', async (t) => {
  const { host: h, driver } = host(t);
  const sessionId = h.openSession();
  const { title: _title, ...untitled } = sampleModel() as Record<string, JsonValue>;
  driver.showSurface(untitled);
  await say(h, sessionId, 'show it');
  await h.whenIdle(sessionId);
  const result = await resultOf(h, sessionId);
  assert.equal(result.ok, false);
  assert.equal(
    result.content,
    [
      'The task surface was not shown because its model is invalid:',
      '- model.title: the model needs "title"',
      'Fix these and call show_task_surface again.',
    ].join('\n'),
  );
});

describe('the submission message', () => {
  const textOf = async (h: Host, sessionId: SessionId, messageId: string) =>
    (await events(h, sessionId)).flatMap((e) => (e.type === 'user/message' && e.messageId === messageId ? [e] : []))[0]!;

  it('is formatted in the request’s language, else the session’s', async (t) => {
    const { host: h, driver } = host(t);
    const chinese = h.openSession({ locale: 'zh' });
    driver.showSurface();
    await say(h, chinese, 'show');
    await h.whenIdle(chinese);
    const open = h.getView(chinese).taskSurface.active!;
    const bySession = await h.taskSurface.submit({
      sessionId: chinese,
      surfaceId: open.surfaceId,
      submissionId: ids.submission(),
      values: goodValues,
    });
    assert.ok('messageId' in bySession);
    await h.whenIdle(chinese);
    assert.equal((await textOf(h, chinese, bySession.messageId)).text, 'Pick a plan\nPlan：Plan A\nWhy：cheaper');

    const { sessionId, surfaceId } = await withOpenSurface(h, driver);
    const byRequest = await h.taskSurface.submit({
      sessionId,
      surfaceId,
      submissionId: ids.submission(),
      values: goodValues,
      locale: 'zh',
    });
    assert.ok('messageId' in byRequest);
    await h.whenIdle(sessionId);
    assert.equal((await textOf(h, sessionId, byRequest.messageId)).text, 'Pick a plan\nPlan：Plan A\nWhy：cheaper');
  });

  it('names who submitted on its source, and no one for host code', async (t) => {
    const { host: h, driver } = host(t);
    const { alice, sessionId, surfaceId } = await aliceSurface(h, driver);
    const submitted = await alice.taskSurface.submit({ sessionId, surfaceId, submissionId: ids.submission(), values: goodValues });
    assert.ok('messageId' in submitted);
    await h.whenIdle(sessionId);
    assert.equal((await textOf(h, sessionId, submitted.messageId)).source.by, 'alice');

    const other = await withOpenSurface(h, driver);
    const byHost = await h.taskSurface.submit({
      sessionId: other.sessionId,
      surfaceId: other.surfaceId,
      submissionId: ids.submission(),
      values: goodValues,
    });
    assert.ok('messageId' in byHost);
    await h.whenIdle(other.sessionId);
    assert.equal('by' in (await textOf(h, other.sessionId, byHost.messageId)).source, false);
  });
});

it('a submission over the principal’s message quota is refused quota-exceeded, saying why and when, and no record stays pending', async (t) => {
  const { host: h, driver } = host(t, { quotas: { messagesPerMinute: 1 } });
  const { alice, sessionId, surfaceId } = await aliceSurface(h, driver);
  const refused = await alice.taskSurface.submit({ sessionId, surfaceId, submissionId: ids.submission(), values: goodValues });
  assert.ok(!refused.accepted && refused.reason === 'quota-exceeded' && 'retryAfterMs' in refused, JSON.stringify(refused));
  assert.ok(refused.retryAfterMs! > 0 && refused.retryAfterMs! <= 60_000, String(refused.retryAfterMs));
  assert.deepEqual(refused, {
    accepted: false,
    reason: 'quota-exceeded',
    message: `this principal sent 1 message in the last minute (at most 1); send again in ${Math.ceil(refused.retryAfterMs! / 1000)} s`,
    retryAfterMs: refused.retryAfterMs,
  });
  assert.equal(h.getView(sessionId).taskSurface.active?.pending ?? null, null);
  assert.equal((await events(h, sessionId)).filter((e) => e.type === 'user/message').length, 1);
});

it('a malformed dismissal or getActive names the method in its error', async (t) => {
  const { host: h } = host(t);
  await assert.rejects(h.taskSurface.dismiss({ sessionId: 42 } as never), /^[^\n]*taskSurface\.dismiss/);
  await assert.rejects(h.taskSurface.getActive({ sessionId: 42 } as never), /^[^\n]*taskSurface\.getActive/);
});

it('getActive answers not-open for a surface that is not the open one: another surfaceId, no surface, no session', async (t) => {
  const { host: h, driver } = host(t);
  const { sessionId, surfaceId } = await withOpenSurface(h, driver);
  const open = await h.taskSurface.getActive({ sessionId, surfaceId });
  assert.ok(open.active, 'the open surface is active');
  const notOpen = { active: false, reason: 'not-open' };
  assert.deepEqual(await h.taskSurface.getActive({ sessionId, surfaceId: 'surface-stale' as TaskSurfaceId }), notOpen);
  const quiet = h.openSession();
  assert.deepEqual(await h.taskSurface.getActive({ sessionId: quiet, surfaceId }), notOpen);
  assert.deepEqual(await h.taskSurface.getActive({ sessionId: 'session-none' as SessionId, surfaceId }), notOpen);
});

it('a read-only session with a surface open in its log takes neither a submission nor a dismissal: not-open', async (t) => {
  // The log of an open surface under a read-only record (an archived or imported conversation).
  const { store, source, sessionId } = await copiedSurfaceLog({ readOnly: true });
  const h = createHost({ store, driver: new ScriptedDriver(), ids: counterIds() });
  t.after(() => h.dispose());
  assert.equal(h.getView(sessionId).taskSurface.active?.surfaceId, source.surfaceId, 'the log says it is open');
  const asked = { sessionId, surfaceId: source.surfaceId };
  assert.deepEqual(await h.taskSurface.submit({ ...asked, submissionId: ids.submission(), values: goodValues }), {
    accepted: false,
    reason: 'not-open',
  });
  assert.deepEqual(await h.taskSurface.dismiss({ ...asked, dismissalId: ids.dismissal() }), { dismissed: false, reason: 'not-open' });
  assert.equal(store.lastSeq(sessionId), store.lastSeq(source.sessionId), 'nothing was added to its log');
});

it('a stored show_task_surface result whose meta lacks its surfaceId opens no surface', async (t) => {
  const { store, source, sessionId } = await copiedSurfaceLog({}, (event) => {
    if (event.type !== 'tool/result') return event;
    const { surfaceId: _dropped, ...meta } = event.meta as Record<string, JsonValue>;
    return { ...event, meta } as NewSessionEvent;
  });
  const h = createHost({ store, driver: new ScriptedDriver(), ids: counterIds() });
  t.after(() => h.dispose());
  assert.equal(h.getView(sessionId).taskSurface.active, null);
  assert.deepEqual(await h.taskSurface.getActive({ sessionId, surfaceId: source.surfaceId }), { active: false, reason: 'not-open' });
});

for (const [name, result, call] of [
  ['of another tool', { name: 'other_tool' }, { name: 'other_tool' }],
  ['that failed', { ok: false, content: 'the tool failed' }, {}],
] as const) {
  it(`a stored result ${name} opens no surface, though its meta is a surface's`, async (t) => {
    const { store, source, sessionId } = await copiedSurfaceLog({}, (event) => {
      if (event.type === 'tool/result') return { ...event, ...result } as NewSessionEvent;
      return event.type === 'tool/call' ? ({ ...event, ...call } as NewSessionEvent) : event;
    });
    const h = createHost({ store, driver: new ScriptedDriver(), ids: counterIds() });
    t.after(() => h.dispose());
    const stored = (await resultOf(h, sessionId)).meta as Record<string, unknown>;
    assert.equal(stored.surfaceId, source.surfaceId, 'the copied result still carries the surface meta');
    assert.equal(h.getView(sessionId).taskSurface.active, null);
    assert.deepEqual(await h.taskSurface.getActive({ sessionId, surfaceId: source.surfaceId }), { active: false, reason: 'not-open' });
  });
}
