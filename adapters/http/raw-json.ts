/**
 * JSON text written into an answer as it is: an event's public object is stored rendered, and a
 * page of events parsing each one only for Koa to stringify it again was a quarter of the page's
 * API CPU (docs/performance.md). Only text this service wrote itself belongs here.
 */
export class RawJson {
  constructor(readonly text: string) {}
}

/** A page's envelope, `{ data, meta, requestId }`, as JSON text, with RawJson items written as they are. */
export function pageJson(data: readonly unknown[], meta: Record<string, unknown>, requestId: unknown): string {
  let items = '';
  for (let i = 0; i < data.length; i++) {
    const item = data[i];
    items += (i === 0 ? '' : ',') + (item instanceof RawJson ? item.text : JSON.stringify(item ?? null));
  }
  return `{"data":[${items}],"meta":${JSON.stringify(meta)},"requestId":${JSON.stringify(requestId ?? null)}}`;
}

export function holdsRawJson(data: unknown): data is unknown[] {
  return Array.isArray(data) && data.some((item) => item instanceof RawJson);
}
