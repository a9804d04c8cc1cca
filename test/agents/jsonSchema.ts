// A small JSON Schema checker for the keywords the advertised declarations use (type, properties,
// required, additionalProperties, items, minItems, const, enum, pattern, oneOf, anyOf, $ref to
// $defs): enough to ask whether a model's arguments satisfy what the model was shown.
type Schema = Record<string, any>;

export function schemaErrors(schema: Schema, value: unknown, root: Schema = schema, path = '$'): string[] {
  if (schema.$ref) {
    const name = String(schema.$ref).replace('#/$defs/', '');
    const { $ref: _, ...rest } = schema;
    return [...schemaErrors(root.$defs[name], value, root, path), ...schemaErrors(rest, value, root, path)];
  }
  const errors: string[] = [];
  const typeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v);
  if (schema.type !== undefined) {
    const types: string[] = Array.isArray(schema.type) ? schema.type : [schema.type];
    const t = typeOf(value);
    if (!types.some((x) => x === t || (x === 'number' && t === 'integer'))) return [`${path}: expected ${types.join('|')}, got ${t}`];
  }
  if ('const' in schema && value !== schema.const) errors.push(`${path}: expected ${JSON.stringify(schema.const)}`);
  if (schema.enum && !schema.enum.includes(value)) errors.push(`${path}: not one of ${JSON.stringify(schema.enum)}`);
  if (schema.pattern && typeof value === 'string' && !new RegExp(schema.pattern).test(value))
    errors.push(`${path}: does not match ${schema.pattern}`);
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) errors.push(`${path}: fewer than ${schema.minItems} items`);
    if (schema.items) value.forEach((v, i) => errors.push(...schemaErrors(schema.items, v, root, `${path}[${i}]`)));
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const object = value as Record<string, unknown>;
    for (const key of schema.required ?? []) if (!(key in object)) errors.push(`${path}: missing ${key}`);
    for (const [key, v] of Object.entries(object)) {
      if (schema.properties?.[key]) errors.push(...schemaErrors(schema.properties[key], v, root, `${path}.${key}`));
      else if (schema.additionalProperties === false) errors.push(`${path}: unknown key ${key}`);
      else if (typeof schema.additionalProperties === 'object')
        errors.push(...schemaErrors(schema.additionalProperties, v, root, `${path}.${key}`));
    }
  }
  if (schema.oneOf) {
    const matching = schema.oneOf.filter((s: Schema) => schemaErrors(s, value, root, path).length === 0).length;
    if (matching !== 1) errors.push(`${path}: matches ${matching} of oneOf`);
  }
  if (schema.anyOf && !schema.anyOf.some((s: Schema) => schemaErrors(s, value, root, path).length === 0))
    errors.push(`${path}: matches none of anyOf`);
  return errors;
}
