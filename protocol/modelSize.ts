import type { TableCell } from './model.js';
import type { NormalizedBlock, NormalizedField, NormalizedSection, NormalizedTaskSurfaceModel } from './normalized.js';
import { jsonStringBytes } from './utf8.js';

/*
 * The model limit is on UTF-8 bytes of the normalised model's JSON. Serialising the model just to
 * measure it costs as much as parsing its text, so this walks the normalised model, whose shapes
 * the parser built and so knows exactly, and adds up what JSON.stringify would write. A property
 * test holds it equal to `TextEncoder.encode(JSON.stringify(model)).length`.
 */

/** Adds up bytes; strings are measured one by one (a regex test each, walked only when not plain). */
class Sizer {
  bytes: number;
  /** Whether the table cells are already counted in `bytes`. */
  readonly cellsCounted: boolean;
  constructor(cellBytes: number | undefined) {
    this.bytes = cellBytes ?? 0;
    this.cellsCounted = cellBytes !== undefined;
  }
  str(text: string): void {
    this.bytes += jsonStringBytes(text);
  }
  /** An id: the parser let through only letters, digits and `_ . : -`, one byte each, no escapes. */
  id(text: string): void {
    this.bytes += text.length + 2;
  }
  optional(key: string, value: string | undefined): void {
    if (value === undefined) return;
    this.bytes += key.length + 4 + jsonStringBytes(value); // ,"key":"value"
  }
}

/** `{"a":…,"b":…}` without the values: braces, quoted keys (plain ASCII), colons and commas. */
const shape = (...keys: string[]): number => keys.reduce((n, key) => n + key.length + 3, 1) + keys.length;
/** Brackets and commas of an array of `n` items. */
const list = (n: number): number => (n === 0 ? 2 : n + 1);
/** A constant string value (a `kind`): plain ASCII. */
const word = (text: string): number => text.length + 2;

const MODEL = shape('version', 'title', 'sections', 'fields', 'submit') + 1 + shape('label');
const SECTION = shape('id', 'layout', 'blocks');
const STACK = shape('kind') + word('stack');
const GRID = shape('kind', 'columns') + word('grid') + 1;
const OPTION = shape('id', 'label');

/**
 * UTF-8 bytes of `JSON.stringify(model)` for a model `parseTaskSurfaceModel` built. `cellBytes`,
 * when given, is what `cellBytes()` summed over every table cell (the parser adds them up as it
 * reads the rows), so the cells are not walked again.
 */
export function normalizedModelBytes(model: NormalizedTaskSurfaceModel, cellBytes?: number): number {
  const s = new Sizer(cellBytes);
  s.bytes += MODEL + list(model.sections.length) + list(model.fields.length);
  s.str(model.title);
  s.optional('description', model.description);
  s.str(model.submit.label);
  for (const section of model.sections) addSection(s, section);
  for (const field of model.fields) addField(s, field);
  return s.bytes;
}

function addSection(s: Sizer, section: NormalizedSection): void {
  s.bytes += SECTION + (section.layout.kind === 'stack' ? STACK : GRID) + list(section.blocks.length);
  s.id(section.id);
  s.optional('title', section.title);
  for (const block of section.blocks) addBlock(s, block);
}

const MARKDOWN = shape('kind', 'text') + word('markdown');
const METRICS = shape('kind', 'items') + word('metrics');
const METRIC = shape('label', 'value');
const TABLE = shape('kind', 'columns', 'rows') + word('table');
const DIFF = shape('kind', 'before', 'after') + word('diff');
const NOTICE = shape('kind', 'tone', 'text') + word('notice');

function addBlock(s: Sizer, block: NormalizedBlock): void {
  switch (block.kind) {
    case 'markdown':
      s.bytes += MARKDOWN;
      s.str(block.text);
      return;
    case 'notice':
      s.bytes += NOTICE + word(block.tone);
      s.str(block.text);
      return;
    case 'diff':
      s.bytes += DIFF;
      s.optional('path', block.path);
      if (block.before === null) s.bytes += 4;
      else s.str(block.before);
      s.str(block.after);
      s.optional('language', block.language);
      return;
    case 'metrics':
      s.bytes += METRICS + list(block.items.length);
      for (const item of block.items) {
        s.bytes += METRIC;
        s.str(item.label);
        s.str(item.value);
        s.optional('detail', item.detail);
      }
      return;
    case 'table': {
      s.bytes += TABLE + list(block.columns.length) + list(block.rows.length);
      for (const column of block.columns) {
        s.bytes += OPTION;
        s.id(column.id);
        s.str(column.label);
      }
      // Every normalised row has every column, in column order: the keys cost the same in each.
      const ids = block.columns.map((c) => c.id);
      const row = shape(...ids);
      s.bytes += row * block.rows.length;
      if (!s.cellsCounted) for (const cells of block.rows) for (const id of ids) s.bytes += cellBytes(cells[id] ?? null);
    }
  }
}

/**
 * Characters of a finite number as JSON writes it. Integers and sixteenths below 1e11 (the common
 * cells: counts, halves, quarters) are counted without formatting: such a number's exact decimal
 * has at most 15 significant digits, so it is the shortest that reads back, which JSON writes.
 */
export function numberLength(value: number): number {
  const size = Math.abs(value);
  if (size >= 1e11) return String(value).length;
  let decimals = 0;
  while (decimals <= 4 && !Number.isInteger(size * 2 ** decimals)) decimals++;
  if (decimals > 4) return String(value).length;
  let length = value < 0 ? 2 : 1;
  for (let rest = Math.floor(size); rest >= 10; rest = Math.floor(rest / 10)) length++;
  return decimals === 0 ? length : length + 1 + decimals;
}

/** UTF-8 bytes of one table cell as JSON. */
export function cellBytes(cell: TableCell): number {
  if (typeof cell === 'string') return jsonStringBytes(cell);
  if (typeof cell === 'number') return numberLength(cell);
  return cell === false ? 5 : 4;
}

const TEXT = shape('kind', 'id', 'label', 'multiline', 'required', 'initial') + word('text');
const CHOICE = shape('kind', 'id', 'label', 'options') + word('choice');
const MULTI = shape('kind', 'id', 'label', 'options', 'initial') + word('multi-choice');
const TOGGLE = shape('kind', 'id', 'label', 'initial') + word('toggle');
const ORDER = shape('kind', 'id', 'label', 'options', 'initial') + word('order');

function addField(s: Sizer, field: NormalizedField): void {
  s.id(field.id);
  s.str(field.label);
  switch (field.kind) {
    case 'text':
      s.bytes += TEXT + (field.multiline ? 4 : 5) + (field.required ? 4 : 5);
      s.str(field.initial);
      return;
    case 'toggle':
      s.bytes += TOGGLE + (field.initial ? 4 : 5);
      return;
    case 'choice':
      s.bytes += CHOICE;
      s.optional('initial', field.initial);
      break;
    case 'multi-choice':
    case 'order':
      s.bytes += (field.kind === 'order' ? ORDER : MULTI) + list(field.initial.length);
      for (const id of field.initial) s.id(id);
      break;
  }
  s.bytes += list(field.options.length);
  for (const option of field.options) {
    s.bytes += OPTION;
    s.id(option.id);
    s.str(option.label);
    s.optional('detail', option.detail);
  }
}
