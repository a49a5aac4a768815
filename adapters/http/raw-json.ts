import type { Context } from 'koa';

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

/** Longer JSON text than this (in UTF-16 units) is answered as a Buffer (answerJson). */
export const BUFFERED_ANSWER_CHARS = 4096;

/**
 * An answer's JSON text as Koa's body, typed JSON. A long one (a page) goes out as a Buffer: as a
 * string, Koa would measure its UTF-8 length (a pass over it), Node would join it to the headers
 * (a copy) and encode it (another pass); a Buffer is encoded once and written after the headers.
 * A short one (a resource) stays a string, written with its headers in one piece, which costs
 * less there. Counted in instructions, `GET /debts` about −5 % and a read by id unchanged
 * (docs/performance.md).
 *
 * The Buffer is encoded into room for the longest UTF-8 the text can take (3 bytes per UTF-16
 * unit) and answered as the part written: `Buffer.from` measures the UTF-8 length first, a
 * second pass over the page (about 3 % of a page's instructions), for a few microseconds' use of
 * twice the memory more.
 */
export function answerJson(ctx: Context, json: string): void {
  ctx.type = 'json';
  if (json.length <= BUFFERED_ANSWER_CHARS) {
    ctx.body = json;
    return;
  }
  const room = Buffer.allocUnsafe(json.length * 3);
  ctx.body = room.subarray(0, room.write(json));
}
