/**
 * Why a webhook attempt failed, as a class: never the transport's own message, which names
 * addresses and ports (an attempt's error is readable through GET /events/{id}, and raw messages
 * made the webhook sender a port scanner of the network it runs in).
 *
 * - `http_status`: an answer came, but not a 2xx (its status is the attempt's statusCode; a
 *   redirect is one: redirects are not followed);
 * - `timeout`: no status line within the 10 s of the attempt;
 * - `connection_refused`: the host refused the connection;
 * - `connection_error`: the connection failed otherwise (reset, unreachable, closed early);
 * - `dns_error`: the host name did not resolve;
 * - `tls_error`: the TLS handshake failed (certificate, protocol);
 * - `blocked_address`: the host resolved to an address webhooks must not reach (loopback,
 *   private, link-local...; see docs/webhooks.md), so nothing was sent.
 */
export const ATTEMPT_ERRORS = ['http_status', 'timeout', 'connection_refused', 'connection_error', 'dns_error', 'tls_error', 'blocked_address'] as const;
export type AttemptError = (typeof ATTEMPT_ERRORS)[number];

/** What the transport can report (an answer's status is the core's to judge). */
export type TransportError = Exclude<AttemptError, 'http_status'>;

export function isAttemptError(value: unknown): value is AttemptError {
  return typeof value === 'string' && (ATTEMPT_ERRORS as readonly string[]).includes(value);
}

/** The error class of an attempt: the transport's, else `http_status` for an answer that is not a 2xx, else none. */
export function attemptErrorOf(statusCode: number | null, transportError: TransportError | null): AttemptError | null {
  if (transportError !== null) return transportError;
  if (statusCode === null) return 'connection_error';
  return statusCode >= 200 && statusCode < 300 ? null : 'http_status';
}

/**
 * An attempt recorded before errors were classes kept the transport's message (`connect
 * ECONNREFUSED 127.0.0.1:9`, `timed out after 10000 ms`, `refused: private address`...) and no
 * error for an answer's status. Reads present every stored attempt as a class: a class as is,
 * an old message classified by what it says, so no address recorded then is shown.
 */
export function storedAttemptError(statusCode: number | null, succeeded: boolean, stored: string | null): AttemptError | null {
  if (stored === null || stored === '') return succeeded ? null : attemptErrorOf(statusCode, null);
  if (isAttemptError(stored)) return stored;
  const text = stored.toLowerCase();
  if (text.includes('private address') || text.includes('eprivate')) return 'blocked_address';
  if (text.includes('timed out') || text.includes('timeout') || text.includes('etimedout')) return 'timeout';
  if (text.includes('econnrefused')) return 'connection_refused';
  if (/enotfound|eai_again|eai_fail|eai_nodata|enodata|could not be resolved/.test(text)) return 'dns_error';
  if (/cert|ssl|tls|eproto/.test(text)) return 'tls_error';
  return 'connection_error';
}
