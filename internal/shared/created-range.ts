import { InvalidRequestError } from './errors';
import { isCalendarDate, utcDateOf } from './calendar-date';

/** An inclusive range of instants, in epoch milliseconds. */
export interface InstantRange {
  from: number | null;
  to: number | null;
  /** True when the range cannot contain anything (a future `from` alone). */
  empty: boolean;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T([01]\d|2[0-3]):\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

/**
 * The `createdAtFrom`/`createdAtTo` rules of GET /debts, with daily precision:
 * 1. a plain date or an RFC 3339 date-time, else 400;
 * 2. a date covers its whole UTC day, both ends inclusive;
 * 3. a date-time stands for the UTC day that contains it, except that a `createdAtTo` at
 *    exactly 00:00:00Z does not include that day;
 * 4. without `createdAtTo` the range runs to today; a future `createdAtFrom` alone finds nothing;
 * 5. `createdAtFrom` after `createdAtTo` is 400.
 */
export function dailyCreatedRange(fromText: string | undefined, toText: string | undefined, now: Date): InstantRange {
  const fromDay = fromText === undefined ? null : dayStart(fromText, 'createdAtFrom');
  let toDayEnd: number | null = null;
  if (toText !== undefined) {
    const start = dayStart(toText, 'createdAtTo');
    const exactMidnight = !isCalendarDate(toText) && Date.parse(toText) === start;
    toDayEnd = exactMidnight ? start - 1 : start + DAY_MS - 1;
  }
  if (fromDay !== null && toDayEnd !== null && fromDay > toDayEnd) {
    throw new InvalidRequestError('createdAtFrom must be earlier than or equal to createdAtTo', [
      { field: 'createdAtFrom', issue: 'must be earlier than or equal to createdAtTo' },
    ]);
  }
  const todayEnd = Date.parse(utcDateOf(now)) + DAY_MS - 1;
  const to = toDayEnd ?? (fromDay !== null ? todayEnd : null);
  return { from: fromDay, to, empty: toText === undefined && fromDay !== null && fromDay > todayEnd };
}

function dayStart(text: string, field: string): number {
  if (isCalendarDate(text)) return Date.parse(text);
  if (RFC3339.test(text) && isCalendarDate(text.slice(0, 10))) {
    const instant = Date.parse(text);
    if (!Number.isNaN(instant)) return Date.parse(utcDateOf(new Date(instant)));
  }
  throw InvalidRequestError.field(field, 'must be a date (YYYY-MM-DD) or an RFC 3339 date-time');
}

/**
 * The `createdAtFrom`/`createdAtTo` rules of the lists compared to the millisecond (GET
 * /payment-links, GET /events): a date-time is that instant; a plain date is the start (from)
 * or the end (to) of its UTC day; anything else is 400 on the field; from after to is 400 on
 * `createdAtFrom`.
 */
export function exactCreatedRange(fromText: string | undefined, toText: string | undefined): { from?: number; to?: number } {
  const from = fromText === undefined ? undefined : exactBound(fromText, 'createdAtFrom', 'start');
  const to = toText === undefined ? undefined : exactBound(toText, 'createdAtTo', 'end');
  if (from !== undefined && to !== undefined && from > to) {
    throw InvalidRequestError.field('createdAtFrom', 'must be earlier than or equal to createdAtTo');
  }
  return { from, to };
}

const RFC3339_STRICT = /^\d{4}-\d{2}-\d{2}T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/i;

function exactBound(text: string, field: string, edge: 'start' | 'end'): number {
  if (isCalendarDate(text)) return Date.parse(text) + (edge === 'end' ? DAY_MS - 1 : 0);
  const instant = RFC3339_STRICT.test(text) && isCalendarDate(text.slice(0, 10)) ? Date.parse(text) : NaN;
  if (Number.isNaN(instant)) throw InvalidRequestError.field(field, 'must be a date (YYYY-MM-DD) or an RFC 3339 date-time');
  return instant;
}
