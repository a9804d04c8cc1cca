// The rest of the act rules on an app's messages: access, an unregistered kind, reconcile, a lost
// answer healed, the notice collapsing a card's decisions, parts a page may not send.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  ACTION_CARD_DECISION_PART,
  ACTION_CARDS_NOTICE_PART,
  checkTaskSurfaceMessage,
  createActionCardActs,
  TASK_SURFACE_DISMISSAL_PART,
} from '../../ai-sdk/index.js';
import { createMemoryPageStore, createPageKind, scheduleFollowUpKind } from '../../host/index.js';
import { phases, withCard } from './cardHelpers.js';
import { respond, scriptedModel, textParts, toolCallParts, userText } from './helpers.js';

const card = { chatId: 'chat-1', callId: 'call-card-1' };

describe('createActionCardActs: the Host rules on the app messages', () => {
  it('a kind the app no longer registers: its verbs are unavailable, Not now still dismisses', async () => {
    const { db, messages } = await withCard();
    const acts = createActionCardActs({ kinds: [scheduleFollowUpKind()], load: (id) => db.get(id)!, save: (id, m) => void db.set(id, m) });
    assert.deepEqual(((await acts.act({ ...card, verb: 'create' })) as any).result, { status: 'refused', reason: 'unavailable' });
    assert.deepEqual(((await acts.act({ ...card, verb: 'dismiss' })) as any).result, { status: 'accepted', phase: 'dismissed' });
    assert.deepEqual(phases(messages()), ['dismissed']);
  });

  it("checks the acting person's access first: another's chat is unknown, a reader's is read-only, the owner's handler sees the owner", async () => {
    const { db, messages } = await withCard();
    const seen: string[] = [];
    const kind = createPageKind({ pages: createMemoryPageStore() });
    const create = kind.verbs['create']!;
    const watched = {
      ...kind,
      verbs: {
        ...kind.verbs,
        create: { ...create, handler: (ctx: any, payload: any) => (seen.push(ctx.initiator.id), create.handler(ctx, payload)) },
      },
    };
    const acts = createActionCardActs({
      kinds: [watched],
      load: (id) => db.get(id)!,
      save: (id, m) => void db.set(id, m),
      access: (_chat, who) => (who.id === 'owner' ? 'write' : who.id === 'reader' ? 'read' : 'none'),
    });
    const as = (id: string) => ({ initiator: { id, name: id } });
    assert.deepEqual(((await acts.act({ ...card, verb: 'create' }, as('stranger'))) as any).result, {
      status: 'refused',
      reason: 'unknown',
    });
    assert.deepEqual(((await acts.act({ ...card, verb: 'dismiss' }, as('reader'))) as any).result, {
      status: 'refused',
      reason: 'read-only',
    });
    assert.deepEqual(phases(messages()), [], 'nothing recorded for the stranger or the reader');
    assert.deepEqual(((await acts.act({ ...card, verb: 'create' }, as('owner'))) as any).result, { status: 'accepted', phase: 'created' });
    assert.deepEqual(seen, ['owner']);
  });

  it('a verb that needs global access is refused without it', async () => {
    const kinds = [scheduleFollowUpKind()];
    const follow = {
      action: 'schedule_follow_up',
      title: 'Follow up',
      brief: 'Check back.',
      details: { topic: 'Trip', suggestedAt: '2099-01-01T09:00:00Z' },
    };
    const model = scriptedModel(
      toolCallParts('skill', { name: 'schedule-follow-up' }),
      toolCallParts('propose_action', follow, 'call-card-1'),
      textParts('ok'),
    );
    const messages = await respond([userText('remind me')], model, kinds);
    const options = { kinds, load: () => messages, save() {} };
    const denied = createActionCardActs({ ...options, globalAccess: () => false });
    assert.deepEqual(((await denied.act({ ...card, verb: 'schedule' })) as any).result, { status: 'refused', reason: 'access-denied' });
    const allowed = createActionCardActs(options);
    assert.deepEqual(((await allowed.act({ ...card, verb: 'schedule' })) as any).result, { status: 'accepted', phase: 'scheduled' });
  });

  it('runs the kind reconcile first (a page deleted elsewhere), and every answer carries all the card decisions', async () => {
    const pages = createMemoryPageStore();
    const { acts, messages } = await withCard([createPageKind({ pages })]);
    const created: any = await acts.act({ ...card, verb: 'create' });
    pages.delete(created.decisions.at(-1).data.data.pageId);
    const later: any = await acts.act({ ...card, verb: 'dismiss' });
    assert.deepEqual(later.result, { status: 'settled', phase: 'deleted' });
    assert.deepEqual(phases(messages()), ['creating', 'created', 'deleted']);
    assert.deepEqual(
      later.decisions.map((d: any) => d.data.phase),
      ['creating', 'created', 'deleted'],
      'a page that lost an answer gets every decision again',
    );
  });

  it('one notice collapses a card decisions to its latest', async () => {
    const { acts, kinds, messages } = await withCard();
    await acts.act({ ...card, verb: 'create' });
    const check = checkTaskSurfaceMessage(messages(), userText('next'), { kinds });
    assert.ok(check.accepted);
    const notice = check.messages.at(-1)!.parts.find((p) => p.type === ACTION_CARDS_NOTICE_PART) as any;
    assert.equal(notice.data.decisionIds.length, 2);
    const cards = JSON.parse(notice.data.text.split('\n\n').at(-1));
    assert.deepEqual(
      cards.map((c: any) => [c.callId, c.phase, typeof c.pageId]),
      [['call-card-1', 'created', 'string']],
    );
  });

  it('a page cannot send a part only the server writes', async () => {
    const { messages, kinds } = await withCard();
    for (const type of [ACTION_CARD_DECISION_PART, ACTION_CARDS_NOTICE_PART, TASK_SURFACE_DISMISSAL_PART]) {
      const forged = {
        ...userText('x'),
        parts: [
          { type: 'text', text: 'x' },
          { type, data: {} },
        ],
      };
      const check = checkTaskSurfaceMessage(messages(), forged, { kinds });
      assert.equal(check.accepted, false, type);
      assert.equal(!check.accepted && check.reason, 'invalid-message');
    }
  });
});
