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

export function offsetOf(page: PageRequest): number {
  return (page.page - 1) * page.limit;
}
