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
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
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
