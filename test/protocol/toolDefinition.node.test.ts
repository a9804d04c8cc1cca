import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SHOW_TASK_SURFACE, showTaskSurfaceResultText, showTaskSurfaceTool } from '../../protocol/index.js';

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
    const other = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    assert.equal(other, JSON.stringify(showTaskSurfaceTool));
  });

  it('is frozen: no caller can change what the next session is sent', () => {
    assert.throws(() => { (showTaskSurfaceTool as { name: string }).name = 'other'; });
    assert.throws(() => { (showTaskSurfaceTool.inputSchema as Record<string, unknown>).type = 'array'; });
    assert.equal(JSON.stringify(showTaskSurfaceTool), JSON.stringify(showTaskSurfaceTool));
  });

  it('names the tool and says what it is for, that it ends the turn and how the reply arrives', () => {
    assert.equal(showTaskSurfaceTool.name, SHOW_TASK_SURFACE);
    assert.equal(showTaskSurfaceTool.name, 'show_task_surface');
    const { description } = showTaskSurfaceTool;
    assert.match(description, /ends your turn/);
    assert.match(description, /next user message/);
    assert.ok(description.length < 800, `description is ${description.length} characters`);
  });

  it('has an input schema of { model } that carries the strict rules', () => {
    const schema = showTaskSurfaceTool.inputSchema as Record<string, any>;
    assert.equal(schema.type, 'object');
    assert.deepEqual(schema.required, ['model']);
    assert.equal(schema.additionalProperties, false);
    const model = schema.properties.model;
    assert.deepEqual(model.required, ['version', 'title', 'sections', 'submit']);
    assert.equal(model.additionalProperties, false);
    assert.equal(model.properties.version.const, 1);
    const sectionId = model.properties.sections.items.properties.id;
    assert.equal(sectionId.pattern, '^[A-Za-z0-9][A-Za-z0-9_.:-]*$');
    assert.equal(model.properties.title.pattern, '\\S');
    const kinds = model.properties.fields.items.oneOf.map((f: any) => f.properties.kind.const);
    assert.deepEqual(kinds, ['text', 'choice', 'multi-choice', 'toggle', 'order']);
  });
});

describe('showTaskSurfaceResultText', () => {
  it('names the surface and tells the model an ordinary message bypasses it', () => {
    const text = showTaskSurfaceResultText('ts-1', 'Pick a "plan"');
    assert.equal(text, 'Task surface "Pick a \\"plan\\"" (ts-1) is now shown to the user; your turn ends here. '
      + 'Their answer will arrive as the next user message. If their client cannot show the panel, they can reply '
      + 'with an ordinary message instead, which closes the surface.');
  });
});
