/**
 * Where the fan-out stands in the event log. Event rows get increasing ids when they are
 * inserted, but commit in any order: a row with a smaller id may become visible after a larger
 * one was read. So the cursor keeps, beside the last id read, the ids below it that were missing
 * then (gaps); each turn looks for them again, until they show up or are old enough to be ids
 * that never will (a rolled-back transaction).
 */
export interface FanOutCursor {
  lastRowId: number;
  gaps: RowGap[];
}

/** Missing ids `from`..`to` (inclusive), first seen missing at `seenAt` (epoch ms). */
export interface RowGap {
  from: number;
  to: number;
  seenAt: number;
}

/** How long a missing id is waited for: far longer than any transaction of the service. */
export const GAP_WAIT_MS = 5 * 60_000;
/** Gaps kept at most (the oldest are given up first). */
export const MAX_GAPS = 500;

/**
 * The cursor after a turn that read `fresh` (the rows after `lastRowId`, ascending) and `late`
 * (rows found in the gaps): late rows leave their gaps, new holes before or between fresh rows
 * become gaps, and gaps waited for longer than `waitMs` are given up.
 */
export function advanceCursor(cursor: FanOutCursor, fresh: number[], late: number[], nowMs: number, waitMs = GAP_WAIT_MS): FanOutCursor {
  const found = [...late].sort((a, b) => a - b);
  const gaps: RowGap[] = [];
  for (const gap of cursor.gaps) {
    if (gap.seenAt + waitMs < nowMs) continue;
    let from = gap.from;
    for (const id of found) {
      if (id < from || id > gap.to) continue;
      if (id > from) gaps.push({ from, to: id - 1, seenAt: gap.seenAt });
      from = id + 1;
    }
    if (from <= gap.to) gaps.push({ from, to: gap.to, seenAt: gap.seenAt });
  }
  let previous = cursor.lastRowId;
  for (const id of fresh) {
    if (id > previous + 1) gaps.push({ from: previous + 1, to: id - 1, seenAt: nowMs });
    previous = Math.max(previous, id);
  }
  return { lastRowId: previous, gaps: gaps.slice(-MAX_GAPS) };
}
