import { daysInMonth, isCalendarDate, utcDay } from '../shared/calendar-date';
import { type ErrorDetail, InvalidRequestError } from '../shared/errors';

export const INTERVAL_UNITS = ['day', 'week', 'month', 'year'] as const;
export type IntervalUnit = (typeof INTERVAL_UNITS)[number];

export const MAX_CYCLES = 520;

export interface BillingDay {
  day: number;
  /** Only for yearly schedules. */
  month?: number;
}

export interface ScheduleInput {
  intervalUnit: IntervalUnit;
  intervalCount: number;
  startDate: string;
  totalCycles?: number;
  endDate?: string;
  billingDay?: BillingDay;
}

/** A validated schedule, with the effective billing day (inferred from startDate when not sent). */
export interface Schedule {
  intervalUnit: IntervalUnit;
  intervalCount: number;
  startDate: string;
  totalCycles: number | null;
  endDate: string | null;
  billingDay: BillingDay | null;
}

/**
 * Checks every schedule rule and returns the schedule with its effective billing day; all
 * problems are reported together, each naming its field.
 */
export function parseSchedule(input: ScheduleInput): Schedule {
  const problems: ErrorDetail[] = [];
  const { intervalUnit, intervalCount, startDate, totalCycles, endDate, billingDay } = input;
  if (!INTERVAL_UNITS.includes(intervalUnit)) problems.push({ field: 'intervalUnit', issue: 'must be day, week, month or year' });
  if (!Number.isInteger(intervalCount) || intervalCount < 1 || intervalCount > 1000) {
    problems.push({ field: 'intervalCount', issue: 'must be an integer from 1 to 1000' });
  }
  if (!isCalendarDate(startDate)) problems.push({ field: 'startDate', issue: 'must be a valid date (YYYY-MM-DD)' });
  if (totalCycles !== undefined && endDate !== undefined) {
    problems.push({ field: 'endDate', issue: 'must not be sent with totalCycles' });
  }
  if (totalCycles !== undefined && (!Number.isInteger(totalCycles) || totalCycles < 1 || totalCycles > MAX_CYCLES)) {
    problems.push({ field: 'totalCycles', issue: `must be an integer from 1 to ${MAX_CYCLES}` });
  }
  if (endDate !== undefined) {
    if (!isCalendarDate(endDate)) problems.push({ field: 'endDate', issue: 'must be a valid date (YYYY-MM-DD)' });
    else if (isCalendarDate(startDate) && endDate <= startDate) problems.push({ field: 'endDate', issue: 'must be later than startDate' });
  }
  if (billingDay !== undefined) problems.push(...billingDayProblems(intervalUnit, billingDay));
  if (problems.length > 0) throw new InvalidRequestError(problems.map((p) => `${p.field} ${p.issue}`).join('; '), problems);

  const effective = effectiveBillingDay(intervalUnit, startDate, billingDay);
  if (effective?.month !== undefined && effective.day > daysInMonth(2024, effective.month)) {
    throw InvalidRequestError.field('billingDay.day', 'does not exist in that month');
  }
  const schedule: Schedule = {
    intervalUnit,
    intervalCount,
    startDate,
    totalCycles: totalCycles ?? null,
    endDate: endDate ?? null,
    billingDay: effective,
  };
  if (schedule.endDate !== null && cycleCount(schedule) > MAX_CYCLES) {
    throw InvalidRequestError.field('endDate', `gives more than ${MAX_CYCLES} cycles`);
  }
  if (schedule.endDate !== null && cycleCount(schedule) === 0) {
    throw InvalidRequestError.field('endDate', 'leaves no cycle before it');
  }
  // Dates are YYYY-MM-DD: a schedule whose last cycle falls after 9999-12-31 cannot be written.
  if (!isCalendarDate(dueDateOf(schedule, cycleCount(schedule) - 1))) {
    throw InvalidRequestError.field(schedule.totalCycles !== null ? 'totalCycles' : 'startDate', 'puts a cycle after 9999-12-31');
  }
  return schedule;
}

function billingDayProblems(unit: IntervalUnit, billingDay: BillingDay): ErrorDetail[] {
  if (unit !== 'month' && unit !== 'year') return [{ field: 'billingDay', issue: 'is only allowed with month or year units' }];
  const problems: ErrorDetail[] = [];
  if (!Number.isInteger(billingDay.day) || billingDay.day < 1 || billingDay.day > 31) {
    problems.push({ field: 'billingDay.day', issue: 'must be an integer from 1 to 31' });
  }
  if (billingDay.month !== undefined) {
    if (unit !== 'year') problems.push({ field: 'billingDay.month', issue: 'is only allowed with the year unit' });
    else if (!Number.isInteger(billingDay.month) || billingDay.month < 1 || billingDay.month > 12) {
      problems.push({ field: 'billingDay.month', issue: 'must be an integer from 1 to 12' });
    } else if (Number.isInteger(billingDay.day) && billingDay.day > daysInMonth(2024, billingDay.month)) {
      problems.push({ field: 'billingDay.day', issue: 'does not exist in that month' });
    }
  }
  return problems;
}

function effectiveBillingDay(unit: IntervalUnit, startDate: string, sent: BillingDay | undefined): BillingDay | null {
  const [, month, day] = startDate.split('-').map(Number) as [number, number, number];
  if (unit === 'month') return { day: sent?.day ?? day };
  if (unit === 'year') return { day: sent?.day ?? day, month: sent?.month ?? month };
  return null;
}

/** How many cycles the schedule has: totalCycles, the cycles up to endDate, or 1 when open-ended. */
export function cycleCount(schedule: Schedule): number {
  if (schedule.totalCycles !== null) return schedule.totalCycles;
  if (schedule.endDate === null) return 1;
  let n = 0;
  for (; n <= MAX_CYCLES; n++) {
    // A date past 9999-12-31 is not YYYY-MM-DD and does not compare as text: it is past endDate.
    const date = dueDateOf(schedule, n);
    if (!isCalendarDate(date) || date > schedule.endDate) break;
  }
  return n;
}

/**
 * The due date of cycle `n` (from 0). Monthly and yearly cycles fall on the billing day, or on
 * the last day of a shorter month, and return to the billing day the month after (31 Jan →
 * 28/29 Feb → 31 Mar). The first cycle is the first billing day on or after startDate.
 */
export function dueDateOf(schedule: Schedule, n: number): string {
  const [year, month, day] = schedule.startDate.split('-').map(Number) as [number, number, number];
  const step = schedule.intervalCount;
  switch (schedule.intervalUnit) {
    case 'day':
      return addDays(year, month, day, n * step);
    case 'week':
      return addDays(year, month, day, n * 7 * step);
    case 'month': {
      const billing = schedule.billingDay!.day;
      const first = onOrAfterStart(schedule.startDate, (k) => monthly(year, month, k, billing), 1);
      return monthly(year, month, first + n * step, billing);
    }
    case 'year': {
      const billing = schedule.billingDay!;
      const first = onOrAfterStart(schedule.startDate, (k) => yearly(year + k, billing), 1);
      return yearly(year + first + n * step, billing);
    }
  }
}

/** All due dates, in order. */
export function dueDates(schedule: Schedule): string[] {
  return Array.from({ length: cycleCount(schedule) }, (_, n) => dueDateOf(schedule, n));
}

function onOrAfterStart(startDate: string, dateAt: (offset: number) => string, maxOffset: number): number {
  for (let offset = 0; offset <= maxOffset; offset++) if (dateAt(offset) >= startDate) return offset;
  return maxOffset;
}

function monthly(year: number, month: number, offsetMonths: number, billingDay: number): string {
  const index = year * 12 + (month - 1) + offsetMonths;
  const y = Math.floor(index / 12);
  const m = (index % 12) + 1;
  return format(y, m, Math.min(billingDay, daysInMonth(y, m)));
}

function yearly(year: number, billing: BillingDay): string {
  const month = billing.month!;
  return format(year, month, Math.min(billing.day, daysInMonth(year, month)));
}

function addDays(year: number, month: number, day: number, days: number): string {
  return utcDay(year, month, day + days).toISOString().slice(0, 10);
}

function format(year: number, month: number, day: number): string {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}
