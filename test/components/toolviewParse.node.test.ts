// The transcript row reads a surface out of a show_task_surface result's meta with the limits the
// Host wrote there: a model accepted under larger limits renders instead of falling back to text.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseToolResultMeta } from '../../components/toolview/toolviewParse.js';

const model = (rows: number) => ({
  version: 1,
  title: 'Big',
  sections: [
    {
      id: 's',
      blocks: [{ kind: 'table', columns: [{ id: 'n', label: 'N' }], rows: Array.from({ length: rows }, (_, i) => ({ n: `r${i}` })) }],
    },
  ],
  submit: { label: 'OK' },
});
const meta = (rows: number, extra: Record<string, unknown> = {}) => ({
  kind: 'task-surface',
  version: 1,
  surfaceId: 'sf-1',
  model: model(rows),
  ...extra,
});
const rowsOf = (parsed: ReturnType<typeof parseToolResultMeta>) => {
  const block = parsed?.model.sections[0]?.blocks[0];
  return block?.kind === 'table' ? block.rows.length : null;
};

describe('transcript row: the limits in the meta', () => {
  it('parses a model under the limits its meta carries', () => {
    assert.equal(rowsOf(parseToolResultMeta(meta(400, { limits: { tableRows: 400 } }))), 400);
    assert.equal(rowsOf(parseToolResultMeta(meta(401, { limits: { tableRows: 400 } }))), null, 'and not past them');
  });

  it('uses the default limits (200 table rows) when the meta carries none or bogus ones', () => {
    assert.equal(rowsOf(parseToolResultMeta(meta(200))), 200);
    assert.equal(parseToolResultMeta(meta(201)), null);
    assert.equal(parseToolResultMeta(meta(201, { limits: { tableRows: 'lots' } })), null);
    assert.equal(parseToolResultMeta(meta(201, { limits: { tableRows: -1 } })), null);
    assert.equal(parseToolResultMeta(meta(201, { limits: [400] })), null);
  });
});
