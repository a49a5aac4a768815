import { codeForStatus, CollectionsApiError, CollectionsError, CollectionsNetworkError, CollectionsPartialUpdateError, CollectionsTimeoutError, type ErrorDetail } from './errors.js';
import { type OperationId, operationTable } from './generated/operations.js';
import { Session, type SessionTokens } from './session.js';
import type { ListNamespaces, OperationMethods, QueryValue, RequestOptions } from './types.js';

/** Configuration of a {@link CollectionsClient}. */
export interface CollectionsClientOptions {
  /** The API's base address, e.g. `https://api.example.com` (no trailing path needed). */
  baseUrl: string;
  /** The facade API key (`ck_…`), sent as `x-api-key` on every resource call. */
  apiKey: string;
  /** The login API key (`lk_…`): with `clientUsername` and `password`, the client logs in by itself. */
  loginApiKey?: string;
  clientUsername?: string;
  password?: string;
  /** A session obtained elsewhere; without credentials, the client cannot log in again once it is spent. */
  accessToken?: string;
  refreshToken?: string;
  /** The company of every call, for clients with several companies (a call's `companyCode` option overrides it). */
  companyCode?: string;
  /** The `fetch` to use (default: the platform's). */
  fetch?: typeof fetch;
  /** Retries after a first attempt (network errors, 429, 500, 502, 503, 504; see the README). Default 2. */
  maxRetries?: number;
  /** Per-attempt timeout in milliseconds. Default 30,000. */
  timeoutMs?: number;
  /** Backoff: the first retry waits about this (jittered), doubling up to `retryMaxDelayMs`. Default 500. */
  retryBaseDelayMs?: number;
  /** Backoff cap. Default 8,000. */
  retryMaxDelayMs?: number;
  /** A `Retry-After` longer than this is not waited for: the error is thrown (with `retryAfter`). Default 60,000. */
  maxRetryAfterMs?: number;
  /** Renew the access token this many seconds before it expires. Default 60. */
  refreshBeforeExpirySeconds?: number;
  /** Headers sent on every call. */
  headers?: Record<string, string>;
  /** Called after every answer (each attempt), for logging and metrics. */
  onResponse?: (info: ResponseInfo) => void;
}

/** What `onResponse` is told about one answer. */
export interface ResponseInfo {
  operationId: OperationId;
  method: string;
  url: string;
  status: number;
  /** 1 for the first attempt of a call. */
  attempt: number;
  requestId: string | null;
  durationMs: number;
  headers: Headers;
}

/** An answer as the API sent it (the low-level {@link CollectionsClient.request}). */
export interface ApiResponse {
  status: number;
  headers: Headers;
  /** The parsed JSON body (null when empty or not JSON). */
  body: any;
  /** Attempts made (retries included). */
  attempts: number;
  /**
   * An earlier attempt of this call may have been processed without its answer reaching the
   * client (a network error or a 5xx before this answer).
   */
  ambiguous: boolean;
  /** The `Idempotency-Key` sent, if any. */
  idempotencyKey: string | null;
}

type Row = (typeof operationTable)[OperationId];

const RETRYABLE_5XX = new Set([500, 502, 503, 504]);
/** The platform login's two operations (decisions.md section 2): the login API key, no access token. */
const SESSION_OPERATIONS = new Set<string>(['login', 'refreshSession']);

/**
 * A create whose retry may meet its own first attempt as a `409`: where the key the SDK generated
 * ends up, and the list that finds the resource by it (POST /payment-links: the key becomes
 * `externalPaymentLinkId` when the body has none).
 */
const CONFLICT_RECOVERY: Record<string, { bodyField: string; list: string; queryField: string } | undefined> = {
  createPaymentLink: { bodyField: 'externalPaymentLinkId', list: 'listPaymentLinks', queryField: 'externalPaymentLinkId' },
};

class TimeoutSignal extends Error {}

/**
 * The Collections Facade API client: one method per operation, named after its operationId
 * (`createDebt`, `getDebt`, `listDebts`, ...), and a namespace of iterators per paginated list
 * (`debts.list()`, `events.pages()`, ...). Methods and namespaces are built from the generated
 * operation table; their types from the generated OpenAPI types.
 */
export interface CollectionsClient extends OperationMethods, ListNamespaces {}

export class CollectionsClient {
  readonly #options: Required<Pick<CollectionsClientOptions, 'maxRetries' | 'timeoutMs' | 'retryBaseDelayMs' | 'retryMaxDelayMs' | 'maxRetryAfterMs'>> &
    CollectionsClientOptions;
  readonly #baseUrl: string;
  readonly #fetch: typeof fetch;
  readonly #session: Session;

  static {
    for (const row of Object.values(operationTable)) {
      Object.defineProperty(CollectionsClient.prototype, row.operationId, {
        configurable: true,
        writable: true,
        value: function (this: CollectionsClient, ...args: unknown[]) {
          return this.#operation(row, args);
        },
      });
    }
  }

  constructor(options: CollectionsClientOptions) {
    if (!options || typeof options.baseUrl !== 'string' || options.baseUrl === '') throw new TypeError('CollectionsClient: baseUrl is required');
    this.#options = {
      ...options,
      maxRetries: options.maxRetries ?? 2,
      timeoutMs: options.timeoutMs ?? 30_000,
      retryBaseDelayMs: options.retryBaseDelayMs ?? 500,
      retryMaxDelayMs: options.retryMaxDelayMs ?? 8_000,
      maxRetryAfterMs: options.maxRetryAfterMs ?? 60_000,
    };
    this.#baseUrl = options.baseUrl.replace(/\/+$/, '');
    const given = options.fetch;
    this.#fetch = given ?? ((input, init) => globalThis.fetch(input, init));
    const canLogin = !!(options.loginApiKey && options.clientUsername && options.password);
    this.#session = new Session(
      {
        login: canLogin
          ? async () => sessionOf(await this.#call(operationTable.login, [], { clientUsername: options.clientUsername, password: options.password }, undefined, {}))
          : null,
        refresh: async (refreshToken) => sessionOf(await this.#call(operationTable.refreshSession, [], { refreshToken }, undefined, {})),
        skewMs: (options.refreshBeforeExpirySeconds ?? 60) * 1000,
        now: () => Date.now(),
      },
      { accessToken: options.accessToken, refreshToken: options.refreshToken },
    );
    for (const row of Object.values(operationTable) as Row[]) {
      if (!row.namespace) continue;
      Object.defineProperty(this, row.namespace, {
        enumerable: true,
        value: Object.freeze({
          list: (...args: unknown[]) => this.#items(row, args),
          pages: (...args: unknown[]) => this.#pages(row, args),
        }),
      });
    }
  }

  /** The session's current tokens (null before the first call logs in). */
  get session(): { accessToken: string | null; refreshToken: string | null; expiresAt: Date | null } {
    return this.#session.tokens;
  }

  /**
   * Low level: one operation by its operationId, answering the API's answer as is (an error
   * status does not throw; a network error still does, after the retries).
   */
  async request(
    operationId: OperationId,
    input: { pathParams?: string[]; body?: unknown; query?: Record<string, QueryValue> } = {},
    options: RequestOptions = {},
  ): Promise<ApiResponse> {
    const row = operationTable[operationId] as Row | undefined;
    if (!row) throw new TypeError(`unknown operation ${String(operationId)}`);
    return this.#call(row, input.pathParams ?? [], input.body, input.query, options);
  }

  /** Splits a method's arguments: path parameters, then the body or the query, then options. */
  #parse(row: Row, args: unknown[]): { path: string[]; body: unknown; query: Record<string, QueryValue> | undefined; options: RequestOptions } {
    const path = row.pathParams.map((name, i) => {
      const value = args[i];
      if (typeof value !== 'string' || value === '') throw new TypeError(`${row.operationId}: path parameter ${name} must be a non-empty string`);
      return value;
    });
    let next = row.pathParams.length;
    let body: unknown;
    let query: Record<string, QueryValue> | undefined;
    if (row.hasBody) body = args[next++];
    else if (row.queryParams.length > 0) query = args[next++] as Record<string, QueryValue> | undefined;
    const options = (args[next] as RequestOptions | undefined) ?? {};
    return { path, body, query: { ...query, ...options.query }, options };
  }

  async #operation(row: Row, args: unknown[]): Promise<unknown> {
    const { path, body, query, options } = this.#parse(row, args);
    if (SESSION_OPERATIONS.has(row.operationId)) return this.#sessionOperation(row, body, options);
    const response = await this.#call(row, path, body, query, options);
    return this.#interpret(row, response, body, options);
  }

  /** `login()` and `refreshSession()`: without a body they use the client's credentials or refresh token; the new session is kept. */
  async #sessionOperation(row: Row, body: unknown, options: RequestOptions): Promise<unknown> {
    if (body === undefined) {
      if (row.operationId === 'login') await this.#session.loginNow();
      else await this.#session.refreshNow();
      const { accessToken, refreshToken, expiresAt } = this.#session.tokens;
      return { accessToken, refreshToken, expiresIn: expiresAt ? Math.round((expiresAt.getTime() - Date.now()) / 1000) : undefined };
    }
    const response = await this.#call(row, [], body, undefined, options);
    const tokens = sessionOf(response, row.operationId);
    this.#session.adopt(tokens);
    return withoutRequestId(response.body);
  }

  async #interpret(row: Row, response: ApiResponse, sentBody: unknown, options: RequestOptions): Promise<unknown> {
    const { status, body } = response;
    const batch = row.batchProperty !== null && isObject(sentBody) && row.batchProperty in sentBody;
    if (batch && (status === 201 || status === 207 || status === 422) && isObject(body) && Array.isArray(body.data)) {
      return { status, data: body.data, errors: Array.isArray(body.errors) ? body.errors : [], batchId: body.batchId, requestId: body.requestId };
    }
    if (status >= 200 && status < 300) {
      if (!isObject(body)) return body ?? undefined;
      if (isObject(body.error)) {
        throw new CollectionsPartialUpdateError({ ...errorInit(row, response), data: body.data });
      }
      if (row.paginated) return { data: body.data, meta: body.meta, requestId: body.requestId };
      return 'data' in body ? body.data : withoutRequestId(body);
    }
    const recovered = status === 409 ? await this.#recoverConflict(row, response, sentBody, options) : undefined;
    if (recovered !== undefined) return recovered;
    throw apiError(row, response);
  }

  /**
   * A create retried after an attempt whose answer was lost, answered 409 for the key the SDK
   * generated: the first attempt created it. Finds it by that key and answers it.
   */
  async #recoverConflict(row: Row, response: ApiResponse, sentBody: unknown, options: RequestOptions): Promise<unknown> {
    const recovery = CONFLICT_RECOVERY[row.operationId];
    if (!recovery || !response.ambiguous || options.idempotencyKey !== undefined || response.idempotencyKey === null) return undefined;
    if (isObject(sentBody) && sentBody[recovery.bodyField] !== undefined && sentBody[recovery.bodyField] !== null) return undefined;
    const list = (operationTable as Record<string, Row | undefined>)[recovery.list];
    if (!list) return undefined;
    const found = await this.#call(list, [], undefined, { [recovery.queryField]: response.idempotencyKey, limit: 1 }, { companyCode: options.companyCode, signal: options.signal });
    const data = isObject(found.body) && Array.isArray(found.body.data) ? found.body.data : [];
    return found.status === 200 && data.length === 1 ? data[0] : undefined;
  }

  async *#pages(row: Row, args: unknown[]): AsyncIterableIterator<unknown> {
    const { path, query, options } = this.#parse(row, args);
    // A list without a `page` parameter is one page.
    const paged = (row.queryParams as readonly string[]).includes('page');
    let page = typeof query?.page === 'number' ? query.page : Number(query?.page ?? 1);
    for (;;) {
      const response = await this.#call(row, path, undefined, paged ? { ...query, page } : query, options);
      const result = (await this.#interpret(row, response, undefined, options)) as { data: unknown[]; meta?: { hasMore?: boolean } };
      yield result;
      if (!paged || !result.meta?.hasMore || !Array.isArray(result.data) || result.data.length === 0) return;
      page += 1;
    }
  }

  async *#items(row: Row, args: unknown[]): AsyncIterableIterator<unknown> {
    for await (const page of this.#pages(row, args)) yield* (page as { data: unknown[] }).data;
  }

  /** One call: credentials, companyCode, the Idempotency-Key, the timeout, retries and the 401 refresh. */
  async #call(row: Row, path: string[], body: unknown, query: Record<string, QueryValue> | undefined, options: RequestOptions): Promise<ApiResponse> {
    const o = this.#options;
    const maxRetries = options.maxRetries ?? o.maxRetries;
    const timeoutMs = options.timeoutMs ?? o.timeoutMs;
    const companyCode = options.companyCode ?? o.companyCode;
    const isSession = SESSION_OPERATIONS.has(row.operationId);

    const search = new URLSearchParams();
    const fullQuery: Record<string, QueryValue> = { ...query };
    let payload = body;
    if (row.hasBody) payload = body === undefined || body === null ? {} : body;
    if (companyCode !== undefined && !isSession && row.authenticated) {
      if (row.hasBody && isObject(payload)) payload = { ...payload, companyCode };
      else fullQuery.companyCode = companyCode;
    }
    for (const [name, value] of Object.entries(fullQuery)) {
      if (value === undefined || value === null) continue;
      for (const one of Array.isArray(value) ? value : [value]) search.append(name, String(one));
    }
    let i = 0;
    const url = `${this.#baseUrl}${row.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(path[i++] ?? ''))}${search.toString() ? `?${search}` : ''}`;

    const idempotencyKey = row.create ? (options.idempotencyKey ?? randomKey()) : null;
    const retryAmbiguous = row.idempotent || (row.idempotencyKey && idempotencyKey !== null);
    const headers: Record<string, string> = { accept: 'application/json', ...o.headers, ...options.headers };
    if (payload !== undefined) headers['content-type'] = 'application/json';
    if (idempotencyKey !== null) headers['idempotency-key'] = idempotencyKey;
    if (isSession) {
      if (!o.loginApiKey) throw new TypeError(`${row.operationId}: the client needs loginApiKey`);
      headers['x-api-key'] = o.loginApiKey;
    } else if (row.authenticated) headers['x-api-key'] = o.apiKey;
    const init: RequestInit = { method: row.method, headers, body: payload === undefined ? undefined : JSON.stringify(payload) };

    let attempt = 0;
    let ambiguous = false;
    let renewed = false;
    for (;;) {
      attempt += 1;
      const token = row.authenticated ? await this.#session.token() : null;
      if (token !== null) headers['x-authorization-token'] = token;
      const started = Date.now();
      let answer: { response: Response; text: string };
      try {
        answer = await this.#fetchOnce(url, { ...init, headers: { ...headers } }, timeoutMs, options.signal);
      } catch (error) {
        if (options.signal?.aborted) throw options.signal.reason ?? error;
        ambiguous = true;
        if (retryAmbiguous && attempt <= maxRetries) {
          await sleep(this.#backoff(attempt), options.signal);
          continue;
        }
        if (error instanceof TimeoutSignal) throw new CollectionsTimeoutError(row.operationId, timeoutMs, attempt);
        throw new CollectionsNetworkError(row.operationId, (error as Error)?.message ?? String(error), attempt, error);
      }
      const { response, text } = answer;
      const parsed = parseJson(text);
      this.#tell({
        operationId: row.operationId,
        method: row.method,
        url,
        status: response.status,
        attempt,
        requestId: isObject(parsed) && typeof parsed.requestId === 'string' ? parsed.requestId : response.headers.get('x-request-id'),
        durationMs: Date.now() - started,
        headers: response.headers,
      });
      const status = response.status;
      if (status === 401 && token !== null && !renewed) {
        // The access token was refused (expired, revoked): renew the session once and send again.
        renewed = true;
        attempt -= 1;
        await this.#session.unauthorized(token);
        continue;
      }
      const retryAfterMs = retryAfterOf(response.headers);
      if ((status === 429 || (RETRYABLE_5XX.has(status) && retryAmbiguous)) && attempt <= maxRetries) {
        const wait = retryAfterMs ?? this.#backoff(attempt);
        if (wait <= o.maxRetryAfterMs) {
          if (status !== 429) ambiguous = true;
          await sleep(wait, options.signal);
          continue;
        }
      }
      return { status, headers: response.headers, body: parsed, attempts: attempt, ambiguous, idempotencyKey };
    }
  }

  /** Runs the `onResponse` hook; a hook that throws never fails the call. */
  #tell(info: ResponseInfo): void {
    try {
      this.#options.onResponse?.(info);
    } catch {
      // A logging or metrics hook must not break a payment call.
    }
  }

  async #fetchOnce(url: string, init: RequestInit, timeoutMs: number, signal: AbortSignal | undefined): Promise<{ response: Response; text: string }> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onAbort = () => controller.abort(signal?.reason);
    if (signal?.aborted) onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const response = await this.#fetch(url, { ...init, signal: controller.signal });
      const text = await response.text();
      return { response, text };
    } catch (error) {
      if (timedOut) throw new TimeoutSignal();
      throw error;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Exponential backoff with jitter: about base, 2 x base, 4 x base ... up to the cap, each between half and all of it. */
  #backoff(attempt: number): number {
    const ceiling = Math.min(this.#options.retryMaxDelayMs, this.#options.retryBaseDelayMs * 2 ** (attempt - 1));
    return ceiling / 2 + Math.random() * (ceiling / 2);
  }
}

/** A UUID v4 from Web Crypto (`randomUUID` where the platform has it, e.g. outside secure browser contexts it has not). */
function randomKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function isObject(value: unknown): value is Record<string, any> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function parseJson(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function withoutRequestId(body: unknown): unknown {
  if (!isObject(body)) return body;
  const { requestId: _requestId, ...rest } = body;
  return rest;
}

/** The session of a login or refresh answer: at the top level (decisions.md section 2), or under `data`. */
function sessionOf(response: ApiResponse, operationId = 'login'): SessionTokens {
  if (response.status !== 200) throw apiError(operationTable[operationId as OperationId] as Row, response);
  const body = isObject(response.body) ? response.body : {};
  const source = typeof body.accessToken === 'string' ? body : isObject(body.data) ? body.data : {};
  if (typeof source.accessToken !== 'string') throw new CollectionsError(`${operationId}: the answer carries no accessToken`);
  return {
    accessToken: source.accessToken,
    refreshToken: typeof source.refreshToken === 'string' ? source.refreshToken : undefined,
    expiresIn: typeof source.expiresIn === 'number' ? source.expiresIn : undefined,
  };
}

function errorInit(row: Row, response: ApiResponse) {
  const body = isObject(response.body) ? response.body : null;
  const envelope = body && isObject(body.error) ? body.error : null;
  const retryAfterMs = retryAfterOf(response.headers);
  return {
    status: response.status,
    code: typeof envelope?.code === 'string' ? envelope.code : codeForStatus(response.status),
    message: typeof envelope?.message === 'string' ? envelope.message : `HTTP ${response.status}`,
    details: Array.isArray(envelope?.details) ? (envelope.details as ErrorDetail[]) : [],
    requestId: typeof body?.requestId === 'string' ? body.requestId : response.headers.get('x-request-id'),
    retryAfter: retryAfterMs === null ? null : retryAfterMs / 1000,
    operationId: row.operationId,
    headers: response.headers,
    body: response.body,
  };
}

function apiError(row: Row, response: ApiResponse): CollectionsApiError {
  return new CollectionsApiError(errorInit(row, response));
}

/** `Retry-After` in milliseconds (seconds or an HTTP date), or null. */
function retryAfterOf(headers: Headers): number | null {
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
