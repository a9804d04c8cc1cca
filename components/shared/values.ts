import type { TaskSurfaceField, TaskSurfaceFieldValue, TaskSurfaceModelV1, TaskSurfaceValues } from '../../protocol/index.js';

/** The value a field starts with: its `initial`, or the kind's empty value (order: the options' order). */
export function initialValueOf(field: TaskSurfaceField): TaskSurfaceFieldValue | undefined {
  switch (field.kind) {
    case 'text':
      return field.initial ?? '';
    case 'choice':
      return field.initial;
    case 'multi-choice':
      return field.initial ?? [];
    case 'toggle':
      return field.initial ?? false;
    case 'order':
      return field.initial ?? field.options.map((o) => o.id);
  }
}

/** Every field's starting value; a choice without `initial` has none. */
export function initialValuesOf(model: TaskSurfaceModelV1): TaskSurfaceValues {
  const values: TaskSurfaceValues = {};
  for (const field of model.fields ?? []) {
    const value = initialValueOf(field);
    if (value !== undefined) values[field.id] = value;
  }
  return values;
}

/**
 * A draft merged over the model's initial values, keeping only values whose shape still fits the
 * field, so a stale or tampered draft never reaches a control or a submission.
 */
export function mergeDraft(model: TaskSurfaceModelV1, draft: TaskSurfaceValues | undefined): TaskSurfaceValues {
  const values = initialValuesOf(model);
  if (!draft) return values;
  for (const field of model.fields ?? []) {
    const value = draft[field.id];
    if (value === undefined) continue;
    const ids = 'options' in field ? new Set(field.options.map((o) => o.id)) : undefined;
    switch (field.kind) {
      case 'text':
        if (typeof value === 'string') values[field.id] = value;
        break;
      case 'toggle':
        if (typeof value === 'boolean') values[field.id] = value;
        break;
      case 'choice':
        if (typeof value === 'string' && ids!.has(value)) values[field.id] = value;
        break;
      case 'multi-choice':
        if (Array.isArray(value) && value.every((v) => ids!.has(v))) values[field.id] = [...new Set(value)];
        break;
      case 'order':
        if (Array.isArray(value) && value.length === ids!.size && new Set(value).size === ids!.size && value.every((v) => ids!.has(v))) {
          values[field.id] = value;
        }
        break;
    }
  }
  return values;
}

/** Ids of required text fields that are blank. */
export function missingRequired(model: TaskSurfaceModelV1, values: TaskSurfaceValues): string[] {
  return (model.fields ?? [])
    .filter((f) => f.kind === 'text' && f.required === true && String(values[f.id] ?? '').trim() === '')
    .map((f) => f.id);
}
