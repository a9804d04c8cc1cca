// The preview of a streaming show_task_surface call (protocol/preview.ts, host/taskSurface/preview.ts):
// it only grows, shows nothing half-written, and stays under the parser's rules and limits.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'partial-json';
import { everyKindModel, maximalModel } from '../../fixtures/models.js';
import { parseShowTaskSurfaceArgs } from '../../protocol/parse.js';
import { previewTaskSurfaceModel } from '../../protocol/preview.js';
import { readPreview } from '../../host/taskSurface/preview.js';
import { DEFAULT_LIMITS } from '../../protocol/limitDefaults.js';
import type { NormalizedTaskSurfaceModel } from '../../protocol/normalized.js';

/** Every preview a call's JSON text gives, cut every `step` characters. */
function previews(text: string, step: number): NormalizedTaskSurfaceModel[] {
  const out: NormalizedTaskSurfaceModel[] = [];
  for (let end = 1; end < text.length; end += step) {
    const model = readPreview('show_task_surface', text.slice(0, end), DEFAULT_LIMITS, false);
    if (model) out.push(model);
  }
  return out;
}

const blocksOf = (m: NormalizedTaskSurfaceModel) => m.sections.flatMap((s) => s.blocks.map((b) => JSON.stringify(b)));

describe('the preview of a streaming call', () => {
  for (const [name, model, step] of [
    ['every kind', everyKindModel(), 7],
    ['the maximal model', maximalModel(), 211],
  ] as const) {
    it(`${name}: only grows, and ends as the completed panel's parts`, () => {
      const text = JSON.stringify({ model });
      const full = parseShowTaskSurfaceArgs({ model });
      assert.ok(full.ok);
      const seen = previews(text, step);
      assert.ok(seen.length > 3, 'the preview shows before the call is whole');
      let before: NormalizedTaskSurfaceModel | undefined;
      for (const now of seen) {
        assert.equal(now.title, full.model.title, 'the title shows whole, never cut');
        if (before) {
          const [a, b] = [blocksOf(before), blocksOf(now)];
          // Every block drawn stays as it was, except an open table's rows, which only add.
          for (let i = 0; i < a.length; i++) {
            const same = a[i] === b[i] || (JSON.parse(a[i]!).kind === 'table' && b[i]!.startsWith(a[i]!.slice(0, -3)));
            assert.ok(same, `block ${i} moved`);
          }
          assert.deepEqual(now.fields.slice(0, before.fields.length), before.fields, 'fields only add');
          assert.deepEqual(
            now.sections.map((s) => s.id).slice(0, before.sections.length),
            before.sections.map((s) => s.id),
          );
        }
        before = now;
      }
      // Everything but the last field is shown before the call completes.
      assert.deepEqual(blocksOf(before!), blocksOf(full.model));
      assert.deepEqual(before!.fields, full.model.fields.slice(0, before!.fields.length));
    });
  }

  it('shows the title alone, and nothing before it is whole', () => {
    assert.equal(previewTaskSurfaceModel(parse('{"model":{"version":1,"title":"Pick a pl')), null);
    assert.equal(previewTaskSurfaceModel(parse('{"model":{"version":1,"title":"Pick a plan"')), null);
    assert.deepEqual(previewTaskSurfaceModel(parse('{"model":{"version":1,"title":"Pick a plan","sections":[')), {
      version: 1,
      title: 'Pick a plan',
      sections: [],
      fields: [],
      submit: { label: '…' },
    });
  });

  it('shows nothing the parser refuses: a second version, a bad block, another tool, an open panel', () => {
    assert.equal(previewTaskSurfaceModel(parse('{"model":{"version":2,"title":"T","sections":[')), null);
    const text =
      '{"model":{"version":1,"title":"T","sections":[{"id":"s","blocks":[{"kind":"markdown","text":"a"},{"kind":"markdown","text":"b"},{"kind"';
    assert.equal(readPreview('show_task_surface', text, DEFAULT_LIMITS, false)?.sections[0]?.blocks.length, 2);
    const bad = `${text}:"markdown","text":"c","colour":"red"},{"kind"`;
    assert.equal(readPreview('show_task_surface', bad, DEFAULT_LIMITS, false), undefined, 'kept as it was');
    assert.equal(readPreview('propose_action', text, DEFAULT_LIMITS, false), null);
    assert.equal(readPreview('show_task_surface', text, DEFAULT_LIMITS, true), null);
    assert.equal(
      readPreview(
        'show_task_surface',
        '{"model":{"version":1,"title":"T","sections":[{"id":"s","blocks":[{"kind":"nope"},{"kind"',
        DEFAULT_LIMITS,
        false,
      ),
      undefined,
    );
  });

  it('renders markdown under the same rules: a markdown block is whole or absent', () => {
    const text = '{"model":{"version":1,"title":"T","sections":[{"id":"s","blocks":[{"kind":"markdown","text":"**bold** and <b>more';
    assert.deepEqual(readPreview('show_task_surface', text, DEFAULT_LIMITS, false)?.sections, []);
    const whole = readPreview('show_task_surface', `${text}</b>"},{"kind":"notice"`, DEFAULT_LIMITS, false);
    assert.deepEqual(whole?.sections[0]?.blocks, [{ kind: 'markdown', text: '**bold** and <b>more</b>' }]);
  });
});
