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

/**
 * The UTC calendar date of an instant. The last day asked for is kept: a create presents its debt
 * twice (the answer and its event), each asking today's date, and Date.prototype.toISOString was
 * about 0.7 % of a lone legacy `POST /debts`' instructions (docs/performance.md).
 */
export function utcDateOf(instant: Date): string {
  const day = Math.floor(instant.getTime() / DAY_MS);
  // NaN (an invalid Date) never equals the kept day, so toISOString throws for it as before.
  if (day === lastUtcDay) return lastUtcDate;
  const date = instant.toISOString().slice(0, 10);
  lastUtcDay = day;
  lastUtcDate = date;
  return date;
}

let lastUtcDay = Number.NaN;
let lastUtcDate = '';

/** Wire form of every date-time: UTC with milliseconds and a trailing Z. */
export function toIsoUtc(instant: Date | number): string {
  const ms = typeof instant === 'number' ? instant : instant.getTime();
  // Outside the wire range (and NaN, which throws there) as Date does it.
  if (!(ms >= EARLIEST_WIRE_INSTANT && ms <= LATEST_WIRE_INSTANT)) return new Date(instant).toISOString();
  // Date.prototype.toISOString breaks the instant down each time: 14 % of a page of payment links'
  // API CPU (docs/performance.md). The day's `YYYY-MM-DDT` is kept per day, the time is arithmetic.
  const day = Math.floor(ms / DAY_MS);
  let date = DAY_PREFIXES.get(day);
  if (date === undefined) {
    date = new Date(day * DAY_MS).toISOString().slice(0, 11);
    if (DAY_PREFIXES.size >= MAX_DAY_PREFIXES) DAY_PREFIXES.clear();
    DAY_PREFIXES.set(day, date);
  }
  const inDay = ms - day * DAY_MS;
  const millis = inDay % 1000;
  const seconds = Math.floor(inDay / 1000);
  return `${date}${two(Math.floor(seconds / 3600))}:${two(Math.floor(seconds / 60) % 60)}:${two(seconds % 60)}.${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
}

const DAY_MS = 86_400_000;
/** `YYYY-MM-DDT` by day number since the epoch: a few thousand days cover any page's dates. */
const DAY_PREFIXES = new Map<number, string>();
const MAX_DAY_PREFIXES = 4096;

function two(n: number): string {
  return n < 10 ? `0${n}` : String(n);
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
