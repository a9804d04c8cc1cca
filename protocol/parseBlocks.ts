import { describeType } from './issues.js';
import type { DiffBlock, TableCell } from './model.js';
import type { NormalizedBlock } from './normalized.js';
import { cellBytes } from './modelSize.js';
import { at, IdScope, isRecord, own, show, type At, type Input, type Reader } from './parseReader.js';

/* Content blocks: markdown, metrics, table, diff, notice. */

const BLOCK_KINDS = ['markdown', 'metrics', 'table', 'diff', 'notice'] as const;
const keys = (...names: string[]): ReadonlySet<string> => new Set(names);
const MARKDOWN_KEYS = keys('kind', 'text');
const METRICS_KEYS = keys('kind', 'items');
const METRIC_KEYS = keys('label', 'value', 'detail');
const TABLE_KEYS = keys('kind', 'columns', 'rows');
const COLUMN_KEYS = keys('id', 'label');
const DIFF_KEYS = keys('kind', 'path', 'before', 'after', 'language');
const NOTICE_KEYS = keys('kind', 'tone', 'text');
const TONES: readonly string[] = ['neutral', 'info', 'warning'];

/** One block, normalised, or `undefined` when it has an issue (recorded on the reader). */
export function readBlock(r: Reader, value: unknown, path: At): NormalizedBlock | undefined {
  const kind = r.kindOf(value, path, 'a block', BLOCK_KINDS);
  if (kind === undefined) return undefined;
  const block = value as Input;
  switch (kind) {
    case 'markdown':
      return readMarkdown(r, block, path);
    case 'metrics':
      return readMetrics(r, block, path);
    case 'table':
      return readTable(r, block, path);
    case 'diff':
      return readDiff(r, block, path);
    default:
      return readNotice(r, block, path);
  }
}

function readMarkdown(r: Reader, value: Input, path: At): NormalizedBlock | undefined {
  r.object(value, path, 'a markdown block', MARKDOWN_KEYS);
  const text = r.label(value, 'text', path, 'a markdown block', 'markdown text');
  return text === undefined ? undefined : { kind: 'markdown', text };
}

function readMetrics(r: Reader, value: Input, path: At): NormalizedBlock | undefined {
  r.object(value, path, 'a metrics block', METRICS_KEYS);
  const itemsPath = at(path, 'items');
  const list = r.array(r.required(value, 'items', path, 'a metrics block'), itemsPath, 'metrics items', true);
  if (list === undefined) return undefined;
  const items = r.objects(list, itemsPath, 'a metric', METRIC_KEYS, (item, itemPath) => {
    const label = r.label(item, 'label', itemPath, 'a metric', 'a metric label');
    const text = r.string(item, 'value', itemPath, 'a metric', 'a metric value');
    const detail = r.optionalLabel(item, 'detail', itemPath, 'a metric detail');
    if (label === undefined || text === undefined) return undefined;
    return detail === undefined ? { label, value: text } : { label, value: text, detail };
  });
  return { kind: 'metrics', items };
}

function readTable(r: Reader, value: Input, path: At): NormalizedBlock | undefined {
  r.object(value, path, 'a table block', TABLE_KEYS);
  const columnsPath = at(path, 'columns');
  const list = r.array(r.required(value, 'columns', path, 'a table block'), columnsPath, 'table columns', true);
  const rowsPath = at(path, 'rows');
  const rowList = r.array(r.required(value, 'rows', path, 'a table block'), rowsPath, 'table rows', false, true);
  if (list === undefined) return undefined;
  const scope = new IdScope(r, 'column id');
  const columns = r.objects(list, columnsPath, 'a table column', COLUMN_KEYS, (column, columnPath) => {
    const id = r.id(column, 'id', columnPath, 'a table column', 'a column id');
    const label = r.label(column, 'label', columnPath, 'a table column', 'a column label');
    scope.claim(id, columnPath);
    return id === undefined || label === undefined ? undefined : { id, label };
  });
  if (rowList === undefined) return undefined;
  const limit = r.limits.tableRows;
  if (rowList.length > limit) {
    r.add(at(rowsPath, limit), 'too-many-rows', `a table may have at most ${limit} rows; this one has ${rowList.length}`);
  }
  const rows: Record<string, TableCell>[] = [];
  const count = Math.min(rowList.length, limit);
  for (let i = 0; i < count && !r.full; i++) {
    const row = readRow(r, rowList[i], at(rowsPath, i), columns, scope);
    if (row !== undefined) rows.push(row);
    else r.skip();
  }
  return { kind: 'table', columns, rows };
}

/** A row keyed by declared column ids only; the result has every column, in column order. */
function readRow(
  r: Reader,
  value: unknown,
  path: At,
  columns: readonly { id: string }[],
  scope: IdScope,
): Record<string, TableCell> | undefined {
  if (!isRecord(value)) return r.add(path, 'invalid-type', `a table row must be an object keyed by column id, not ${describeType(value)}`);
  const row = value;
  const rowKeys = Object.keys(row);
  // The usual row names every column in column order: its keys are then known own and declared.
  let inOrder = rowKeys.length === columns.length;
  for (let i = 0; inOrder && i < columns.length; i++) inOrder = rowKeys[i] === columns[i]!.id;
  if (!inOrder) {
    for (const key of rowKeys) {
      if (!scope.has(key)) r.add(at(path, key), 'unknown-key', `a table row may only use declared column ids; ${show(key)} is not one`);
    }
  }
  const out: Record<string, TableCell> = {};
  for (const { id } of columns) {
    const cell = inOrder ? row[id] : own(row, id);
    if (cell === undefined) {
      // Absent is null; a key set to `undefined` (possible only from JavaScript) is not a cell.
      if (Object.prototype.hasOwnProperty.call(row, id))
        r.add(at(path, id), 'invalid-type', 'a table cell must be a string, number, boolean or null, not nothing');
      else r.cellBytes += cellBytes((out[id] = null));
    } else if (typeof cell === 'string' || typeof cell === 'boolean' || cell === null) r.cellBytes += cellBytes((out[id] = cell));
    else if (typeof cell === 'number' && Number.isFinite(cell))
      r.cellBytes += cellBytes((out[id] = cell === 0 ? 0 : cell)); // -0 → 0, as JSON has it
    else if (typeof cell === 'number') r.add(at(path, id), 'invalid-value', `a table cell must be a finite number, not ${show(cell)}`);
    else r.add(at(path, id), 'invalid-type', `a table cell must be a string, number, boolean or null, not ${show(cell)}`);
  }
  return out;
}

function readDiff(r: Reader, value: Input, path: At): NormalizedBlock | undefined {
  r.object(value, path, 'a diff block', DIFF_KEYS);
  const filePath = r.optionalLabel(value, 'path', path, 'a diff path');
  const before =
    own(value, 'before') === null
      ? null
      : r.string(value, 'before', path, 'a diff block', 'diff "before" (a string, or null for a new file)');
  const after = r.string(value, 'after', path, 'a diff block', 'diff "after"');
  const language = r.optionalLabel(value, 'language', path, 'a diff language');
  if (before === undefined || after === undefined) return undefined;
  const block: DiffBlock = filePath === undefined ? { kind: 'diff', before, after } : { kind: 'diff', path: filePath, before, after };
  if (language !== undefined) block.language = language;
  return block;
}

function readNotice(r: Reader, value: Input, path: At): NormalizedBlock | undefined {
  r.object(value, path, 'a notice block', NOTICE_KEYS);
  const tone = r.required(value, 'tone', path, 'a notice block');
  const text = r.label(value, 'text', path, 'a notice block', 'notice text');
  if (tone !== undefined && (typeof tone !== 'string' || !TONES.includes(tone))) {
    r.add(at(path, 'tone'), 'invalid-value', `a notice tone must be one of ${TONES.join(', ')}, not ${show(tone)}`);
    return undefined;
  }
  return text === undefined || tone === undefined ? undefined : { kind: 'notice', tone: tone as 'neutral', text };
}
