import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { isCalendarDate, isWireInstant } from '../../internal/shared/calendar-date';
import { type ErrorDetail, InvalidRequestError } from '../../internal/shared/errors';

export type JsonSchema = Record<string, unknown>;

/**
 * The one place schemas are compiled. Bodies are checked strictly (no coercion: `"true"` is not
 * a boolean); query strings arrive as text, so their validator coerces numbers and booleans and
 * fills defaults.
 */
const bodyAjv = withKeywords(addFormats(new Ajv({ allErrors: true, strict: true, allowUnionTypes: true, coerceTypes: false })));
const queryAjv = withKeywords(addFormats(new Ajv({ allErrors: true, strict: true, allowUnionTypes: true, coerceTypes: true, useDefaults: true })));

/** `x-decimals: n`: a number with at most n decimals (0.29 passes, 1.005 does not), exactly. */
function withKeywords(ajv: Ajv): Ajv {
  const decimals = (max: number, data: number): boolean => {
    const validate = decimals as unknown as { errors: Partial<ErrorObject>[] | null };
    const ok = Number.isFinite(data) && hasAtMostDecimals(data, max);
    validate.errors = ok ? null : [{ keyword: 'x-decimals', message: `must have at most ${max} decimals`, params: {} }];
    return ok;
  };
  ajv.addKeyword({ keyword: 'x-decimals', type: 'number', schemaType: 'number', validate: decimals, errors: true });
  // RFC 3339 with `T`, seconds and a zone (Z or an offset), naming a real instant the wire
  // format can carry (its UTC year 0000 to 9999).
  ajv.addFormat('zoned-date-time', {
    type: 'string',
    validate: (text: string) => ZONED_DATE_TIME.test(text) && isCalendarDate(text.slice(0, 10)) && isWireInstant(Date.parse(text)),
  });
  return ajv;
}

const ZONED_DATE_TIME = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,9})?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/i;

function hasAtMostDecimals(n: number, max: number): boolean {
  const text = n.toString();
  if (/e/i.test(text)) return Number.isInteger(n);
  const dot = text.indexOf('.');
  return dot === -1 || text.length - dot - 1 <= max;
}

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
  rejectNonFinite(query);
  return query as T;
}

/**
 * Ajv refuses Infinity in bodies (strictNumbers), but its query coercion turns `Infinity` or
 * `1e400` into Infinity after the type check, and `minimum`/`maximum` skip it: a list answered
 * `page: null`. No parameter of this API takes a number that is not finite: a 400 naming it.
 */
function rejectNonFinite(query: Record<string, unknown>): void {
  const problems: ErrorDetail[] = Object.entries(query)
    .filter(([, value]) => typeof value === 'number' && !Number.isFinite(value))
    .map(([field]) => ({ field, issue: 'must be a finite number' }));
  if (problems.length > 0) throw invalidRequest(problems);
}

function invalid(errors: ErrorObject[], root: string): InvalidRequestError {
  return invalidRequest(uniqueDetails(errors.map((e) => toDetail(e, root))));
}

export function invalidRequest(details: ErrorDetail[]): InvalidRequestError {
  return new InvalidRequestError(details.map((d) => `${d.field} ${d.issue}`).join('; ') || 'Invalid request', details);
}

export interface ItemDetail extends ErrorDetail {
  index: number;
  externalRequestId: string | null;
}

/** A `{ <key>: [...] }` batch body the schema let through, or the items it refused. */
export interface CheckedBatch<T> {
  body: T;
  /** What the schema said about items (each naming its index and externalRequestId). */
  details: ItemDetail[];
  /** Indexes of the items the schema refused: rules between fields must not trust their shape. */
  refused: Set<number>;
}

/**
 * Validates a `{ <key>: [...] }` batch body. A problem of the envelope (root fields, the array,
 * its size) is a 400 at once; problems inside items come back, each with its item's `index` and
 * `externalRequestId` beside the field within the item, for the caller to add what its rules
 * between fields find and answer one 400 naming every invalid item (see `itemsProblem`).
 */
export function checkBatch<T>(schema: JsonSchema, value: unknown, key: string): CheckedBatch<T> {
  const validate = compiled(bodyAjv, schema);
  if (validate(value)) return { body: value as T, details: [], refused: new Set() };
  const items = (value as Record<string, unknown>)[key] as unknown[];
  const itemPath = new RegExp(`^/${key}/(\\d+)(/.*)?$`);
  const envelope: ErrorDetail[] = [];
  const details: ItemDetail[] = [];
  for (const error of validate.errors ?? []) {
    const match = itemPath.exec(error.instancePath);
    if (!match) {
      envelope.push(toDetail(error, 'body'));
      continue;
    }
    const index = Number(match[1]);
    details.push({ index, externalRequestId: externalRequestIdOf(items[index]), ...toDetail({ ...error, instancePath: match[2] ?? '' }, 'item') });
  }
  if (envelope.length > 0) throw invalidRequest(uniqueDetails([...envelope, ...details]));
  return { body: value as T, details, refused: new Set(details.map((d) => d.index)) };
}

/** The 400 naming every item detail, in item order (null when there are none). */
export function itemsProblem(details: ItemDetail[]): InvalidRequestError | null {
  if (details.length === 0) return null;
  return invalidRequest(uniqueDetails([...details].sort((a, b) => a.index - b.index)));
}

export function externalRequestIdOf(item: unknown): string | null {
  const id = item !== null && typeof item === 'object' ? (item as Record<string, unknown>).externalRequestId : undefined;
  return typeof id === 'string' ? id : null;
}

function toDetail(error: ErrorObject, root: string): ErrorDetail {
  const raw = fieldPath(error.instancePath);
  const path = collapse(raw);
  // Inside a flat map, or about its keys: one issue for the whole field. (`"x"` instead of an
  // object stays a plain type error.)
  if (path !== raw || (OPAQUE_FIELDS.includes(path) && error.keyword !== 'type')) return { field: path, issue: OPAQUE_ISSUE };
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

/** Fields whose inner problems are reported on the field itself (a flat map has no sub-fields). */
const OPAQUE_FIELDS = ['additionalData', 'metadata'];

function collapse(path: string): string {
  for (const field of OPAQUE_FIELDS) {
    if (path.startsWith(field + '.') || path.startsWith(field + '[')) return field;
  }
  return path;
}

const OPAQUE_ISSUE = 'must be a flat object of string, number, boolean or null values, without reserved keys';

/** `/phones/0/type` → `phones[0].type`. */
function fieldPath(instancePath: string): string {
  return instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part), '');
}

function uniqueDetails<D extends ErrorDetail>(details: D[]): D[] {
  const seen = new Set<string>();
  return details.filter((d) => {
    const key = `${(d as Partial<ItemDetail>).index ?? ''}\u0000${d.field}\u0000${d.issue}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
