import type { TaskSurfaceLimits } from './limits.js';
import type { NormalizedTaskSurfaceModel } from './normalized.js';
import { parseShowTaskSurfaceArgs } from './parse.js';
import { isRecord, own, type Input } from './parseReader.js';

/*
 * The panel while the model writes it: from the arguments of a `show_task_surface` call that is
 * still streaming, already healed into a value by a partial JSON parser (partial-json on the Host,
 * the AI SDK's own on `useChat`, the MCP host's for `tool-input-partial`), the part that is whole
 * enough to show. The rules (docs/rules.md, "The preview"):
 * - whatever is still being written is left out: the last key of an open object and the last item
 *   of an open list (a parser heals a cut string or number; it would show, then change);
 * - blocks and fields are shown whole or not at all, but a table whose columns are written shows its
 *   whole rows as they come (rows only add below); a section shows once it has a block to show;
 * - the rest goes through `parseShowTaskSurfaceArgs` under the same limits, so a preview shows
 *   exactly what the panel will (markdown rules, normalisation), and nothing the parser would refuse.
 * A prefix whose settled part does not parse yields `null`: the caller keeps what it showed
 * (nothing drawn moves), and the completed call decides.
 */

/** The settled part of `value`, an open object: every key but the last, which is still being written. */
function settledKeys(value: Input): [Input, string | undefined] {
  const keys = Object.keys(value);
  const open = keys.at(-1);
  return [Object.fromEntries(keys.slice(0, -1).map((k) => [k, own(value, k)])), open];
}

/** An open block: a table with its columns written and at least one whole row, else nothing. */
function openBlock(value: unknown): unknown {
  if (!isRecord(value)) return undefined;
  const [block, open] = settledKeys(value);
  const rows = own(value, 'rows');
  if (block['kind'] !== 'table' || open !== 'rows' || !Array.isArray(rows) || rows.length < 2) return undefined;
  return { ...block, rows: rows.slice(0, -1) };
}

/** An open section: its whole blocks (and an open table's whole rows), or nothing while none is. */
function openSection(value: unknown): unknown {
  if (!isRecord(value)) return undefined;
  const [section, open] = settledKeys(value);
  if (open !== 'blocks') return undefined; // its id, title or layout is being written: nothing to show yet
  const blocks = own(value, 'blocks');
  if (!Array.isArray(blocks)) return undefined;
  const last = openBlock(blocks.at(-1));
  const whole = last === undefined ? blocks.slice(0, -1) : [...blocks.slice(0, -1), last];
  return whole.length === 0 ? undefined : { ...section, blocks: whole };
}

/** A stand-in for a part the panel needs but the preview never shows (its submit label). */
const STUB_LABEL = '…';

/**
 * The preview of a streaming `show_task_surface` call: the normalised model of its settled part
 * (title first, then each block and field once whole), or `null` while nothing is whole or the
 * settled part does not parse. `args` is the healed prefix of the arguments, `{ model: {…} }`.
 */
export function previewTaskSurfaceModel(args: unknown, limits?: Partial<TaskSurfaceLimits>): NormalizedTaskSurfaceModel | null {
  const raw = isRecord(args) ? own(args, 'model') : undefined;
  if (!isRecord(raw)) return null;
  const [model, open] = settledKeys(raw);
  if (typeof model['title'] !== 'string' || (model['version'] ?? 1) !== 1) return null;
  const sections = own(raw, 'sections');
  if (open === 'sections' && Array.isArray(sections)) {
    const last = openSection(sections.at(-1));
    model['sections'] = last === undefined ? sections.slice(0, -1) : [...sections.slice(0, -1), last];
  }
  const fields = own(raw, 'fields');
  if (open === 'fields' && Array.isArray(fields)) model['fields'] = fields.slice(0, -1);
  model['version'] = 1;
  model['sections'] ??= [];
  if (!isRecord(model['submit'])) model['submit'] = { label: STUB_LABEL };
  const empty = (model['sections'] as unknown[]).length === 0 && !(Array.isArray(model['fields']) && model['fields'].length > 0);
  // A title alone: checked with a stand-in field (a panel needs one block or field), shown without it.
  const parsed = parseShowTaskSurfaceArgs(
    { model: empty ? { ...model, fields: [{ kind: 'toggle', id: 'x', label: STUB_LABEL }] } : model },
    limits,
  );
  if (!parsed.ok) return null;
  return empty ? { ...parsed.model, fields: [] } : parsed.model;
}
