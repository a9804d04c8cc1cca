// The driver contract's additions, driven by hand: the tool-addition notice, the skill listing,
// the transient streaming field and rejected calls.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AgentTurn } from '../../host/types.js';
import { ScriptedDriver } from '../host/helpers.js';
import { driverHost, lastTurnEnd, log, recordViews, turn } from './helpers.js';

const toolChanges = async (host: Parameters<typeof log>[0], sessionId: Parameters<typeof log>[1]) =>
  (await log(host, sessionId)).flatMap((e) => (e.type === 'tools/changed' ? [{ added: e.added, removed: e.removed }] : []));

describe('tool-addition notice', () => {
  it('is logged once when propose_action joins, and a removal when a reopened agent lost it', async () => {
    const driver = new ScriptedDriver();
    const host = driverHost(driver);
    const sessionId = host.openSession();
    const names: string[][] = [];
    driver.then(async (t: AgentTurn) => {
      names.push(t.step().tools.map((x) => x.name));
      await t.callTool('skill', { name: 'create-page' });
      const request = t.step();
      names.push(request.tools.map((x) => x.name));
      assert.equal(request.messages.at(-1)!.text, 'Tool update: propose_action is now available (declared in your tools from here on).');
      assert.equal(request.messages.at(-1)!.role, 'developer');
      t.step();
      t.reply('ok');
    });
    await turn(host, sessionId, 'go');
    assert.deepEqual(names, [
      ['show_task_surface', 'skill'],
      ['show_task_surface', 'skill', 'propose_action'],
    ]);
    assert.deepEqual(await toolChanges(host, sessionId), [{ added: ['propose_action'], removed: [] }], 'one notice, not one per step');

    host.closeSession(sessionId);
    await host.whenIdle();
    let after: string[] = [];
    driver.then((t: AgentTurn) => {
      const request = t.step();
      after = request.tools.map((x) => x.name);
      assert.equal(request.messages.at(-1)!.text, 'Tool update: propose_action is no longer available.');
      t.reply('ok');
    });
    await turn(host, sessionId, 'again');
    assert.deepEqual(after, ['show_task_surface', 'skill']);
    assert.deepEqual((await toolChanges(host, sessionId)).at(-1), { added: [], removed: ['propose_action'] });
  });
});

describe('skill tool', () => {
  it('lists every loadable skill with a one-line purpose, and only those names', async () => {
    const driver = new ScriptedDriver();
    const host = driverHost(driver);
    const sessionId = host.openSession();
    let skill: { description: string; inputSchema: any } | undefined;
    driver.then((t: AgentTurn) => {
      skill = t.step().tools.find((x) => x.name === 'skill');
      t.reply('ok');
    });
    await turn(host, sessionId, 'hi');
    assert.match(skill!.description, /^Load a skill by name and read its instructions\. Skills you can load:\n/);
    const lines = skill!.description.split('\n').slice(1);
    assert.deepEqual(
      lines.map((l) => l.split(':')[0]),
      ['- create-page', '- schedule-follow-up'],
    );
    for (const line of lines) assert.ok(line.length < 140 && line.split(': ')[1]!.trim().length > 10, line);
    assert.deepEqual(skill!.inputSchema.properties.name.enum, ['create-page', 'schedule-follow-up']);
  });
});

describe('streaming and rejected calls', () => {
  it('showPartial reaches watchers; a failed turn clears it; nothing of it is logged', async () => {
    const driver = new ScriptedDriver();
    const host = driverHost(driver);
    const sessionId = host.openSession();
    const views = recordViews(host, sessionId);
    driver.then((t: AgentTurn) => {
      t.step();
      t.showPartial('Hel');
      t.showPartial('Hello wor');
      throw new Error('stream cut');
    });
    await turn(host, sessionId, 'hi');
    assert.deepEqual(views.map((v) => v.streaming?.text).filter(Boolean), ['Hel', 'Hello wor']);
    assert.equal(views.at(-1)!.streaming, undefined);
    assert.equal((await lastTurnEnd(host, sessionId)).error, 'stream cut');
    assert.ok(!(await log(host, sessionId)).some((e) => e.type === 'assistant/message'));
  });

  it('rejectCall logs the raw arguments and a failed result, pairing them by callId; nothing runs', async () => {
    const driver = new ScriptedDriver();
    const host = driverHost(driver);
    const sessionId = host.openSession();
    driver.then(async (t: AgentTurn) => {
      t.step();
      const { callId } = await t.rejectCall('show_task_surface', '{"model":', 'Not JSON.');
      const next = t.step().messages;
      assert.deepEqual(next.at(-2)!.toolCall, { callId, name: 'show_task_surface', args: '{"model":' });
      assert.deepEqual(next.at(-1)!.toolResult, { callId, name: 'show_task_surface', ok: false, content: 'Not JSON.' });
      t.reply('ok');
    });
    await turn(host, sessionId, 'hi');
    assert.equal(host.getView(sessionId).taskSurface.active, null);
    assert.equal((await lastTurnEnd(host, sessionId)).outcome, 'completed');
  });
});
