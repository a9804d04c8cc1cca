// What a hostile or buggy client meets when it sends a wrong frame: the refusal it reads back, whole.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CLIENT_REQUEST_TYPES, parseClientRequest, WireRequestIdSchema } from '../../protocol/wire.js';

const TYPES_LISTED =
  'ping, session.watch, session.unwatch, session.list, session.open, log.read, taskSurface.getActive, ' +
  'taskSurface.getOutcome, taskSurface.submit, taskSurface.dismiss, session.send, session.updateQueue, actionCards.act';

const refused = (id: string | null, message: string) => ({ ok: false, error: { type: 'error', id, code: 'bad-request', message } });
const send = (frame: unknown) => parseClientRequest(JSON.stringify(frame));

describe('a frame that is not a request object', () => {
  it('is refused without an id when it is not JSON', () => {
    for (const data of ['nope', '{"id":"r1",', ''])
      assert.deepEqual(parseClientRequest(data), refused(null, 'message is not valid JSON'), data);
  });

  it('is refused without an id when it is JSON but not an object', () => {
    for (const data of ['[{"id":"r1","type":"ping"}]', 'null', '3', '"ping"', 'true'])
      assert.deepEqual(parseClientRequest(data), refused(null, 'message must be a JSON object'), data);
  });
});

describe('the request id', () => {
  const needsId = refused(null, 'message needs a string "id" of 1–128 characters');

  it('is refused when missing, empty, too long or not a string, and the answer carries no id', () => {
    for (const id of [undefined, '', 'x'.repeat(129), 7, null, ['r1']]) assert.deepEqual(send({ id, type: 'ping' }), needsId, String(id));
  });

  it('of 1 and of 128 characters, any characters, is echoed back', () => {
    for (const id of ['r', 'x'.repeat(128), 'ü id/with spaces'])
      assert.deepEqual(send({ id, type: 'ping' }), { ok: true, request: { id, type: 'ping' } });
  });

  it('WireRequestIdSchema words its own refusals', () => {
    const message = (id: unknown) => WireRequestIdSchema.safeParse(id).error?.issues.map((i) => i.message);
    assert.deepEqual(message(''), ['id must not be empty']);
    assert.deepEqual(message('x'.repeat(129)), ['id must be at most 128 characters']);
    assert.equal(message('x'.repeat(128)), undefined);
  });
});

describe('the request type', () => {
  it('lists every type a client may send, in this order', () => {
    assert.equal(CLIENT_REQUEST_TYPES.join(', '), TYPES_LISTED);
  });

  it('names an unknown type (its first 64 characters) and lists the known ones, with the id', () => {
    assert.deepEqual(
      send({ id: 'r1', type: 'admin.drop' }),
      refused('r1', `unknown message type "admin.drop"; expected one of ${TYPES_LISTED}`),
    );
    assert.deepEqual(
      send({ id: 'r1', type: `${'a'.repeat(64)}TAIL` }),
      refused('r1', `unknown message type "${'a'.repeat(64)}"; expected one of ${TYPES_LISTED}`),
    );
  });

  it('says a type is missing, or names what it is when it is not a string', () => {
    assert.deepEqual(send({ id: 'r1' }), refused('r1', `message needs a "type"; expected one of ${TYPES_LISTED}`));
    assert.deepEqual(send({ id: 'r1', type: undefined }), refused('r1', `message needs a "type"; expected one of ${TYPES_LISTED}`));
    for (const [type, named] of [
      [7, 'a number'],
      [null, 'null'],
      [{ ping: true }, 'an object'],
      [['ping'], 'an array'],
      [true, 'a boolean'],
    ] as const)
      assert.deepEqual(
        send({ id: 'r1', type }),
        refused('r1', `message "type" must be a string, not ${named}; expected one of ${TYPES_LISTED}`),
      );
  });

  it('does not take a property every object inherits for a request type', () => {
    for (const type of ['toString', 'constructor', '__proto__', 'hasOwnProperty'])
      assert.deepEqual(send({ id: 'r1', type }), refused('r1', `unknown message type "${type}"; expected one of ${TYPES_LISTED}`));
  });
});

// One valid request of each type: it passes with exactly the data sent.
const VALID: Record<string, unknown> = {
  ping: undefined,
  'session.watch': { sessionId: 's1' },
  'session.unwatch': { sessionId: 's1' },
  'session.list': {},
  'session.open': { title: 'Trip', locale: 'de-CH' },
  'log.read': { sessionId: 's1', before: 10, limit: 500 },
  'taskSurface.getActive': { sessionId: 's1', surfaceId: 'f1' },
  'taskSurface.getOutcome': { sessionId: 's1', surfaceId: 'f1' },
  'taskSurface.submit': { sessionId: 's1', surfaceId: 'f1', submissionId: 'sub1', values: { a: [1, 'b', null] }, note: 'n', locale: 'fr' },
  'taskSurface.dismiss': { sessionId: 's1', surfaceId: 'f1', dismissalId: 'd1' },
  'session.send': { sessionId: 's1', messageId: 'm1', rpcId: 'p1', text: 'hello' },
  'session.updateQueue': { op: 'edit', sessionId: 's1', itemId: 'i1', text: 'new' },
  'actionCards.act': { sessionId: 's1', callId: 'c1', verb: 'approve', payload: { why: 'ok' } },
};

describe('each request type', () => {
  it('has a valid example here', () => {
    assert.deepEqual(Object.keys(VALID), CLIENT_REQUEST_TYPES);
  });

  for (const [type, params] of Object.entries(VALID)) {
    it(`${type}: a valid request passes with exactly its data`, () => {
      const frame = params === undefined ? { id: 'r1', type } : { id: 'r1', type, params };
      assert.deepEqual(send(frame), { ok: true, request: frame });
    });

    it(`${type}: an extra top-level field is refused`, () => {
      const frame = params === undefined ? { id: 'r1', type, admin: true } : { id: 'r1', type, params, admin: true };
      assert.deepEqual(send(frame), refused('r1', `invalid ${type} request: unknown field "admin"`));
    });
  }

  it('ping and session.list take no params but an empty object, nothing else', () => {
    assert.deepEqual(send({ id: 'r1', type: 'session.list' }), { ok: true, request: { id: 'r1', type: 'session.list' } });
    assert.deepEqual(send({ id: 'r1', type: 'ping', params: {} }), { ok: true, request: { id: 'r1', type: 'ping', params: {} } });
    assert.deepEqual(send({ id: 'r1', type: 'ping', params: { x: 1 } }), refused('r1', 'invalid ping request: params: unknown field "x"'));
    assert.deepEqual(
      send({ id: 'r1', type: 'session.list', params: 3 }),
      refused('r1', 'invalid session.list request: params: expected object'),
    );
  });

  it('session.open takes no params fields at all, and an optional title and locale', () => {
    assert.deepEqual(send({ id: 'r1', type: 'session.open', params: {} }), {
      ok: true,
      request: { id: 'r1', type: 'session.open', params: {} },
    });
    const t200 = 'x'.repeat(200);
    assert.deepEqual(send({ id: 'r1', type: 'session.open', params: { title: t200 } }), {
      ok: true,
      request: { id: 'r1', type: 'session.open', params: { title: t200 } },
    });
  });
});

const LOCALE = 'locale must be a well-formed BCP 47 language tag, like "en" or "zh-Hant-TW"';

// Each field made wrong, and the worded issue the client reads.
const WRONG: [type: string, params: unknown, issues: string][] = [
  ['session.watch', {}, 'params.sessionId: expected string'],
  ['session.watch', undefined, 'params: expected object'],
  ['session.unwatch', { sessionId: 's1', also: 1 }, 'params: unknown field "also"'],
  [
    'session.unwatch',
    { sessionId: 'a b' },
    "params.sessionId: sessionId must start with a letter or digit and use only letters, digits, '_', '.', ':' and '-'",
  ],
  ['session.open', { title: '' }, 'params.title: title must not be empty'],
  ['session.open', { title: 'x'.repeat(201) }, 'params.title: title must be at most 200 characters'],
  ['session.open', { title: 5 }, 'params.title: expected string'],
  ['session.open', { locale: 'not a tag' }, `params.locale: ${LOCALE}`],
  ['session.open', { title: 't', owner: 'me', role: 'admin' }, 'params: unknown fields "owner", "role"'],
  ['log.read', { sessionId: 's1', limit: 0 }, 'params.limit: limit must be positive'],
  ['log.read', { sessionId: 's1', limit: 501 }, 'params.limit: limit must be at most 500'],
  ['log.read', { sessionId: 's1', limit: 1.5 }, 'params.limit: expected int'],
  ['log.read', { sessionId: 's1' }, 'params.limit: expected number'],
  ['log.read', { sessionId: 's1', limit: 1, before: 0 }, 'params.before: before must be a positive seq'],
  ['log.read', { sessionId: 's1', limit: 1, before: '9' }, 'params.before: expected number'],
  ['log.read', { sessionId: 's1', limit: 1, after: 2 }, 'params: unknown field "after"'],
  ['log.read', { limit: 1 }, 'params.sessionId: expected string'],
  ['taskSurface.getActive', { sessionId: 's1' }, 'params.surfaceId: expected string'],
  ['taskSurface.submit', { sessionId: 's1', surfaceId: 'f1', submissionId: 'sub1', values: [] }, 'params.values: expected record'],
  ['session.send', { sessionId: 's1', messageId: 'm1', rpcId: 'p1', text: '' }, 'params.text: message must not be empty'],
  ['session.updateQueue', { op: 'zap', sessionId: 's1', itemId: 'i1' }, 'params.op: matches none of the allowed shapes'],
  ['session.updateQueue', { op: 'edit', sessionId: 's1', itemId: 'i1', text: '' }, 'params.text: must be at least 1'],
  ['actionCards.act', { sessionId: 's1', callId: 'c1', verb: 'x'.repeat(65) }, 'params.verb: must be at most 64'],
];

describe('a request with a wrong field', () => {
  for (const [type, params, issues] of WRONG) {
    it(`${type} ${JSON.stringify(params)} is refused: ${issues}`, () => {
      assert.deepEqual(send({ id: 'r9', type, params }), refused('r9', `invalid ${type} request: ${issues}`));
    });
  }

  it('names the first five issues and counts the rest', () => {
    const params = { sessionId: 1, surfaceId: 2, submissionId: 3, values: 4, note: 5, locale: 6 };
    assert.deepEqual(
      send({ id: 'r9', type: 'taskSurface.submit', params }),
      refused(
        'r9',
        'invalid taskSurface.submit request: params.sessionId: expected string; params.surfaceId: expected string; ' +
          'params.submissionId: expected string; params.values: expected record; params.note: expected string (and 1 more)',
      ),
    );
  });
});
