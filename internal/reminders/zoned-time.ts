import { addDaysToDate } from '../shared/calendar-date';

/** The wall clock of an instant in an IANA zone: its local calendar date and minutes after midnight. */
export interface LocalTime {
  date: string;
  minutes: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

function parts(instant: Date, timeZone: string): { y: number; mo: number; d: number; h: number; mi: number; s: number } {
  const p: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(instant)) if (part.type !== 'literal') p[part.type] = Number(part.value);
  return { y: p.year!, mo: p.month!, d: p.day!, h: p.hour! % 24, mi: p.minute!, s: p.second! };
}

export function localTimeOf(instant: Date, timeZone: string): LocalTime {
  const p = parts(instant, timeZone);
  const date = `${String(p.y).padStart(4, '0')}-${String(p.mo).padStart(2, '0')}-${String(p.d).padStart(2, '0')}`;
  return { date, minutes: p.h * 60 + p.mi };
}

/** The zone's offset from UTC at an instant, in milliseconds (local = UTC + offset). */
function offsetAt(instant: number, timeZone: string): number {
  const p = parts(new Date(instant), timeZone);
  const asUtc = Date.UTC(p.y, p.mo - 1, p.d, p.h, p.mi, p.s);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant the zone's clocks read `minutes` after midnight of `date`. Across a DST change: a
 * local time skipped by the spring-forward gap maps to the instant right after the gap (02:30 on
 * a day clocks jump 02:00 → 03:00 is 03:30), and a time repeated by the fall-back is the first
 * of the two.
 */
export function zonedInstant(date: string, minutes: number, timeZone: string): Date {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(y, m - 1, d, 0, minutes);
  const first = wall - offsetAt(wall, timeZone);
  const second = wall - offsetAt(first, timeZone);
  if (first === second) return new Date(first);
  // The offsets disagree around a change: take the earlier instant that reads the wall time, or
  // (in a gap, where none does) the later offset's reading.
  const candidates = [first, second].filter((t) => t + offsetAt(t, timeZone) === wall).sort((a, b) => a - b);
  return new Date(candidates[0] ?? Math.max(first, second));
}

export { addDaysToDate };
