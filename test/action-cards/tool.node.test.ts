import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PROPOSE_ACTION_DEFINITION } from '../../host/actionCards/index.js';
import { followUpArgs, pageArgs, setup } from './helpers.js';

describe('propose_action advertisement', () => {
  it('is not offered before a card skill loads, and offered from the next step on', async () => {
    const { host, sessionId } = setup();
    const turn = host.turn(sessionId);
    assert.ok(!turn.step().tools.includes('propose_action'));
    assert.ok(turn.step().tools.includes('skill'));
    await turn.callTool('skill', { name: 'create-page' });
    assert.ok(turn.step().tools.includes('propose_action'));
    turn.end();
    assert.ok(host.turn(sessionId).step().tools.includes('propose_action'), 'stays for the agent lifetime');
  });

  it('is never offered to a subagent, nor after a subagent or code load', async () => {
    const { host, sessionId } = setup();
    const turn = host.turn(sessionId);
    await turn.callTool('skill', { name: 'create-page' }, { agent: 'subagent' });
    await turn.callTool('skill', { name: 'create-page' }, { origin: 'code' });
    assert.ok(!turn.step().tools.includes('propose_action'));
    await turn.callTool('skill', { name: 'create-page' });
    assert.ok(turn.step().tools.includes('propose_action'));
    assert.ok(!turn.step('subagent').tools.includes('propose_action'));
  });

  it('an unknown skill loads nothing and activates nothing', async () => {
    const { host, sessionId } = setup();
    const turn = host.turn(sessionId);
    const result = await turn.callTool('skill', { name: 'nope' });
    assert.equal(result.ok, false);
    assert.equal(result.content, 'Unknown skill "nope". Available skills: create-page, schedule-follow-up.');
    assert.ok(!turn.step().tools.includes('propose_action'));
  });

  it('is dropped when the agent is disposed, and needs a new skill load after reopening', async () => {
    const { host, sessionId } = setup();
    const turn = host.turn(sessionId);
    await turn.callTool('skill', { name: 'create-page' });
    turn.end();
    host.closeAgent(sessionId);
    host.reopen(sessionId);
    const next = host.turn(sessionId);
    assert.ok(!next.step().tools.includes('propose_action'));
    await next.callTool('skill', { name: 'schedule-follow-up' });
    assert.ok(next.step().tools.includes('propose_action'));
  });

  it('without an agent-disposed hook, a non-live root drops the activation too', async () => {
    const { host, sessionId } = setup();
    const turn = host.turn(sessionId);
    await turn.callTool('skill', { name: 'create-page' });
    host.closeAgent(sessionId, false);
    assert.ok(!turn.step().tools.includes('propose_action'));
    host.reopen(sessionId);
    assert.ok(!turn.step().tools.includes('propose_action'));
  });
});

describe('propose_action refusals', () => {
  it('accepts the first call of a turn with the prefix and the invitation', async () => {
    const { host, sessionId } = setup();
    const turn = host.turn(sessionId);
    await turn.callTool('skill', { name: 'create-page' });
    const result = await turn.callTool('propose_action', pageArgs());
    assert.equal(result.ok, true);
    assert.equal(
      result.content,
      'Card shown below your answer. Do not restate it. In one sentence in the user’s language, invite them to save this answer as a page with the card.',
    );
  });

  it('refuses a second call in the same turn, of any kind', async () => {
    const { host, sessionId } = setup();
    const turn = host.turn(sessionId);
    await turn.callTool('skill', { name: 'create-page' });
    await turn.callTool('skill', { name: 'schedule-follow-up' });
    assert.equal((await turn.callTool('propose_action', pageArgs())).ok, true);
    const second = await turn.callTool('propose_action', followUpArgs());
    assert.deepEqual([second.ok, second.content], [false, 'One card per turn; the earlier card stands.']);
  });

  it('refuses an unregistered action, listing the registered ones or none', async () => {
    const { host, sessionId, unregister } = setup();
    const turn = host.turn(sessionId);
    await turn.callTool('skill', { name: 'create-page' });
    const first = await turn.callTool('propose_action', pageArgs({ action: 'book_flight' }));
    assert.equal(first.content, 'Unknown action "book_flight". Registered actions: create_page, schedule_follow_up.');
    unregister.createPage();
    unregister.followUp();
    const second = await turn.callTool('propose_action', pageArgs());
    assert.equal(second.content, 'Unknown action "create_page". Registered actions: none.');
  });

  it('refuses a kind whose skill was not loaded in this turn', async () => {
    const { host, sessionId } = setup();
    const earlier = host.turn(sessionId);
    await earlier.callTool('skill', { name: 'create-page' });
    earlier.end();
    const turn = host.turn(sessionId);
    const result = await turn.callTool('propose_action', pageArgs());
    assert.equal(result.content, 'Load skill create-page first, then call propose_action.');
    await turn.callTool('skill', { name: 'schedule-follow-up' });
    assert.equal((await turn.callTool('propose_action', pageArgs())).content, 'Load skill create-page first, then call propose_action.');
  });

  it('refuses when the skill was loaded by a subagent or from code in this turn', async () => {
    const { host, sessionId } = setup();
    const root = host.turn(sessionId);
    await root.callTool('skill', { name: 'create-page' });
    root.end();
    const turn = host.turn(sessionId);
    await turn.callTool('skill', { name: 'create-page' }, { origin: 'code' });
    await turn.callTool('skill', { name: 'create-page' }, { agent: 'subagent' });
    assert.equal((await turn.callTool('propose_action', pageArgs())).content, 'Load skill create-page first, then call propose_action.');
  });

  it('refuses a blank title or brief', async () => {
    const { host, sessionId } = setup();
    const turn = host.turn(sessionId);
    await turn.callTool('skill', { name: 'create-page' });
    assert.equal((await turn.callTool('propose_action', pageArgs({ title: '  ' }))).content, 'Title must not be blank.');
    assert.equal((await turn.callTool('propose_action', pageArgs({ brief: '' }))).content, 'Brief must not be blank.');
    assert.equal(
      (await turn.callTool('propose_action', pageArgs({ title: '', brief: ' ' }))).content,
      'Title and brief must not be blank.',
    );
  });

  it('refuses details that fail the kind schema, naming the failing fields', async () => {
    const { host, sessionId } = setup();
    const turn = host.turn(sessionId);
    await turn.callTool('skill', { name: 'create-page' });
    const result = await turn.callTool('propose_action', pageArgs({ details: { pageTitle: ' ', sections: [] } }));
    assert.equal(result.ok, false);
    assert.match(result.content, /^Invalid details: /);
    assert.match(result.content, /details\.pageTitle: must not be blank/);
    assert.match(result.content, /details\.sections: /);
    assert.equal((await turn.callTool('propose_action', pageArgs())).ok, true, 'a refused call leaves the turn open');
  });

  it('refuses malformed arguments with the failing fields', async () => {
    const { host, sessionId } = setup();
    const turn = host.turn(sessionId);
    await turn.callTool('skill', { name: 'create-page' });
    const result = await turn.callTool('propose_action', { action: 'create_page', title: 'x' });
    assert.match(result.content, /^Invalid arguments: brief: .*details: /);
  });

  it('refuses calls from code and from a subagent', async () => {
    const { host, sessionId } = setup();
    const turn = host.turn(sessionId);
    await turn.callTool('skill', { name: 'create-page' });
    const code = await turn.callTool('propose_action', pageArgs(), { origin: 'code' });
    assert.equal(code.content, 'Cards are proposed by direct calls only, not from code.');
    const sub = await turn.callTool('propose_action', pageArgs(), { agent: 'subagent' });
    assert.equal(sub.content, 'Cards are offered in the main conversation only.');
  });

  it('refuses while queuedMessageLimit or more user messages wait', async () => {
    const { host, sessionId } = setup();
    const turn = host.turn(sessionId);
    await turn.callTool('skill', { name: 'create-page' });
    host.setQueued(sessionId, 2);
    const refused = await turn.callTool('propose_action', pageArgs());
    assert.equal(refused.content, 'The user has queued more messages; show no card and answer briefly.');
    host.setQueued(sessionId, 1);
    assert.equal((await turn.callTool('propose_action', pageArgs())).ok, true);
  });

  it('honours a configured queuedMessageLimit and rejects a bad one', async () => {
    const { host, sessionId } = setup({ queuedMessageLimit: 1 });
    const turn = host.turn(sessionId);
    await turn.callTool('skill', { name: 'create-page' });
    host.setQueued(sessionId, 1);
    assert.equal((await turn.callTool('propose_action', pageArgs())).ok, false);
    assert.throws(() => setup({ queuedMessageLimit: 0 }), /queuedMessageLimit must be a positive integer/);
  });

  it('keeps refused calls out of the card state', async () => {
    const { host, service, sessionId } = setup();
    const turn = host.turn(sessionId);
    await turn.callTool('propose_action', pageArgs());
    assert.deepEqual(service.view(sessionId), { proposals: [], decisions: {} });
  });
});

describe('sizes', () => {
  it('the declaration is no larger than the spec’s 574 characters of JSON', () => {
    const size = JSON.stringify(PROPOSE_ACTION_DEFINITION).length;
    assert.ok(size <= 574, `declaration is ${size} characters`);
    assert.equal(size, 566);
  });

  it('an accepted result is the 49-character prefix plus the invitation', async () => {
    const { host, sessionId } = setup();
    const turn = host.turn(sessionId);
    await turn.callTool('skill', { name: 'create-page' });
    const { content } = await turn.callTool('propose_action', pageArgs());
    const invitation = 'In one sentence in the user’s language, invite them to save this answer as a page with the card.';
    assert.equal(content.length, 49 + invitation.length);
    assert.equal(content.length, 145);
  });
});
