import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HostInputError, UnknownSessionError } from '../../host/errors.js';
import type { Host } from '../../host/types.js';
import type { MessageId, SessionId } from '../../protocol/index.js';
import { hostPerTest } from './fixture.js';
import { goodValues, ids, manualSurface, ScriptedDriver } from './helpers.js';
import { storeFactories, type StoreHandle } from './stores.js';

/*
 * Bad input at the Host's edge: a specific error naming the operation and the field, and nothing
 * stored, lost or doubled.
 */

const inputError = (operation: string, detail: RegExp) => (e: Error) =>
  e instanceof HostInputError && e.message.startsWith(`${operation}: invalid input: `) && detail.test(e.message);

for (const factory of storeFactories) {
  describe(`the Host edge (${factory.name} store)`, () => {
    let handle: StoreHandle;
    let driver: ScriptedDriver;
    let host: Host;
    hostPerTest(
      factory,
      { autoAdmit: false },
      (f) => ({ handle, driver, host } = f),
      () => ({ handle, driver, host }),
    );

    it('openSession refuses bad options and stores nothing', () => {
      assert.throws(
        () => host.openSession({ toolMode: 'weird' as never }),
        inputError('openSession', /toolMode: expected "native" or "both" or "code"/),
      );
      assert.throws(
        () => host.openSession({ locale: 'not a tag' as never }),
        inputError('openSession', /locale must be a well-formed BCP 47 language tag, like "en" or "zh-Hant-TW"/),
      );
      assert.throws(() => host.openSession({ title: 42 as never }), inputError('openSession', /title: expected string/));
      assert.throws(() => host.openSession({ title: '' }), inputError('openSession', /title must not be empty/));
      assert.throws(() => host.openSession({ readOnly: 'yes' as never }), inputError('openSession', /readOnly: expected boolean/));
      assert.throws(
        () => host.openSession({ sessionId: 'a b' as SessionId }),
        inputError('openSession', /sessionId must start with a letter/),
      );
      assert.throws(() => host.openSession({ colour: 'red' } as never), inputError('openSession', /unknown field "colour"/));
      assert.deepEqual(host.listSessions(), []);
    });

    it('a malformed session id is an input error; a well-formed unknown one is an unknown session', async () => {
      const bad = 'not valid!' as SessionId;
      assert.throws(() => host.getView(bad), inputError('getView', /sessionId/));
      await assert.rejects(host.readLog(bad, { limit: 5 }), inputError('readLog', /sessionId/));
      assert.throws(() => host.fork(bad), inputError('fork', /sessionId/));
      assert.throws(() => host.rewind(bad, 0), inputError('rewind', /sessionId/));
      assert.throws(() => host.closeSession(bad), inputError('closeSession', /sessionId/));
      assert.throws(() => host.inbox.claimNext(bad), inputError('inbox.claimNext', /sessionId/));
      const unknown = 'nobody' as SessionId;
      assert.throws(
        () => host.getView(unknown),
        (e: Error) => e instanceof UnknownSessionError && e.message === 'unknown session nobody',
      );
      await assert.rejects(host.readLog(unknown, { limit: 5 }), UnknownSessionError);
      assert.throws(() => host.fork(unknown), UnknownSessionError);
      assert.deepEqual(await host.session.send({ sessionId: unknown, messageId: ids.message(), rpcId: ids.rpc(), text: 'hi' }), {
        accepted: false,
        reason: 'unknown-session',
      });
      assert.deepEqual(host.listSessions(), []);
    });

    it('readLog and fork check their options', async () => {
      const sessionId = host.openSession();
      await assert.rejects(host.readLog(sessionId, { limit: 0 }), inputError('readLog', /limit must be a positive integer/));
      await assert.rejects(host.readLog(sessionId, { limit: 5, before: 'x' as never }), inputError('readLog', /before: expected number/));
      await assert.rejects(host.readLog(sessionId, undefined as never), inputError('readLog', /expected object/));
      assert.throws(() => host.fork(sessionId, { title: 5 as never }), inputError('fork', /title: expected string/));
      assert.throws(() => host.fork(sessionId, { throughSeq: 1.5 }), inputError('fork', /throughSeq: expected int/));
      assert.throws(() => host.fork(sessionId, { throughSeq: 3 }), /throughSeq must be an integer from 0 to 0/);
      assert.throws(() => host.rewind(sessionId, 1), /toSeq must be an integer from 0 to 0/);
      assert.equal(host.listSessions().length, 1, 'no half-made fork');
      assert.equal(host.getView(sessionId).lastSeq, 0);
    });

    it('zod issues are worded: unknown keys and wrong types are named', async () => {
      const sessionId = host.openSession();
      const surfaceId = 'surface-x';
      await assert.rejects(
        host.taskSurface.submit({ sessionId, surfaceId, submissionId: 's', values: {}, bogus: 1 } as never),
        inputError('taskSurface.submit', /unknown field "bogus"/),
      );
      await assert.rejects(
        host.taskSurface.submit({ sessionId, surfaceId, submissionId: 's', values: 5 } as never),
        inputError('taskSurface.submit', /values: expected record/),
      );
      await assert.rejects(
        host.session.send({ sessionId, messageId: ids.message(), rpcId: ids.rpc() } as never),
        inputError('session.send', /text: expected string/),
      );
      await assert.rejects(host.actionCards.act({ sessionId } as never), /actionCards\.act: invalid input: callId: expected string/);
    });

    it('what a driver, a tool or a plugin hands the log is checked once, at its edge; nothing bad is stored', async () => {
      const sessionId = host.openSession();
      const errors: string[] = [];
      host.plugins.registerTool({
        definition: { name: 'sloppy', description: 'returns a bad outcome', inputSchema: { type: 'object' } } as never,
        modes: ['native', 'both'],
        execute: () => ({ ok: 'yes', content: 5 }) as never,
      });
      driver.then(async (turn) => {
        turn.step();
        for (const args of [{ when: new Date(0) }, { n: Number.NaN }, { f: () => 1 }, { u: undefined }]) {
          await turn.callTool('anything', args as never).then(
            () => errors.push('accepted'),
            (e: Error) => errors.push(`${e.name}: ${e.message}`),
          );
        }
        await turn.callTool('', {}).catch((e: Error) => errors.push(e.message));
        await turn.callTool('anything', {}, { origin: 'robot' as never }).catch((e: Error) => errors.push(e.message));
        try {
          turn.reply(42 as never);
        } catch (e) {
          errors.push((e as Error).message);
        }
        const sloppy = await turn.callTool('sloppy', {});
        errors.push(`${sloppy.ok}: ${sloppy.content}`);
      });
      await host.session.send({ sessionId, messageId: ids.message(), rpcId: ids.rpc(), text: 'go' });
      host.inbox.claimNext(sessionId)!.commit();
      await host.whenIdle(sessionId);
      assert.deepEqual(errors, [
        'TypeError: callTool(anything): the arguments must be plain JSON values',
        'TypeError: callTool(anything): the arguments must be plain JSON values',
        'TypeError: callTool(anything): the arguments must be plain JSON values',
        'TypeError: callTool(anything): the arguments must be plain JSON values',
        'callTool: the tool name must be a non-empty string',
        'callTool(anything): origin must be "model" or "code"',
        'reply: the text must be a string',
        'false: The tool sloppy failed: it returned an invalid result.',
      ]);
      const log = handle.store.read(sessionId);
      assert.deepEqual(
        log.filter((e) => e.type === 'tool/call').map((e) => e.type === 'tool/call' && e.name),
        ['sloppy'],
      );
      assert.ok(!log.some((e) => e.type === 'assistant/message'));
      // A plugin's event is validated at the plugin API: refused, named, not stored.
      const lastSeq = handle.store.lastSeq(sessionId);
      assert.throws(
        () => host.plugins.append(sessionId, { type: 'turn/started', turnId: '' } as never),
        (e: Error) => e.name === 'InvalidEventError' && /turnId must not be empty/.test(e.message),
      );
      assert.throws(
        () => host.plugins.append(sessionId, { type: 'action-cards/notice', through: 1, text: 'x', extra: 1 } as never),
        (e: Error) => e.name === 'InvalidEventError',
      );
      assert.equal(handle.store.lastSeq(sessionId), lastSeq);
    });

    it('after dispose, submit and dismiss throw and append nothing; getActive still reads', async () => {
      const { sessionId, surfaceId, callId } = await manualSurface(host, driver);
      const lastSeq = handle.store.lastSeq(sessionId);
      await host.dispose();
      await assert.rejects(
        host.taskSurface.submit({ sessionId, surfaceId, submissionId: ids.submission(), values: goodValues }),
        /the host is disposed/,
      );
      await assert.rejects(host.taskSurface.dismiss({ sessionId, surfaceId, dismissalId: ids.dismissal() }), /the host is disposed/);
      await assert.rejects(
        host.session.send({ sessionId, messageId: ids.message(), rpcId: ids.rpc(), text: 'late' }),
        /the host is disposed/,
      );
      assert.equal(handle.store.lastSeq(sessionId), lastSeq);
      const active = await host.taskSurface.getActive({ sessionId, surfaceId });
      assert.deepEqual(active.active && [active.callId, active.pending], [callId, null]);
    });

    it("a send that reuses a queued submission's messageId is that row again, never a second message", async () => {
      const { sessionId, surfaceId } = await manualSurface(host, driver);
      const submitted = await host.taskSurface.submit({ sessionId, surfaceId, submissionId: ids.submission(), values: goodValues });
      assert.ok(submitted.accepted);
      const [row] = host.getView(sessionId).queue;
      const again = await host.session.send({ sessionId, messageId: submitted.messageId, rpcId: ids.rpc(), text: 'sneaky' });
      assert.deepEqual(again, { accepted: true, messageId: submitted.messageId, itemId: row!.id });
      assert.equal(host.getView(sessionId).queue.length, 1);
      host.inbox.claimNext(sessionId)!.commit();
      await host.whenIdle(sessionId);
      const messages = handle.store.read(sessionId).filter((e) => e.type === 'user/message' && e.messageId === submitted.messageId);
      assert.equal(messages.length, 1);
    });

    it('a submission never takes the messageId of a queued send (deterministic minters)', async () => {
      const { sessionId, surfaceId } = await manualSurface(host, driver);
      const taken = ['msg-1', 'msg-2', 'msg-3'] as MessageId[];
      for (const messageId of taken) await host.session.send({ sessionId, messageId, rpcId: ids.rpc(), text: `typed ${messageId}` });
      // Queued, not durable: the surface is still open and the ids are taken only by live rows.
      assert.equal(host.getView(sessionId).queue.length, 3);
      const submitted = await host.taskSurface.submit({ sessionId, surfaceId, submissionId: ids.submission(), values: goodValues });
      assert.ok(submitted.accepted);
      assert.ok(!taken.includes(submitted.messageId), submitted.messageId);
    });
  });
}
