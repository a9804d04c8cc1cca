import type { NormalizedBlock, NormalizedField, NormalizedTaskSurfaceModel } from '../protocol/index.js';

/*
 * The panel as plain text, for hosts that cannot show it: the blocks as an elicitation's message, or
 * the whole panel as a compact form the model can ask in chat. Bounded: a table shows at most
 * TABLE_ROWS rows and a diff at most DIFF_LINES lines of each side, with a count of what was left out.
 */

const TABLE_ROWS = 20;
const DIFF_LINES = 40;

const cell = (value: unknown) => (value === null || value === undefined ? '' : String(value).replace(/\s+/g, ' ').replace(/\|/g, '\\|'));

function clipLines(text: string, max: number): string {
  const lines = text.split('\n');
  return lines.length <= max ? text : `${lines.slice(0, max).join('\n')}\n… (${lines.length - max} more lines)`;
}

/** One block as text (markdown stays markdown; a table becomes a markdown table). */
export function blockText(block: NormalizedBlock): string {
  switch (block.kind) {
    case 'markdown':
      return block.text;
    case 'metrics':
      return block.items.map((m) => `- ${m.label}: ${m.value}${m.detail ? ` (${m.detail})` : ''}`).join('\n');
    case 'table': {
      const head = `| ${block.columns.map((c) => cell(c.label)).join(' | ')} |`;
      const rule = `| ${block.columns.map(() => '---').join(' | ')} |`;
      const rows = block.rows.slice(0, TABLE_ROWS).map((row) => `| ${block.columns.map((c) => cell(row[c.id])).join(' | ')} |`);
      const more = block.rows.length > TABLE_ROWS ? [`… (${block.rows.length - TABLE_ROWS} more rows)`] : [];
      return [head, rule, ...rows, ...more].join('\n');
    }
    case 'diff': {
      const name = block.path ?? 'text';
      const before = block.before === null ? `(new file ${name})` : `Before (${name}):\n${clipLines(block.before, DIFF_LINES)}`;
      return `${before}\nAfter (${name}):\n${clipLines(block.after, DIFF_LINES)}`;
    }
    case 'notice':
      return `${block.tone === 'warning' ? 'Warning' : 'Note'}: ${block.text}`;
  }
}

/** Title, description and every section's blocks: what the panel shows before its fields. */
export function contextText(model: NormalizedTaskSurfaceModel): string {
  const parts = [model.title];
  if (model.description) parts.push(model.description);
  for (const section of model.sections) {
    if (section.title) parts.push(`## ${section.title}`);
    parts.push(...section.blocks.map(blockText));
  }
  return parts.join('\n\n');
}

const optionList = (field: Extract<NormalizedField, { options: unknown }>) =>
  field.options.map((o) => `  - ${o.label} [${o.id}]${o.detail ? `: ${o.detail}` : ''}`).join('\n');

/** One field as a line (and its options), with what kind of answer it takes. */
export function fieldText(field: NormalizedField): string {
  switch (field.kind) {
    case 'text':
      return `- ${field.label} (${field.required ? 'required ' : ''}text${field.multiline ? ', may span lines' : ''})`;
    case 'toggle':
      return `- ${field.label} (yes or no)`;
    case 'choice':
      return `- ${field.label} (pick one):\n${optionList(field)}`;
    case 'multi-choice':
      return `- ${field.label} (pick any):\n${optionList(field)}`;
    case 'order':
      return `- ${field.label} (put in order, first to last):\n${optionList(field)}`;
  }
}

/** The whole panel as a compact form the model can put to the person in chat. */
export function panelText(model: NormalizedTaskSurfaceModel): string {
  const fields = model.fields.length > 0 ? `\n\nQuestions:\n${model.fields.map(fieldText).join('\n')}` : '';
  return `${contextText(model)}${fields}`;
}
