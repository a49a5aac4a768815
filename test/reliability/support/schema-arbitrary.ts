/**
 * fast-check arbitraries from the routes' ajv schemas: values the schema accepts (mostly: the
 * point is to get past validation into the use cases), biased to the edges (lengths at their
 * maximum in 4-byte characters, numbers at their bounds, dates from year 1 to 9999), with
 * values the caller knows to exist (an existing externalClientId, productId) mixed in by name.
 */
import fc from 'fast-check';
import type { JsonSchema } from '../../../adapters/http/validation';

/** Values that name existing things, by property name (externalClientId → the seeded contact). */
export type Known = Record<string, unknown[]>;

/** An object whose members are constants or arbitraries, as one arbitrary (examples with fresh keys). */
export function shaped(...objects: Record<string, unknown>[]): fc.Arbitrary<Record<string, unknown>> {
  const one = (object: Record<string, unknown>) =>
    fc.record(Object.fromEntries(Object.entries(object).map(([k, v]) => [k, v instanceof fc.Arbitrary ? v : fc.constant(v)])));
  return fc.oneof(...objects.map(one));
}

const INT32 = 2 ** 31 - 1;

export function valueOf(schema: JsonSchema, known: Known = {}): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.oneOf)) return fc.oneof(...(schema.oneOf as JsonSchema[]).map((s) => valueOf(s, known)));
  if (Array.isArray(schema.anyOf)) return fc.oneof(...(schema.anyOf as JsonSchema[]).map((s) => valueOf(s, known)));
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if ('const' in schema) return fc.constant(schema.const);
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [String(schema.type ?? 'any')];
  return fc.oneof(...types.map((type) => ofType(type, schema, known)));
}

function ofType(type: string, schema: JsonSchema, known: Known): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string':
      return stringOf(schema);
    case 'number':
      return numberOf(schema);
    case 'integer':
      return integerOf(schema);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return arrayOf(schema, known);
    case 'object':
      return objectOf(schema, known);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function stringOf(schema: JsonSchema): fc.Arbitrary<string> {
  const min = Number(schema.minLength ?? 0);
  const max = Number(schema.maxLength ?? 300);
  const fits = (s: string) => [...s].length >= min && [...s].length <= max;
  switch (schema.format) {
    case 'date':
      return dateText;
    case 'date-time':
    case 'zoned-date-time':
      return dateTimeText;
    case 'email':
      return fc.oneof(fc.emailAddress(), fc.constantFrom('a@b.co', 'josé@exämple.com', `${'a'.repeat(64)}@example.com`)).filter(fits);
    case 'uri':
      return fc.oneof(fc.webUrl(), fc.constantFrom('https://example.com/ok', `https://example.com/${'p'.repeat(1900)}`)).filter(fits);
  }
  const pattern = typeof schema.pattern === 'string' ? new RegExp(schema.pattern, 'u') : null;
  if (pattern && schema.pattern!.toString().startsWith('^')) {
    return fc.oneof({ weight: 5, arbitrary: fc.stringMatching(pattern) }, { weight: 1, arbitrary: longestMatching(pattern, max) }).filter(fits);
  }
  // Unanchored patterns here ask for one non-blank character or one digit: a leading "1" gives both.
  const repair = (s: string) => (pattern && !pattern.test(s) ? ('1' + [...s].slice(1).join('')).slice(0, Math.max(max, 1)) : s);
  return fc
    .oneof(
      { weight: 4, arbitrary: fc.string({ minLength: min, maxLength: Math.min(max, 40), unit: 'grapheme-ascii' }) },
      { weight: 2, arbitrary: fc.string({ minLength: min, maxLength: Math.min(max, 40), unit: 'grapheme' }) },
      { weight: 1, arbitrary: fc.string({ minLength: min, maxLength: Math.min(max, 20), unit: 'binary' }) },
      // At the limit, in characters MySQL stores in 4 bytes.
      { weight: 1, arbitrary: fc.constantFrom('🦄'.repeat(max), 'é'.repeat(max), 'a'.repeat(max)) },
    )
    .map(repair)
    .filter((s) => fits(s) && (!pattern || pattern.test(s)));
}

/** The longest string an anchored pattern takes: its first class repeated (falls back to samples). */
function longestMatching(pattern: RegExp, max: number): fc.Arbitrary<string> {
  for (const candidate of ['a'.repeat(max), '1'.repeat(max), 'A'.repeat(max), 'a1'.repeat(max).slice(0, max)]) {
    if (pattern.test(candidate)) return fc.constant(candidate);
  }
  return fc.stringMatching(pattern);
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** Calendar dates from 0001 to 9999, clustered at the edges, around today and at month ends. */
const dateText: fc.Arbitrary<string> = fc.oneof(
  fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  fc.integer({ min: -400, max: 4000 }).map((days) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)),
  fc.constantFrom('0000-01-01', '0000-02-29', '0001-01-01', '0050-12-31', '1970-01-01', '2000-02-29', '2031-01-31', '2031-02-28', '2032-02-29', '9999-12-31', '9999-12-01'),
  fc.tuple(fc.integer({ min: 1, max: 9999 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 28, max: 31 })).map(([y, m, d]) => `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`),
);

/** RFC 3339 instants: Z or an offset, with or without fractions, from 0001 to 9999. */
const dateTimeText: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }).map((d) => d.toISOString()) },
  { weight: 2, arbitrary: fc.integer({ min: -10_000, max: 10_000_000 }).map((minutes) => new Date(Date.now() + minutes * 60_000).toISOString()) },
  // At the edges of what the wire format carries, with offsets that cross them.
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('9999-12-31T23:59:59', '9999-12-31T00:00:00', '0000-01-01T00:00:00', '0001-01-01T00:00:00', '2031-06-30T23:59:60', '2031-01-01T00:00:00.1'), fc.constantFrom('Z', '-23:59', '+23:59', '-00:01', '+05:30', '.999999999Z')).map(([t, z]) => t + z) },
);

function numberOf(schema: JsonSchema): fc.Arbitrary<number> {
  const min = Number(schema.minimum ?? -1e12);
  const max = Number(schema.maximum ?? 1e12);
  if (schema['x-decimals'] === 2) {
    const cents = fc.integer({ min: Math.max(Math.ceil(min * 100), -INT32), max: Math.min(Math.floor(max * 100), INT32) }).map((c) => c / 100);
    return fc.oneof({ weight: 4, arbitrary: cents }, { weight: 1, arbitrary: fc.constantFrom(min, max, 0.01, 0.29, 1.1, 100.57) });
  }
  return fc.oneof(fc.double({ min, max, noNaN: true }), fc.constantFrom(min, max));
}

function integerOf(schema: JsonSchema): fc.Arbitrary<number> {
  const min = Math.max(Number(schema.minimum ?? -INT32), -INT32);
  const max = Math.min(Number(schema.maximum ?? INT32), INT32);
  const small = fc.integer({ min: Math.max(min, -5), max: Math.min(max, 600) });
  const edges = fc.constantFrom(...[min, max, schema.minimum === undefined ? -(2 ** 53) : min, schema.maximum === undefined ? 2 ** 53 - 1 : max, 0, 1, 520, 521].filter((n) => n >= min || schema.minimum === undefined).filter((n) => n <= max || schema.maximum === undefined));
  return fc.oneof({ weight: 4, arbitrary: small.filter((n) => n >= min && n <= max) }, { weight: 1, arbitrary: fc.integer({ min, max }) }, { weight: 2, arbitrary: edges });
}

function arrayOf(schema: JsonSchema, known: Known): fc.Arbitrary<unknown[]> {
  const item = valueOf((schema.items as JsonSchema) ?? {}, known);
  const minLength = Number(schema.minItems ?? 0);
  const maxLength = Math.max(minLength, Math.min(Number(schema.maxItems ?? 5), 50));
  const small = Math.max(minLength, Math.min(maxLength, 3));
  if (schema.uniqueItems) return fc.uniqueArray(item, { minLength, maxLength: small, selector: (v) => JSON.stringify(v) });
  return fc.oneof({ weight: 5, arbitrary: fc.array(item, { minLength, maxLength: small }) }, { weight: 1, arbitrary: fc.array(item, { minLength: maxLength, maxLength }) });
}

function objectOf(schema: JsonSchema, known: Known): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema.properties as Record<string, JsonSchema> | undefined) ?? {};
  const required = (schema.required as string[] | undefined) ?? [];
  const minProperties = Number(schema.minProperties ?? 0);
  const extra = schema.additionalProperties;
  if (Object.keys(properties).length === 0 && extra && typeof extra === 'object') {
    // A flat map (metadata, additionalData): keys under propertyNames, values under the schema.
    const names = (schema.propertyNames as JsonSchema | undefined) ?? {};
    const forbidden = ((names.not as JsonSchema | undefined)?.enum as string[] | undefined) ?? [];
    const key = fc.string({ minLength: 1, maxLength: Math.min(Number(names.maxLength ?? 40), 40) }).filter((k) => !forbidden.includes(k) && k !== '__proto__');
    return fc.dictionary(key, valueOf(extra as JsonSchema, known), { maxKeys: Math.min(Number(schema.maxProperties ?? 5), 5) });
  }
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of Object.entries(properties)) {
    const fromSchema = valueOf(property, known);
    model[name] = known[name]?.length ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...known[name]!) }, { weight: 1, arbitrary: fromSchema }) : fromSchema;
  }
  // Few optional fields at a time: many are exclusive (productId or externalProductId), so a body
  // with all of them rarely gets past validation.
  const optional = Object.keys(model).filter((name) => !required.includes(name));
  const chosen = fc.oneof(
    { weight: 2, arbitrary: fc.constant([] as string[]) },
    { weight: 4, arbitrary: fc.subarray(optional, { maxLength: Math.min(2, optional.length) }) },
    { weight: 1, arbitrary: fc.subarray(optional) },
  );
  return chosen
    .chain((names) => fc.record(Object.fromEntries([...required, ...names].filter((n) => model[n]).map((n) => [n, model[n]!]))))
    .filter((o) => Object.keys(o).length >= minProperties);
}
