import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SessionIdSchema, TaskSurfaceIdSchema, mintTaskSurfaceId, ID_MAX_LENGTH } from '../../protocol/index.js';

describe('branded ids', () => {
  it('accepts a minted id and returns it unchanged', () => {
    const id = mintTaskSurfaceId();
    assert.equal(TaskSurfaceIdSchema.parse(id), id);
  });

  it('rejects empty, too long and unsafe ids with a message naming the id', () => {
    for (const bad of ['', 'x'.repeat(ID_MAX_LENGTH + 1), 'a b', '../etc', '-lead', 'é']) {
      const result = SessionIdSchema.safeParse(bad);
      assert.equal(result.success, false, `accepted ${JSON.stringify(bad)}`);
      assert.match(result.error!.issues[0]!.message, /sessionId/);
    }
  });

  it('rejects non-strings', () => {
    for (const bad of [null, 1, {}, []]) assert.equal(SessionIdSchema.safeParse(bad).success, false);
  });
});
