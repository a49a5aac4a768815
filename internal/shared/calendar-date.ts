/** Plain dates are `YYYY-MM-DD` strings that name a real calendar day; all date rules are UTC. */
const PLAIN_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isCalendarDate(value: string): boolean {
  const m = PLAIN_DATE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1) return false;
  return d <= daysInMonth(y, mo);
}

export function daysInMonth(year: number, month: number): number {
  return utcDay(year, month + 1, 0).getUTCDate();
}

/**
 * The UTC midnight of year-month-day, where month and day may run past their range (day 0 is the
 * month before's last). Unlike Date.UTC, years 0 to 99 are those years, not 1900 to 1999.
 */
export function utcDay(year: number, month: number, day: number): Date {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date;
}

/** The UTC calendar date of an instant. */
export function utcDateOf(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

/** Wire form of every date-time: UTC with milliseconds and a trailing Z. */
export function toIsoUtc(instant: Date | number): string {
  return new Date(instant).toISOString();
}

/** The plain date `days` calendar days after `date` (both `YYYY-MM-DD`, UTC). */
export function addDaysToDate(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}
/**
 * The instants the wire format YYYY-MM-DDTHH:mm:ss.sssZ can carry, and dates can be taken from:
 * 0000-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z. An offset can push a date-time written
 * in year 9999 (or 0000) past them, where toISOString answers "+010000-…" (or "-000001-…").
 */
export function isWireInstant(epochMs: number): boolean {
  return Number.isFinite(epochMs) && epochMs >= EARLIEST_WIRE_INSTANT && epochMs <= LATEST_WIRE_INSTANT;
}

const EARLIEST_WIRE_INSTANT = utcDay(0, 1, 1).getTime();
const LATEST_WIRE_INSTANT = utcDay(10000, 1, 1).getTime() - 1;
