import { effectiveLimits, type TaskSurfaceLimits } from './limits.js';
import { describeType, type ModelIssue } from './issues.js';
import type { TaskSurfaceLayout } from './model.js';
import type { NormalizedBlock, NormalizedField, NormalizedSection, NormalizedTaskSurfaceModel } from './normalized.js';
import { readBlock } from './parseBlocks.js';
import { readField } from './parseFields.js';
import { at, IdScope, isRecord, own, Reader, show, type At, type Input } from './parseReader.js';
import { normalizedModelBytes } from './modelSize.js';

/*
 * The one way into a Task Surface model: checks the schema (strict keys, tagged unions), the
 * version, unique ids, initial values and the limits, and returns the normalised model. A
 * hand-written walk rather than a zod parse: it is on every tool call and every getActive, it
 * must never throw, and its issues must point at the exact broken part.
 */

/** The parser's answer: the normalised model, or why there is none. */
export type ParseModelResult = { ok: true; model: NormalizedTaskSurfaceModel } | { ok: false; issues: ModelIssue[] };

const keys = (...names: string[]): ReadonlySet<string> => new Set(names);
const MODEL_KEYS = keys('version', 'title', 'description', 'sections', 'fields', 'submit');
const SECTION_KEYS = keys('id', 'title', 'layout', 'blocks');
const SUBMIT_KEYS = keys('label');
const STACK_KEYS = keys('kind');
const GRID_KEYS = keys('kind', 'columns');
const LAYOUT_KINDS = ['stack', 'grid'] as const;

/**
 * Parses and normalises a `TaskSurfaceModelV1`. Never throws: any input (cyclic, hostile, huge)
 * yields either the normalised model or at most `MAX_MODEL_ISSUES` issues in document order.
 */
export function parseTaskSurfaceModel(input: unknown, limits?: Partial<TaskSurfaceLimits>): ParseModelResult {
  try {
    return parseModel(input, effectiveLimits(limits), null);
  } catch (error) {
    // Only a hostile object (a throwing getter or proxy trap) gets here.
    return { ok: false, issues: [{ path: [], code: 'invalid-type', message: `the model could not be read (${errorName(error)})` }] };
  }
}

/**
 * Parses the arguments of a `show_task_surface` call, `{ model }`. Issue paths start at the
 * arguments (`['model', 'title']`); render them with `formatModelIssues(issues, '')`.
 */
export function parseShowTaskSurfaceArgs(args: unknown, limits?: Partial<TaskSurfaceLimits>): ParseModelResult {
  try {
    if (!isRecord(args)) {
      return {
        ok: false,
        issues: [{ path: [], code: 'invalid-type', message: `the arguments must be an object { model }, not ${describeType(args)}` }],
      };
    }
    const extra = Object.keys(args).filter((key) => key !== 'model');
    if (extra.length > 0) {
      return {
        ok: false,
        issues: extra
          .slice(0, 8)
          .map((key) => ({ path: [key], code: 'unknown-key', message: `the arguments have no key ${show(key)}; pass only { model }` })),
      };
    }
    const model = own(args, 'model');
    if (model === undefined) {
      return { ok: false, issues: [{ path: ['model'], code: 'missing-key', message: 'the arguments need "model": the panel to show' }] };
    }
    return parseModel(model, effectiveLimits(limits), at(null, 'model'));
  } catch (error) {
    return { ok: false, issues: [{ path: [], code: 'invalid-type', message: `the arguments could not be read (${errorName(error)})` }] };
  }
}

function parseModel(input: unknown, limits: TaskSurfaceLimits, base: At): ParseModelResult {
  const r = new Reader(limits);
  const model = readModel(r, input, base);
  if (model === undefined || r.failed) {
    // A safety net: every rejection should already name its cause.
    if (r.issues.length === 0) r.add(base, 'invalid-value', 'the model is not valid');
    return { ok: false, issues: r.issues };
  }
  const bytes = normalizedModelBytes(model, r.cellBytes);
  if (bytes > limits.modelBytes) {
    r.add(base, 'model-too-large', `the normalised model is ${bytes} bytes of JSON; the limit is ${limits.modelBytes}`);
    return { ok: false, issues: r.issues };
  }
  return { ok: true, model };
}

function readModel(r: Reader, input: unknown, base: At): NormalizedTaskSurfaceModel | undefined {
  if (!isRecord(input)) return r.add(base, 'invalid-type', `the model must be an object, not ${describeType(input)}`);
  const version = own(input, 'version');
  if (version !== 1) {
    // Another version is not partially interpreted: the client falls back to the plain result.
    const got = version === undefined ? 'it is missing' : `got ${show(version)}`;
    return r.add(at(base, 'version'), 'unsupported-version', `version must be 1; ${got}`);
  }
  r.object(input, base, 'the model', MODEL_KEYS);
  const title = r.label(input, 'title', base, 'the model', 'the title');
  const description = r.optionalLabel(input, 'description', base, 'the description');
  const ids = new IdScope(r, 'id');
  const sections = readSections(r, r.required(input, 'sections', base, 'the model'), at(base, 'sections'), ids);
  const fields = readFields(r, own(input, 'fields'), at(base, 'fields'), ids);
  const submitPath = at(base, 'submit');
  const submitValue = r.required(input, 'submit', base, 'the model');
  const submit = submitValue === undefined ? undefined : r.object(submitValue, submitPath, 'submit', SUBMIT_KEYS);
  const label = submit && r.label(submit, 'label', submitPath, 'submit', 'the submit label');
  // Checked only on an otherwise valid model, where nothing was left out of the lists.
  if (!r.failed && sections !== undefined && fields !== undefined && sections.length === 0 && fields.length === 0) {
    r.add(at(base, 'sections'), 'invalid-value', 'a task surface needs at least one block or field');
  }
  if (title === undefined || sections === undefined || fields === undefined || label === undefined) return undefined;
  return description === undefined
    ? { version: 1, title, sections, fields, submit: { label } }
    : { version: 1, title, description, sections, fields, submit: { label } };
}

function readSections(r: Reader, value: unknown, path: At, ids: IdScope): NormalizedSection[] | undefined {
  const list = r.array(value, path, 'sections', false);
  if (list === undefined) return undefined;
  const sections: NormalizedSection[] = [];
  // Past the block limit no later section can be valid: it is not read.
  for (let i = 0; i < list.length && !r.full && r.blocks <= r.limits.blocks; i++) {
    const sectionPath = at(path, i);
    const section = r.object(list[i], sectionPath, 'a section', SECTION_KEYS);
    if (section === undefined) {
      r.skip();
      continue;
    }
    const id = r.id(section, 'id', sectionPath, 'a section', 'a section id');
    ids.claim(id, sectionPath);
    const title = r.optionalLabel(section, 'title', sectionPath, 'a section title');
    const layout = readLayout(r, own(section, 'layout'), at(sectionPath, 'layout'));
    const blocks = readBlocks(r, r.required(section, 'blocks', sectionPath, 'a section'), at(sectionPath, 'blocks'));
    if (id === undefined || layout === undefined || blocks === undefined) {
      r.skip();
      continue;
    }
    sections.push(title === undefined ? { id, layout, blocks } : { id, title, layout, blocks });
  }
  return sections;
}

function readLayout(r: Reader, value: unknown, path: At): TaskSurfaceLayout | undefined {
  if (value === undefined) return { kind: 'stack' };
  const kind = r.kindOf(value, path, 'a layout', LAYOUT_KINDS);
  if (kind === undefined) return undefined;
  const layout = value as Input;
  if (kind === 'stack') {
    r.object(layout, path, 'a stack layout', STACK_KEYS);
    return { kind };
  }
  r.object(layout, path, 'a grid layout', GRID_KEYS);
  const columns = r.required(layout, 'columns', path, 'a grid layout');
  if (columns !== 2 && columns !== 3) {
    if (columns !== undefined) r.add(at(path, 'columns'), 'invalid-value', `grid columns must be 2 or 3, not ${show(columns)}`);
    return undefined;
  }
  return { kind, columns };
}

function readBlocks(r: Reader, value: unknown, path: At): NormalizedBlock[] | undefined {
  const list = r.array(value, path, 'blocks', true, true);
  if (list === undefined) return undefined;
  const blocks: NormalizedBlock[] = [];
  for (let i = 0; i < list.length && !r.full; i++) {
    if (r.blocks === r.limits.blocks) {
      // Reported once, at the first block over the limit; later blocks are not read.
      r.blocks++;
      r.add(at(path, i), 'too-many-blocks', `a task surface may have at most ${r.limits.blocks} blocks in all sections together`);
    }
    if (r.blocks > r.limits.blocks) return undefined;
    r.blocks++;
    const block = readBlock(r, list[i], at(path, i));
    if (block !== undefined) blocks.push(block);
    else r.skip();
  }
  return blocks;
}

function readFields(r: Reader, value: unknown, path: At, ids: IdScope): NormalizedField[] | undefined {
  if (value === undefined) return [];
  const list = r.array(value, path, 'fields', false, true);
  if (list === undefined) return undefined;
  const limit = r.limits.fields;
  if (list.length > limit)
    r.add(at(path, limit), 'too-many-fields', `a task surface may have at most ${limit} fields; this one has ${list.length}`);
  const fields: NormalizedField[] = [];
  for (let i = 0; i < Math.min(list.length, limit) && !r.full; i++) {
    const field = readField(r, list[i], at(path, i), ids);
    if (field !== undefined) fields.push(field);
    else r.skip();
  }
  return fields;
}

function errorName(error: unknown): string {
  try {
    return error instanceof Error ? error.name : typeof error;
  } catch {
    return 'unreadable error';
  }
}
