import type { JsonSchema } from '../validation';

const names = new WeakMap<object, string>();

/**
 * Names a schema: /openapi.json publishes it once under `components.schemas.<name>` and refers
 * to it wherever it is used. The object itself is unchanged, so the very schema that validates
 * a request (or documents an answer) is the published one.
 */
export function named<S extends JsonSchema>(name: string, schema: S): S {
  names.set(schema, name);
  return schema;
}

export function nameOf(schema: object): string | undefined {
  return names.get(schema);
}

/** `schema` or null (a named schema stays a reference). */
export function nullable(schema: JsonSchema): JsonSchema {
  if (nameOf(schema) !== undefined) return { oneOf: [schema, { type: 'null' }] };
  const type = schema.type;
  if (typeof type !== 'string') throw new Error('nullable() takes a named schema or one with a single type');
  return { ...schema, type: [type, 'null'] };
}

/**
 * A use of a named schema with a description of its own: the field's meaning beside the shape's
 * (published as `{ $ref, description }`; `allOf` of one keeps it a valid schema for ajv).
 */
export function described(schema: JsonSchema, description: string): JsonSchema {
  if (nameOf(schema) === undefined) return { ...schema, description };
  return { allOf: [schema], description };
}
