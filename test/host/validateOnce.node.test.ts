import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import {
  DismissTaskSurfaceRequestSchema,
  SendMessageRequestSchema,
  SubmitTaskSurfaceRequestSchema,
  type Principal,
} from '../../protocol/index.js';
import { createHost } from '../../host/createHost.js';
import { createMemoryStore } from '../../host/store/memory.js';
import { counterIds, goodValues, ids, ScriptedDriver, withOpenSurface } from './helpers.js';

/*
 * A request from outside is validated once, where it enters (the scoped Host a transport calls);
 * the Host's own calls behind it take the typed request and do not parse it again.
 */

const alice: Principal = { id: 'alice' };

/** Counts `safeParse` calls of each schema while `run` runs. */
async function parses(run: () => Promise<unknown>) {
  const schemas = { submit: SubmitTaskSurfaceRequestSchema, dismiss: DismissTaskSurfaceRequestSchema, send: SendMessageRequestSchema };
  const counts = { submit: 0, dismiss: 0, send: 0 };
  const originals = new Map<keyof typeof schemas, (input: unknown) => unknown>();
  for (const [name, schema] of Object.entries(schemas) as [keyof typeof schemas, { safeParse(input: unknown): unknown }][]) {
    const original = schema.safeParse;
    originals.set(name, original);
    schema.safeParse = (input: unknown) => {
      counts[name]++;
      return original.call(schema, input);
    };
  }
  try {
    await run();
  } finally {
    for (const [name, original] of originals) (schemas[name] as { safeParse: unknown }).safeParse = original;
  }
  return counts;
}

describe('validated once at the edge', () => {
  const driver = new ScriptedDriver();
  const host = createHost({ store: createMemoryStore(), driver, ids: counterIds() });
  afterEach(() => host.whenIdle());

  it('a scoped submit, dismiss and send each parse their request once', async () => {
    const me = host.as(alice);
    const sessionId = me.openSession({ title: 'T' });
    driver.showSurface().showSurface();
    const sent = await parses(() => me.session.send({ sessionId, messageId: ids.message(), rpcId: ids.rpc(), text: 'show one' }));
    assert.deepEqual(sent, { submit: 0, dismiss: 0, send: 1 });
    await host.whenIdle(sessionId);
    const surfaceId = host.getView(sessionId).taskSurface.active!.surfaceId;
    let accepted: unknown;
    const submitted = await parses(async () => {
      accepted = await me.taskSurface.submit({ sessionId, surfaceId, submissionId: ids.submission(), values: goodValues });
    });
    assert.deepEqual(accepted, { accepted: true, messageId: (accepted as { messageId: string }).messageId, phase: 'queued' });
    assert.deepEqual(submitted, { submit: 1, dismiss: 0, send: 0 });
    await host.whenIdle(sessionId);
    const next = host.getView(sessionId).taskSurface.active!.surfaceId;
    const dismissed = await parses(() => me.taskSurface.dismiss({ sessionId, surfaceId: next, dismissalId: ids.dismissal() }));
    assert.deepEqual(dismissed, { submit: 0, dismiss: 1, send: 0 });
    assert.equal(host.getView(sessionId).taskSurface.active, null);
  });

  it('host code calling the Host directly is validated too, once', async () => {
    const { sessionId, surfaceId } = await withOpenSurface(host, driver);
    await assert.rejects(
      host.taskSurface.submit({ sessionId, surfaceId, submissionId: '' as never, values: goodValues }),
      /taskSurface\.submit: invalid input/,
    );
    const counts = await parses(() =>
      host.taskSurface.submit({ sessionId, surfaceId, submissionId: ids.submission(), values: goodValues }),
    );
    assert.deepEqual(counts, { submit: 1, dismiss: 0, send: 0 });
    const sent = await parses(() => host.session.send({ sessionId, messageId: ids.message(), rpcId: ids.rpc(), text: 'hi' }));
    assert.deepEqual(sent, { submit: 0, dismiss: 0, send: 1 });
    await assert.rejects(host.session.send({ sessionId, text: 'no ids' } as never), /session\.send: invalid input/);
  });

  it('an object host code still holds is parsed on every call, even after it changed', async () => {
    const { sessionId, surfaceId } = await withOpenSurface(host, driver);
    const input = { sessionId, surfaceId, submissionId: ids.submission(), values: goodValues };
    assert.equal((await host.taskSurface.submit(input)).accepted, true);
    (input as { submissionId: string }).submissionId = '';
    await assert.rejects(host.taskSurface.submit(input), /taskSurface\.submit: invalid input/);
    const me = host.as(alice);
    const mine = me.openSession({ title: 'mine' });
    const send = { sessionId: mine, messageId: ids.message(), rpcId: ids.rpc(), text: 'hi' };
    assert.equal((await me.session.send(send)).accepted, true);
    (send as { text: unknown }).text = 42;
    await assert.rejects(me.session.send(send), /session\.send: invalid input/);
  });
});
