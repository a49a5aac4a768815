import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { type ErrorDetail, InvalidRequestError } from '../../internal/shared/errors';

export type JsonSchema = Record<string, unknown>;

/**
 * The one place schemas are compiled. Bodies are checked strictly (no coercion: `"true"` is not
 * a boolean); query strings arrive as text, so their validator coerces numbers and booleans and
 * fills defaults.
 */
const bodyAjv = addFormats(new Ajv({ allErrors: true, strict: true, coerceTypes: false }));
const queryAjv = addFormats(new Ajv({ allErrors: true, strict: true, coerceTypes: true, useDefaults: true }));

const cache = new WeakMap<JsonSchema, ValidateFunction>();

function compiled(ajv: Ajv, schema: JsonSchema): ValidateFunction {
  let validate = cache.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    cache.set(schema, validate);
  }
  return validate;
}

/** Validates `value` against `schema`, throwing a 400 whose details name every bad field. */
export function validateBody<T>(schema: JsonSchema, value: unknown): T {
  const validate = compiled(bodyAjv, schema);
  if (!validate(value)) throw invalid(validate.errors ?? [], 'body');
  return value as T;
}

export function validateQuery<T>(schema: JsonSchema, query: Record<string, unknown>): T {
  const validate = compiled(queryAjv, schema);
  if (!validate(query)) throw invalid(validate.errors ?? [], 'query');
  return query as T;
}

function invalid(errors: ErrorObject[], root: string): InvalidRequestError {
  const details = uniqueDetails(errors.map((e) => toDetail(e, root)));
  return new InvalidRequestError(details.map((d) => `${d.field} ${d.issue}`).join('; ') || 'Invalid request', details);
}

function toDetail(error: ErrorObject, root: string): ErrorDetail {
  const path = fieldPath(error.instancePath);
  const child = (name: string) => (path ? `${path}.${name}` : name);
  switch (error.keyword) {
    case 'required':
      return { field: child(String(error.params.missingProperty)), issue: 'is required' };
    case 'additionalProperties':
      return { field: child(String(error.params.additionalProperty)), issue: 'is not allowed' };
    case 'enum':
      return { field: path || root, issue: `must be one of ${(error.params.allowedValues as unknown[]).join(', ')}` };
    default:
      return { field: path || root, issue: error.message ?? 'is invalid' };
  }
}

/** `/phones/0/type` → `phones[0].type`. */
function fieldPath(instancePath: string): string {
  return instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part), '');
}

function uniqueDetails(details: ErrorDetail[]): ErrorDetail[] {
  const seen = new Set<string>();
  return details.filter((d) => {
    const key = `${d.field}\u0000${d.issue}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
