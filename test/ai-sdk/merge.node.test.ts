// Saves that overlap: a reply finishing after a card's decision was saved, and a card's act whose
// copy predates a message the route saved. Neither write may lose the other's.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { UIMessage } from 'ai';
import { checkTaskSurfaceMessage, mergeChatMessages } from '../../ai-sdk/index.js';
import { createMemoryPageStore, createPageKind } from '../../host/index.js';
import { phases, withCard } from './cardHelpers.js';
import { userText } from './helpers.js';

const text = (id: string, role: 'user' | 'assistant', body: string): UIMessage => ({ id, role, parts: [{ type: 'text', text: body }] });
const card = { chatId: 'chat-1', callId: 'call-card-1' };

describe('mergeChatMessages', () => {
  it('keeps every message of either list in order, and a data part only the stored copy has', () => {
    const decision = { type: 'data-action-card-decision', id: 'd1', data: { phase: 'created' } } as const;
    const stored = [
      text('u1', 'user', 'hi'),
      { ...text('a1', 'assistant', 'card below'), parts: [{ type: 'text', text: 'card below' }, decision] },
    ];
    const finished = [
      text('u1', 'user', 'hi'),
      text('a1', 'assistant', 'card below'),
      text('u2', 'user', 'next'),
      text('a2', 'assistant', 'ok'),
    ];
    const merged = mergeChatMessages(stored as UIMessage[], finished);
    assert.deepEqual(
      merged.map((m) => m.id),
      ['u1', 'a1', 'u2', 'a2'],
    );
    assert.deepEqual(merged[1]!.parts.at(-1), decision, 'the decision saved meanwhile is kept');
    assert.equal(merged[1]!.parts.filter((p) => p.type === decision.type).length, 1);
    // Merging again changes nothing: a repeated save is idempotent.
    assert.deepEqual(mergeChatMessages(merged, finished), merged);
  });

  it('puts a message only next has after the message it follows in next, and removes nothing', () => {
    const stored = [text('u1', 'user', 'a'), text('a1', 'assistant', 'b'), text('u2', 'user', 'c')];
    const next = [text('u1', 'user', 'a'), text('a1', 'assistant', 'b2'), text('x', 'assistant', 'inserted')];
    assert.deepEqual(
      mergeChatMessages(stored, next).map((m) => [m.id, (m.parts[0] as { text: string }).text]),
      [
        ['u1', 'a'],
        ['a1', 'b2'],
        ['x', 'inserted'],
        ['u2', 'c'],
      ],
    );
  });
});

describe('overlapping saves of one chat', () => {
  it("a reply that finishes after a card's decision was saved keeps the decision, so the act is not run twice", async () => {
    const { acts, db, kinds, messages } = await withCard();
    // The route reads and saves the new user message, then the model streams …
    const check = checkTaskSurfaceMessage(messages(), userText('thanks'), { kinds });
    assert.ok(check.accepted && !check.repeated);
    db.set('chat-1', structuredClone(check.messages));
    // … the person acts on the card meanwhile …
    await acts.act({ ...card, verb: 'create' });
    assert.deepEqual(phases(messages()), ['creating', 'created']);
    // … and onFinish saves the original messages plus the reply, merged with what is stored.
    const finished = [...check.messages, text('reply-1', 'assistant', 'You are welcome.')];
    db.set('chat-1', mergeChatMessages(db.get('chat-1')!, finished));
    assert.deepEqual(phases(messages()), ['creating', 'created'], 'the decisions survived the reply');
    assert.equal(messages().at(-1)!.id, 'reply-1');
    const again: any = await acts.act({ ...card, verb: 'create' });
    assert.deepEqual(phases(messages()), ['creating', 'created'], 'a second click records no second page');
    assert.notEqual(again.result.status, 'accepted');
  });

  it("a card's act whose copy predates a saved user message keeps that message", async () => {
    // The page is created slowly: the route saves a new user message while the act runs.
    const pages = createMemoryPageStore();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow: typeof pages = { ...pages, create: async (input) => (await gate, pages.create(input)) };
    const { acts, kinds, db, messages } = await withCard([createPageKind({ pages: slow })]);
    const acting = acts.act({ ...card, verb: 'create' });
    for (let i = 0; i < 100 && !phases(messages()).includes('creating'); i++) await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(phases(messages()), ['creating']);
    const check = checkTaskSurfaceMessage(messages(), userText('one more thing'), { kinds });
    assert.ok(check.accepted && !check.repeated);
    db.set('chat-1', structuredClone(check.messages));
    release();
    await acting;
    assert.ok(
      messages().some((m) => m.role === 'user' && m.parts.some((p) => p.type === 'text' && p.text === 'one more thing')),
      'the user message saved meanwhile is still there',
    );
    assert.deepEqual(phases(messages()), ['creating', 'created']);
  });
});
