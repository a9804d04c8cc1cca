import type { ElicitRequestFormParams } from '@modelcontextprotocol/server';
import type { JsonValue, NormalizedTaskSurfaceModel } from '../protocol/index.js';
import { contextText } from './textForm.js';

/*
 * A panel as an MCP form elicitation (`elicitation/create`, mode `form`): the spec allows a flat
 * object of strings, numbers, booleans and (multi-select) enums, but clients do not render them all:
 * Codex renders no number, integer or multi-select enum field, so a form that uses one cannot be
 * answered there. So only the shapes every client renders are used: a string (a text field), a
 * boolean (a toggle) and a single-select string enum with titles (a choice); a multi-choice field
 * becomes one boolean per option ("Label: option"), gathered back into the field's list. Every block
 * becomes the request's message text. An order field has no flat form: a panel with one is not
 * elicited (the caller falls back to the text form).
 */

/** The property of one option of a multi-choice field (ids cannot hold `/`, so it never collides with a field id). */
export const optionKey = (fieldId: string, optionId: string): string => `${fieldId}/${optionId}`;

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
        for (const option of field.options)
          properties[optionKey(field.id, option.id)] = {
            type: 'boolean',
            title: `${title}: ${option.label}`,
            default: field.initial.includes(option.id),
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
  const given = (key: string) => (content !== undefined && Object.prototype.hasOwnProperty.call(content, key) ? content[key] : undefined);
  for (const field of model.fields) {
    if (field.kind === 'multi-choice') {
      const chosen = (id: string) => {
        const answer = given(optionKey(field.id, id));
        return answer === undefined ? field.initial.includes(id) : answer === true;
      };
      values[field.id] = field.options.filter((o) => chosen(o.id)).map((o) => o.id);
    } else values[field.id] = (given(field.id) ?? field.initial ?? null) as JsonValue;
  }
  return values;
}
