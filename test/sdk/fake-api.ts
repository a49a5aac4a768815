/**
 * A scripted stand-in for the API, as the SDK's `fetch`: each request is recorded and answered
 * by the first route whose method and path match (a route may answer, throw a network error,
 * or never answer). Login and refresh behave like the platform's by default: single-use refresh
 * tokens, rotated on each refresh.
 */

export interface FakeRequest {
  method: string;
  url: URL;
  path: string;
  headers: Record<string, string>;
  body: any;
  /** The access token the request carried. */
  token: string | undefined;
}

export type FakeAnswer = { status: number; body?: unknown; headers?: Record<string, string>; raw?: string };
type Handler = (req: FakeRequest, nth: number) => FakeAnswer | Promise<FakeAnswer>;

export interface FakeApi {
  fetch: typeof fetch;
  /** Every request, in order. */
  requests: FakeRequest[];
  on(method: string, path: string | RegExp, handler: Handler): void;
  calls(method: string, path: string | RegExp): FakeRequest[];
  /** Access tokens the fake accepts (login and refresh add theirs). */
  validTokens: Set<string>;
  logins: number;
  refreshes: number;
}

export const json = (status: number, body: unknown, headers: Record<string, string> = {}): FakeAnswer => ({ status, body, headers });
export const ok = (data: unknown, status = 200): FakeAnswer => json(status, { data, requestId: 'req_test' });
export const failure = (status: number, code: string, message = code, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): FakeAnswer =>
  json(status, { error: { code, message, ...extra }, requestId: 'req_err' }, headers);

/** A handler that throws like fetch does when the connection fails. */
export const networkError = (): never => {
  throw new TypeError('fetch failed');
};

export function fakeApi(options: { expiresIn?: number } = {}): FakeApi {
  const routes: { method: string; path: string | RegExp; handler: Handler; hits: number }[] = [];
  const requests: FakeRequest[] = [];
  const validTokens = new Set<string>();
  const liveRefreshTokens = new Set<string>();
  let sessions = 0;
  const api: FakeApi = {
    requests,
    validTokens,
    logins: 0,
    refreshes: 0,
    on(method, path, handler) {
      routes.unshift({ method, path, handler, hits: 0 });
    },
    calls(method, path) {
      return requests.filter((r) => r.method === method && (typeof path === 'string' ? r.path === path : path.test(r.path)));
    },
    fetch: (async (input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(String(input));
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries((init?.headers as Record<string, string>) ?? {})) headers[k.toLowerCase()] = v;
      const req: FakeRequest = {
        method: init?.method ?? 'GET',
        url,
        path: url.pathname,
        headers,
        body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
        token: headers['x-authorization-token'],
      };
      requests.push(req);
      const route = routes.find((r) => r.method === req.method && (typeof r.path === 'string' ? r.path === req.path : r.path.test(req.path)));
      if (!route) return respond(failure(404, 'RESOURCE_NOT_FOUND', `no fake route for ${req.method} ${req.path}`));
      route.hits += 1;
      const signal = init?.signal;
      const answer = await Promise.race([
        Promise.resolve(route.handler(req, route.hits)),
        new Promise<never>((_, reject) => {
          if (signal?.aborted) reject(signal.reason ?? new Error('aborted'));
          signal?.addEventListener('abort', () => reject(signal.reason ?? new Error('aborted')), { once: true });
        }),
      ]);
      return respond(answer);
    }) as typeof fetch,
  };
  const issue = () => {
    sessions += 1;
    const session = { accessToken: `access-${sessions}`, refreshToken: `refresh-${sessions}`, expiresIn: options.expiresIn ?? 14_400 };
    validTokens.add(session.accessToken);
    liveRefreshTokens.add(session.refreshToken);
    return session;
  };
  api.on('POST', '/auth/login', (req) => {
    api.logins += 1;
    if (req.headers['x-api-key'] !== 'lk_test' || req.body?.password !== 'secret') return failure(401, 'AUTHENTICATION_FAILED');
    return json(200, { ...issue(), requestId: 'req_login' });
  });
  api.on('POST', '/auth/refresh', (req) => {
    api.refreshes += 1;
    if (req.headers['x-api-key'] !== 'lk_test' || !liveRefreshTokens.delete(req.body?.refreshToken)) return failure(401, 'AUTHENTICATION_FAILED');
    return json(200, { ...issue(), requestId: 'req_refresh' });
  });
  return api;
}

/** The facade's authentication: a 401 unless the request carries the API key and a valid token. */
export function authenticated(api: FakeApi, handler: Handler): Handler {
  return (req, nth) => {
    if (req.headers['x-api-key'] !== 'ck_test' || !req.token || !api.validTokens.has(req.token)) return failure(401, 'AUTHENTICATION_FAILED');
    return handler(req, nth);
  };
}

function respond(answer: FakeAnswer): Response {
  const body = answer.raw ?? (answer.body === undefined ? null : JSON.stringify(answer.body));
  return new Response(body, { status: answer.status, headers: { 'content-type': 'application/json', ...answer.headers } });
}
