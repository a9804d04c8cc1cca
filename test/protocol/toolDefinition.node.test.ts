import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SHOW_TASK_SURFACE, showTaskSurfaceResultText, showTaskSurfaceTool } from '../../protocol/index.js';
import { TSX_IMPORT } from '../../fixtures/tsxImport.js';

const snapshot = new URL('./show_task_surface.tool.json', import.meta.url);
const serialized = () => `${JSON.stringify(showTaskSurfaceTool, null, 2)}\n`;

describe('showTaskSurfaceTool', () => {
  it('matches the pinned snapshot byte for byte (UPDATE_SNAPSHOTS=1 rewrites it)', () => {
    if (process.env.UPDATE_SNAPSHOTS === '1') writeFileSync(snapshot, serialized());
    assert.equal(serialized(), readFileSync(snapshot, 'utf8'));
  });

  it('serialises to the same bytes in another process', () => {
    const index = fileURLToPath(new URL('../../protocol/index.ts', import.meta.url));
    const script = `const m = await import(${JSON.stringify(index)}); process.stdout.write(JSON.stringify(m.showTaskSurfaceTool));`;
    const other = execFileSync(process.execPath, [...TSX_IMPORT, '--input-type=module', '-e', script], { encoding: 'utf8' });
    assert.equal(other, JSON.stringify(showTaskSurfaceTool));
  });

  it('is frozen: no caller can change what the next session is sent', () => {
    assert.throws(() => {
      (showTaskSurfaceTool as { name: string }).name = 'other';
    });
    assert.throws(() => {
      (showTaskSurfaceTool.inputSchema as Record<string, unknown>).type = 'array';
    });
    assert.equal(JSON.stringify(showTaskSurfaceTool), JSON.stringify(showTaskSurfaceTool));
  });

  it('names the tool, says that it ends the turn, how the reply arrives and the rules JSON Schema cannot say', () => {
    assert.equal(showTaskSurfaceTool.name, SHOW_TASK_SURFACE);
    assert.equal(showTaskSurfaceTool.name, 'show_task_surface');
    const { description } = showTaskSurfaceTool;
    assert.match(description, /ends your turn/);
    assert.match(description, /next user message/);
    for (const rule of [
      /One panel at a time/,
      /No keys beyond the schema/,
      /not blank/,
      /at least one block or field/,
      /ids unique/,
      /initials use option ids/,
      /no line breaks/,
      /row keys are column ids/,
      /64 blocks, 32 fields, 200 rows/,
    ]) {
      assert.match(description, rule);
    }
  });

  it('is lean: at most 3,000 characters of JSON in all', () => {
    assert.ok(JSON.stringify(showTaskSurfaceTool).length <= 3000, `${JSON.stringify(showTaskSurfaceTool).length} characters`);
  });

  it('has an input schema of { model } that carries the rules JSON Schema can say', () => {
    const schema = showTaskSurfaceTool.inputSchema as Record<string, any>;
    assert.equal(schema.type, 'object');
    assert.deepEqual(schema.required, ['model']);
    assert.equal(schema.additionalProperties, false);
    const model = schema.properties.model;
    assert.deepEqual(model.required, ['version', 'title', 'sections', 'submit']);
    assert.equal(model.properties.version.const, 1);
    assert.equal(schema.$defs.id.pattern, '^[A-Za-z0-9][\\w.:-]{0,127}$');
    assert.deepEqual(schema.$defs.field.properties.kind.enum, ['text', 'choice', 'multi-choice', 'toggle', 'order']);
    assert.deepEqual(
      schema.$defs.block.oneOf.map((b: any) => b.properties.kind.const),
      ['markdown', 'metrics', 'table', 'diff', 'notice'],
    );
    assert.equal(schema.$defs.options.minItems, 1);
    assert.equal(model.properties.sections.items.properties.blocks.minItems, 1);
    assert.deepEqual(model.properties.sections.items.properties.layout.properties.columns.enum, [2, 3]);
  });

  it("its id pattern is the parser's id rule", () => {
    const pattern = new RegExp((showTaskSurfaceTool.inputSchema as any).$defs.id.pattern);
    for (const ok of ['a', 'A1', '0_x.y:z-w', 'x'.repeat(128)]) assert.ok(pattern.test(ok), ok);
    for (const bad of ['', '_a', '-a', 'a b', 'x'.repeat(129), '__proto__', 'é']) assert.ok(!pattern.test(bad), bad);
  });
});

describe('showTaskSurfaceResultText', () => {
  it('names the surface and tells the model an ordinary message bypasses it', () => {
    const text = showTaskSurfaceResultText('ts-1', 'Pick a "plan"');
    assert.equal(
      text,
      'Task surface "Pick a \\"plan\\"" (ts-1) is now shown to the user; your turn ends here. ' +
        'Their answer will arrive as the next user message. If their client cannot show the panel, they can reply ' +
        'with an ordinary message instead, which closes the surface.',
    );
  });
});
