// What create_page does in the cases kinds.node.test.ts does not reach: the memory store's ids and
// limit, what the store is asked for, a full or failing store, a create left half-done, recorded
// data that is missing or not a page id, and a kind called by a host whose context carries no data.
// (The first mutation run over host/actionCards/kinds/createPage.ts left these unpinned.)
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createActionCardsService } from '../../host/actionCards/index.js';
import { createMemoryPageStore, createPageKind, PageLimitError, type PageStore } from '../../host/actionCards/kinds/index.js';
import type { JsonValue } from '../../protocol/index.js';
import { createFakeHost } from './fakeHost.js';
import { cardTurn } from './helpers.js';
import { olderContext } from './olderContext.js';

const PREAMBLE =
  'Latest status of action cards from user actions and background work. These are status facts, not a request to start or retry work. Use these receipts instead of the earlier proposal when describing progress.';
const PAGE_GUIDANCE = 'A created page is a private draft the user opens from the card; mention its address only if asked.';
const CONTINUE = 'Continue with the user’s current request.';

function world(pages: PageStore) {
  const host = createFakeHost();
  const service = createActionCardsService(host.api);
  service.register(createPageKind({ pages }));
  const sessionId = host.open();
  const decisions = () =>
    host.log(sessionId).flatMap((e) => (e.type === 'action-cards/decision' ? [{ phase: e.phase, data: e.data ?? {} }] : []));
  return { host, service, sessionId, decisions };
}

describe('createMemoryPageStore', () => {
  it('numbers pages from 1, finds each by its card and nothing for another card', async () => {
    const pages = createMemoryPageStore();
    assert.deepEqual(await pages.create({ title: 'A', sections: ['s'], sourceCallId: 'c1' }), { pageId: 'page-1', url: '/pages/page-1' });
    assert.deepEqual(await pages.create({ title: 'B', sections: ['s'], sourceCallId: 'c2' }), { pageId: 'page-2', url: '/pages/page-2' });
    assert.deepEqual(await pages.findBySource('c2'), { pageId: 'page-2', url: '/pages/page-2' });
    assert.deepEqual(await pages.findBySource('c1'), { pageId: 'page-1', url: '/pages/page-1' });
    assert.equal(await pages.findBySource('c3'), undefined);
  });

  it('rejects a page beyond its limit with a PageLimitError a host can tell by name', async () => {
    const pages = createMemoryPageStore({ limit: 1 });
    await pages.create({ title: 'A', sections: ['s'], sourceCallId: 'c1' });
    const error = await pages.create({ title: 'B', sections: ['s'], sourceCallId: 'c2' }).then(
      () => assert.fail('the second page fitted'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof PageLimitError);
    assert.ok(error instanceof Error);
    assert.equal(error.name, 'PageLimitError');
    assert.equal(error.message, 'page limit reached');
    assert.equal(String(error), 'PageLimitError: page limit reached');
  });
});

describe('create_page against its store', () => {
  it('asks the store for the card’s title and sections, named by the card', async () => {
    const asked: unknown[] = [];
    const { host, service, sessionId } = world({
      async create(input) {
        asked.push(input);
        return { pageId: 'p9', url: '/p/9' };
      },
      exists: async () => true,
      findBySource: async () => undefined,
    });
    const callId = await cardTurn(host, sessionId);
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'create' }), { status: 'accepted', phase: 'created' });
    assert.deepEqual(asked, [{ title: 'Kyoto in three days', sections: ['Day 1', 'Day 2', 'Day 3'], sourceCallId: callId }]);
  });

  it('a full store fails the card with page-limit, tells the model, and a retry works once room is made', async () => {
    const pages = createMemoryPageStore({ limit: 1 });
    await pages.create({ title: 'Other', sections: ['s'], sourceCallId: 'elsewhere' });
    const { host, service, sessionId, decisions } = world(pages);
    const callId = await cardTurn(host, sessionId);
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'create' }), { status: 'refused', reason: 'page-limit' });
    assert.deepEqual(decisions(), [
      { phase: 'creating', data: {} },
      { phase: 'failed', data: { error: 'page-limit' } },
    ]);
    const notices = host.turn(sessionId).step().notices;
    assert.deepEqual(
      notices.map((n) => (n.type === 'action-cards/notice' ? n.text : n.type)),
      [
        [
          PREAMBLE,
          PAGE_GUIDANCE,
          CONTINUE,
          JSON.stringify([{ action: 'create_page', callId, title: 'Save as a page', phase: 'failed', error: 'page-limit' }]),
        ].join('\n\n'),
      ],
    );
    pages.delete('page-1');
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'create' }), { status: 'accepted', phase: 'created' });
    assert.deepEqual(decisions().at(-1), { phase: 'created', data: { pageId: 'page-2', url: '/pages/page-2' } });
  });

  it('a store that fails otherwise leaves the card failed with store-error and the act unconfirmed', async () => {
    const { host, service, sessionId, decisions } = world({
      create: async () => Promise.reject(new Error('disk full')),
      exists: async () => true,
      findBySource: async () => undefined,
    });
    const callId = await cardTurn(host, sessionId);
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'create' }), { status: 'unconfirmed' });
    assert.deepEqual(decisions(), [
      { phase: 'creating', data: {} },
      { phase: 'failed', data: { error: 'store-error' } },
    ]);
  });
});

describe('create_page phases', () => {
  it('a create still under way (no page yet) settles as creating and makes nothing', async () => {
    const pages = createMemoryPageStore();
    const { host, service, sessionId, decisions } = world(pages);
    const callId = await cardTurn(host, sessionId);
    service.record({ sessionId, callId, action: 'create_page', phase: 'creating' });
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'create' }), { status: 'settled', phase: 'creating' });
    assert.deepEqual(decisions(), [{ phase: 'creating', data: {} }]);
    assert.equal(await pages.exists('page-1'), false);
  });

  it('a phase the kind does not know refuses create as unavailable and makes nothing', async () => {
    const pages = createMemoryPageStore();
    const { host, service, sessionId, decisions } = world(pages);
    const callId = await cardTurn(host, sessionId);
    service.record({ sessionId, callId, action: 'create_page', phase: 'archived' });
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'create' }), { status: 'refused', reason: 'unavailable' });
    assert.deepEqual(decisions(), [{ phase: 'archived', data: {} }]);
    assert.equal(await pages.exists('page-1'), false);
  });

  it('a deleted page is recorded with its id', async () => {
    const pages = createMemoryPageStore();
    const { host, service, sessionId, decisions } = world(pages);
    const callId = await cardTurn(host, sessionId);
    await service.act({ sessionId, callId, verb: 'create' });
    pages.delete('page-1');
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'dismiss' }), { status: 'settled', phase: 'deleted' });
    assert.deepEqual(decisions().at(-1), { phase: 'deleted', data: { pageId: 'page-1' } });
  });

  it('a created card whose data names no page id (missing or not a string) is never marked deleted', async () => {
    for (const data of [{}, { pageId: 7 }, { url: '/pages/page-1' }] as Record<string, JsonValue>[]) {
      const { host, service, sessionId, decisions } = world(createMemoryPageStore());
      const callId = await cardTurn(host, sessionId);
      service.record({ sessionId, callId, action: 'create_page', phase: 'created', data });
      assert.deepEqual(await service.act({ sessionId, callId, verb: 'dismiss' }), { status: 'settled', phase: 'created' });
      assert.deepEqual(decisions(), [{ phase: 'created', data }]);
    }
  });
});

describe('create_page called by a host whose context has no data (older callers)', () => {
  it('reconciles a created card without recording anything', async () => {
    const { ctx, recorded } = olderContext(
      { action: 'create_page', title: 'Save as a page', brief: 'b', details: { pageTitle: 't', sections: ['s'] } },
      'created',
    );
    await createPageKind({ pages: createMemoryPageStore() }).reconcile?.(ctx);
    assert.deepEqual(recorded, []);
  });
});
