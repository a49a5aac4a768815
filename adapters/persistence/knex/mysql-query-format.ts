import mysql from 'mysql2';

type Values = Parameters<typeof mysql.format>[1];
type Value = Parameters<typeof mysql.escape>[0];

/**
 * mysql2's statement formatting (`?` → a value, `??` → an identifier, each escaped) with the work
 * that depends only on the text done once per text. mysql2 formats every statement client-side
 * with sql-escaper's `format`, which scans the whole text, quote by quote, for its placeholders
 * on every call: about 5 % of the instructions of a `GET /debts?externalClientId` page (a
 * 1,300-character SELECT with about 100 quoted identifiers), where V8 ran that scan in its
 * baseline code (docs/performance.md). Here that scan runs once per text: the text split at its
 * placeholders is kept, and each call joins the parts with its values, escaped as `format`
 * escapes them (number and bigint as they print, every other scalar by `escape`, an identifier
 * by `escapeId`).
 *
 * The answer is `format`'s, character for character (a property test holds the two together):
 * the split is `format`'s own output for marker values, and a statement with an object among its
 * values (a Date, a Buffer, an array, an object to expand), a text holding the marker, or no
 * array of values goes to `format` itself.
 */
export function formatQuery(this: { config: { stringifyObjects?: boolean } }, sql: string, values: Values, timezone?: string): string {
  const stringifyObjects = this.config.stringifyObjects;
  if (values === undefined || values === null) return sql;
  if (!Array.isArray(values)) return mysql.format(sql, values, stringifyObjects, timezone);
  if (values.length === 0) return sql;
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (value !== null && (typeof value === 'object' || typeof value === 'function')) return mysql.format(sql, values, stringifyObjects, timezone);
  }
  const split = splitOf(sql, values.length, timezone);
  if (split === null) return mysql.format(sql, values, stringifyObjects, timezone);
  const { parts, identifiers } = split;
  let out = parts[0]!;
  for (let i = 0; i < identifiers.length; i++) {
    const value: Value = values[i];
    const escaped = identifiers[i]
      ? mysql.escapeId(value as string)
      : typeof value === 'number' || typeof value === 'bigint'
        ? `${value}`
        : mysql.escape(value, stringifyObjects, timezone);
    out += escaped + parts[i + 1]!;
  }
  return out;
}

/** A text between its placeholders: parts.length is identifiers.length + 1. */
interface Split {
  /** How many values the text was split for (format stops at the last value or placeholder). */
  values: number;
  parts: string[];
  /** Per placeholder: `??` (an identifier) or `?` (a value). */
  identifiers: boolean[];
}

/** A character no statement of this service holds: a text that does goes to `format` each time. */
const MARKER = '\u0001';
const PLACEHOLDER = /'\u0001'|`\u0001`/g;

/** Splits by text; statements come in a few hundred shapes (a multi-row INSERT one per row count). */
const SPLITS = new Map<string, Split>();
const MAX_SPLITS = 2048;

function splitOf(sql: string, values: number, timezone: string | undefined): Split | null {
  const known = SPLITS.get(sql);
  if (known !== undefined && known.values === values) return known;
  if (sql.includes(MARKER)) return null;
  const marked = mysql.format(sql, new Array<string>(values).fill(MARKER), false, timezone);
  const parts: string[] = [];
  const identifiers: boolean[] = [];
  let from = 0;
  for (const match of marked.matchAll(PLACEHOLDER)) {
    parts.push(marked.slice(from, match.index));
    identifiers.push(match[0][0] === '`');
    from = match.index + match[0].length;
  }
  parts.push(marked.slice(from));
  if (SPLITS.size >= MAX_SPLITS) SPLITS.clear();
  const split = { values, parts, identifiers };
  SPLITS.set(sql, split);
  return split;
}
