import type { ElicitRequestFormParams } from '@modelcontextprotocol/server';
import type { JsonValue, NormalizedTaskSurfaceModel } from '../protocol/index.js';
import { contextText } from './textForm.js';

/*
 * A panel as an MCP form elicitation (`elicitation/create`, mode `form`): the spec allows a flat
 * object of strings, numbers, booleans and (multi-select) enums, so choice, multi-choice, toggle and
 * text fields map, and every block becomes the request's message text. An order field has no flat
 * form: a panel with one is not elicited (the caller falls back to the text form).
 */

/** The `elicitation/create` params for `model`, or null when a field cannot be asked that way. */
export function elicitationOf(model: NormalizedTaskSurfaceModel): ElicitRequestFormParams | null {
  const properties: ElicitRequestFormParams['requestedSchema']['properties'] = {};
  const required: string[] = [];
  for (const field of model.fields) {
    const title = field.label;
    switch (field.kind) {
      case 'text':
        properties[field.id] = { type: 'string', title, ...(field.initial ? { default: field.initial } : {}) };
        if (field.required) required.push(field.id);
        break;
      case 'toggle':
        properties[field.id] = { type: 'boolean', title, default: field.initial };
        break;
      case 'choice':
        properties[field.id] = {
          type: 'string',
          title,
          oneOf: field.options.map((o) => ({ const: o.id, title: o.label })),
          ...(field.initial !== undefined ? { default: field.initial } : {}),
        };
        break;
      case 'multi-choice':
        properties[field.id] = {
          type: 'array',
          title,
          items: { anyOf: field.options.map((o) => ({ const: o.id, title: o.label })) },
          default: field.initial,
        };
        break;
      case 'order':
        return null;
    }
  }
  const message = `${contextText(model)}\n\n(${model.submit.label})`;
  return { mode: 'form', message, requestedSchema: { type: 'object', properties, required } };
}

/**
 * The values of an accepted elicitation as the panel's values: a field the client left out takes
 * its initial value (a choice nothing, a text empty). `validateSubmission` checks the result.
 */
export function valuesOfElicitation(
  model: NormalizedTaskSurfaceModel,
  content: Record<string, unknown> | undefined,
): Record<string, JsonValue> {
  const values: Record<string, JsonValue> = {};
  for (const field of model.fields) {
    const given = content !== undefined && Object.prototype.hasOwnProperty.call(content, field.id) ? content[field.id] : undefined;
    values[field.id] = (given ?? field.initial ?? null) as JsonValue;
  }
  return values;
}
