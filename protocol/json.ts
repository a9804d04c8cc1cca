import * as z from 'zod/mini';

export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** Any JSON value (finite numbers only). Recursion is bounded by the caller's byte limits. */
export const JsonValueSchema: z.ZodMiniType<JsonValue> = z.lazy(() =>
  z.union([
    z.string(),
    z.number().check(z.refine(Number.isFinite, 'must be a finite number')),
    z.boolean(),
    z.null(),
    z.array(JsonValueSchema),
    z.record(z.string(), JsonValueSchema),
  ]),
);

export const JsonObjectSchema = z.record(z.string(), JsonValueSchema) as z.ZodMiniType<JsonObject>;
