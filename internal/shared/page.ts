/** Pagination shared by every list: page >= 1, limit 1..500 (decisions.md section 5). */
export interface PageRequest {
  page: number;
  limit: number;
}

export interface Page<T> {
  items: T[];
  total: number;
  /** True when `total` stopped at the scan cap and is therefore approximate. */
  capped: boolean;
}

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;
/** Lists whose meta carries `capped` stop counting after this many matches. */
export const COUNT_SCAN_CAP = 10_000;

/**
 * The highest offset a list reads from: far past any table, and with a page's limit added still
 * an exact number and a valid LIMIT/OFFSET on MySQL and SQLite. A page beyond it is empty, as
 * any page past the last match is.
 */
export const MAX_OFFSET = Number.MAX_SAFE_INTEGER - MAX_PAGE_SIZE;

export function offsetOf(page: PageRequest): number {
  return Math.min((page.page - 1) * page.limit, MAX_OFFSET);
}

/**
 * The total a page tells by itself: a page that is not full holds the last matches, so the total
 * is its offset plus its items, and a list can skip its count query. Null when only a count can
 * tell: a full page, or an empty page past the first.
 */
export function totalFromPage(page: PageRequest, found: number): number | null {
  if (found >= page.limit) return null;
  if (found === 0 && page.page > 1) return null;
  return offsetOf(page) + found;
}

/** `total` and `capped` of a list that counts at most COUNT_SCAN_CAP + 1 matches. */
export function cappedTotal(matches: number): Pick<Page<unknown>, 'total' | 'capped'> {
  return { total: Math.min(matches, COUNT_SCAN_CAP), capped: matches > COUNT_SCAN_CAP };
}

/** The page of `matches` held in hand (all of a list's, in its order), with their total as a counting list gives it. */
export function pageOfMatches<T>(matches: T[], page: PageRequest): Page<T> {
  const start = offsetOf(page);
  return { items: matches.slice(start, start + page.limit), ...cappedTotal(matches.length) };
}
