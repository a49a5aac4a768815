import type { Context, Next } from 'koa';
import getRawBody from 'raw-body';
import { InvalidRequestError } from '../../../internal/shared/errors';

export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Reads a JSON body (up to 1 MiB, else 413) into `ctx.state.body`. No body leaves it undefined.
 * Every body of this API is JSON, so it is parsed as JSON whatever Content-Type says (`curl -d`
 * sends a form type): a lenient reader, a strict validator. Malformed JSON sets
 * `ctx.state.malformedBody`: a route that reads a body answers `malformedJsonError()` (400), one
 * that takes none ignores whatever was sent (POST /debts/{id}/cancel: "ignored if sent").
 * The text itself stays in `ctx.state.rawBody`: a provider's signature is over those exact bytes.
 */
export async function jsonBody(ctx: Context, next: Next): Promise<void> {
  if (ctx.method === 'GET' || ctx.method === 'HEAD' || ctx.method === 'OPTIONS' || !ctx.request.length && !ctx.get('transfer-encoding')) {
    return next();
  }
  // Read as bytes and decoded once (raw-body's `encoding` would run iconv-lite's streaming decoder
  // on every body); a leading byte-order mark is dropped, as that decoder does.
  const bytes = await getRawBody(ctx.req, { limit: MAX_BODY_BYTES, length: ctx.request.length });
  const decoded = bytes.toString('utf8');
  const text = decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded;
  ctx.state.rawBody = text;
  if (text.trim() !== '') {
    try {
      ctx.state.body = JSON.parse(text);
    } catch {
      ctx.state.malformedBody = true;
    }
  }
  return next();
}

export function malformedJsonError(): InvalidRequestError {
  return new InvalidRequestError('Malformed JSON body', [{ field: 'body', issue: 'is not valid JSON' }]);
}
