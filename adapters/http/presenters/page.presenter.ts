import { offsetOf, type Page, type PageRequest } from '../../../internal/shared/page';

/** List meta: page, limit, total, hasMore; `capped` only on the lists the spec names. */
export function pageMeta(page: PageRequest, result: Page<unknown>, withCapped = false) {
  const meta: Record<string, unknown> = {
    page: page.page,
    limit: page.limit,
    total: result.total,
    hasMore: offsetOf(page) + result.items.length < result.total,
  };
  if (withCapped) meta.capped = result.capped;
  return meta;
}
