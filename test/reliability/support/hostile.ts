/**
 * Hostile values for the fuzzer: wrong types, huge and tiny numbers, deep nesting, unicode edge
 * cases, SQL and template fragments, prototype-pollution keys. Bodies can also be raw text, for
 * what JSON.stringify cannot produce (1e400, duplicate or `__proto__` keys, broken JSON, bad UTF-8).
 */
import fc from 'fast-check';

/** The key the prototype-pollution payloads try to plant on Object.prototype. */
export const POLLUTION_KEY = 'reliabilityPolluted';

const SQL = [
  "' OR '1'='1", "' OR 1=1 -- ", '"; DROP TABLE debts; --', "1; DELETE FROM contacts WHERE '1'='1", "%' UNION SELECT * FROM api_keys --",
  "\\'; SELECT SLEEP(5); --", '0x27', "admin'--", "' AND extractvalue(1,concat(0x7e,version()))--", '%', '_', '%_%',
];
const TEMPLATES = ['${7*7}', '{{7*7}}', '<script>alert(1)</script>', '../../../../etc/passwd', '..\\..\\windows', '${jndi:ldap://x/a}', '%s%s%s%n', '\r\nSet-Cookie: a=b'];
const UNICODE = [
  '', ' ', '\t', '\u0000', 'a\u0000b', '\u200b', '\ufeff', '\u202eRTL', 'é', 'e\u0301', 'Ａ', 'ß', 'İ', '🦄', '👨‍👩‍👧‍👦', '🦄'.repeat(300), '\ud800', 'a\udfffb',
  'ｐｒｄ＿１', 'prd_١٢٣', '٣', '𝟙𝟚𝟛', 'null', 'undefined', 'true', 'false', 'NaN', 'Infinity', '-0', '0x10', '1e400', '1_000',
];
const KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__'];
const ID_LIKE = ['prd_0', 'prd_-1', 'prd_99999999999999999999', 'prd_1e3', 'prd_0x1', 'con_', 'sub_', 'plk_', 'debt_', 'debt_debt_', 'debt_plk_', '0', '-1', '1.5', '9007199254740993', '99999999999999999999999'];
const NUMBERS = [0, -0, -1, 1, 0.001, 0.005, 0.015, 1.005, 0.1 + 0.2, 2 ** 31, 2 ** 32, 2 ** 53, 2 ** 53 + 2, -(2 ** 53), 1e21, 1e300, Number.MAX_VALUE, Number.MIN_VALUE, -Number.MAX_VALUE, 9_999_999_999.99, 9_999_999_999.995, 10_000_000_000, 123456789012.34];

/** Nested arrays and objects, `depth` levels deep. */
export function nested(depth: number, kind: 'array' | 'object' | 'mixed' = 'mixed'): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = kind === 'array' || (kind === 'mixed' && i % 2 === 0) ? [value] : { a: value };
  return value;
}

/** An object that really owns a `__proto__` key (JSON.parse makes one; an object literal would set the prototype). */
export function pollutionObject(): Record<string, unknown> {
  return JSON.parse(`{"__proto__": {"${POLLUTION_KEY}": true}, "constructor": {"prototype": {"${POLLUTION_KEY}": true}}}`);
}

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...SQL, ...TEMPLATES, ...UNICODE, ...KEYS, ...ID_LIKE) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  // Past every maxLength; in a URL, also past Node's 16 KiB limit for the request line.
  { weight: 1, arbitrary: fc.integer({ min: 199, max: 20_000 }).map((n) => 'x'.repeat(n)) },
  { weight: 1, arbitrary: fc.integer({ min: 50, max: 3000 }).map((n) => '🦄'.repeat(n)) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...SQL), fc.string({ maxLength: 10 })).map(([a, b]) => b + a) },
);

export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(...NUMBERS),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

/** Any hostile JSON value (what JSON.stringify can carry). */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 3, arbitrary: hostileNumber },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}, [null], [[]], { '': '' }) },
  { weight: 1, arbitrary: fc.integer({ min: 2, max: 3000 }).chain((d) => fc.constantFrom('array' as const, 'object' as const, 'mixed' as const).map((k) => nested(d, k))) },
  { weight: 1, arbitrary: fc.constant(null).map(() => pollutionObject()) },
  { weight: 1, arbitrary: fc.array(hostileString, { maxLength: 5 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.oneof(hostileString, fc.constantFrom(...KEYS)), hostileString, { maxKeys: 4 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

/** Keys to add to an object: undeclared, prototype-polluting, blank, huge. */
export const hostileKey: fc.Arbitrary<string> = fc.oneof(fc.constantFrom(...KEYS, '', ' ', 'companyCode', 'a'.repeat(5000)), hostileString);

/** Body texts JSON.stringify cannot produce. */
export const rawBodies: fc.Arbitrary<string | Buffer> = fc.oneof(
  fc.constantFrom(
    '{', '[', '{"a":', '{"amount": 1e400, "dueDate": "2031-01-01"}', '{"amount": -1e400}', '{"amount": 1e-400}', 'NaN', '[1,]', "{'a': 1}",
    '{"amount": 10, "amount": "ten", "dueDate": "2031-01-01"}', '  ', '\ufeff{}', 'null', 'true', '0', '"text"', '[]', '{}',
    `{"__proto__": {"${POLLUTION_KEY}": true}}`, `{"constructor": {"prototype": {"${POLLUTION_KEY}": true}}}`,
    `{"debts": [{"__proto__": {"${POLLUTION_KEY}": true}}]}`, `{"contactData": {"__proto__": {"${POLLUTION_KEY}": true}}}`,
    `{"metadata": {"__proto__": {"${POLLUTION_KEY}": true}}, "additionalData": {"__proto__": {"${POLLUTION_KEY}": 1}}}`,
    `{"companyCode": {"__proto__": {"${POLLUTION_KEY}": true}}}`,
    '{"amount": 123456789012345678901234567890, "dueDate": "2031-01-01"}', '{"amount": 0.1e1, "dueDate": "2031-01-01"}',
  ),
  fc.integer({ min: 1000, max: 100_000 }).map((d) => '['.repeat(d) + ']'.repeat(d)),
  fc.integer({ min: 1000, max: 50_000 }).map((d) => '{"a":'.repeat(d) + '1' + '}'.repeat(d)),
  fc.constant(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d])),
  fc.string({ unit: 'binary', maxLength: 60 }),
);

/** Path segments sent as they are (not encoded): malformed escapes, traversal, NUL. */
export const rawPathSegments = ['%', '%%', '%zz', '%E0%A4%A', '%00', '%2e%2e', '..', '.', '%2F', 'a%2Fb', '%C0%AE', '%uFFFF', '%F0%9F%A6%84'];

/** Query fragments sent as they are. */
export const rawQueryParts = ['page=%', 'limit=%zz', 'page[]=1', 'page[a]=1', '__proto__[x]=1', `constructor[prototype][${POLLUTION_KEY}]=1`, `__proto__=${POLLUTION_KEY}`, 'a=%00', '=', '&&', 'limit=1&limit=2', 'status=PENDING&status=PAID'];
