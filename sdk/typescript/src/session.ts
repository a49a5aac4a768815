import { CollectionsApiError, CollectionsError } from './errors.js';

/** An access token and the refresh token that renews it (`POST /auth/login` and `/auth/refresh`). */
export interface SessionTokens {
  accessToken: string;
  refreshToken?: string;
  /** Seconds the access token lives (14,400). */
  expiresIn?: number;
}

interface SessionDeps {
  /** POST /auth/login with the configured credentials; null when the client has none. */
  login: (() => Promise<SessionTokens>) | null;
  /** POST /auth/refresh with this refresh token. */
  refresh: (refreshToken: string) => Promise<SessionTokens>;
  /** Renew this long before the access token expires. */
  skewMs: number;
  now: () => number;
}

/**
 * The client's session. Every login and refresh runs through one in-flight promise: concurrent
 * callers that need a token share it, so refresh tokens (single use, rotated on each refresh) are
 * never spent twice.
 */
export class Session {
  #accessToken: string | null = null;
  #refreshToken: string | null = null;
  /** Epoch milliseconds when the access token expires; null when unknown. */
  #expiresAt: number | null = null;
  /** When to renew it: `skewMs` before it expires, or half way through a lifetime shorter than twice that. */
  #renewAt: number | null = null;
  #inflight: Promise<void> | null = null;
  readonly #deps: SessionDeps;

  constructor(deps: SessionDeps, initial?: { accessToken?: string; refreshToken?: string }) {
    this.#deps = deps;
    if (initial?.accessToken) this.adopt({ accessToken: initial.accessToken, refreshToken: initial.refreshToken });
    else if (initial?.refreshToken) this.#refreshToken = initial.refreshToken;
  }

  /** The current tokens (after the client logged in or refreshed). */
  get tokens(): { accessToken: string | null; refreshToken: string | null; expiresAt: Date | null } {
    return { accessToken: this.#accessToken, refreshToken: this.#refreshToken, expiresAt: this.#expiresAt === null ? null : new Date(this.#expiresAt) };
  }

  /** A valid access token: logs in on first use, refreshes shortly before expiry. */
  async token(): Promise<string> {
    while (this.#inflight) await this.#inflight;
    if (this.#accessToken === null) await this.#once(() => (this.#refreshToken ? this.#refreshOrLogin() : this.#login()));
    else if (this.#renewAt !== null && this.#deps.now() >= this.#renewAt) await this.#once(() => this.#refreshOrLogin());
    if (this.#accessToken === null) throw new CollectionsError('no access token after logging in');
    return this.#accessToken;
  }

  /**
   * A request made with `usedToken` was answered 401: renew the session once. When another
   * caller already renewed it since, nothing is done (the caller retries with the new token).
   */
  async unauthorized(usedToken: string): Promise<void> {
    while (this.#inflight) await this.#inflight;
    if (this.#accessToken !== usedToken) return;
    await this.#once(() => this.#refreshOrLogin());
  }

  /** Logs in now (the public `login()`), through the shared in-flight promise. */
  async loginNow(): Promise<void> {
    await this.#once(() => this.#login());
  }

  /** Refreshes now (the public `refreshSession()`), through the shared in-flight promise. */
  async refreshNow(): Promise<void> {
    await this.#once(() => this.#refreshOrLogin());
  }

  adopt(tokens: SessionTokens): void {
    this.#accessToken = tokens.accessToken;
    if (tokens.refreshToken !== undefined) this.#refreshToken = tokens.refreshToken;
    const now = this.#deps.now();
    if (typeof tokens.expiresIn === 'number') {
      const lifetime = Math.max(0, tokens.expiresIn * 1000);
      this.#expiresAt = now + lifetime;
      this.#renewAt = this.#expiresAt - Math.min(this.#deps.skewMs, lifetime / 2);
    } else {
      this.#expiresAt = jwtExpiry(tokens.accessToken);
      this.#renewAt = this.#expiresAt === null ? null : this.#expiresAt - this.#deps.skewMs;
    }
  }

  #once(run: () => Promise<void>): Promise<void> {
    if (!this.#inflight) {
      this.#inflight = run().finally(() => {
        this.#inflight = null;
      });
    }
    return this.#inflight;
  }

  async #login(): Promise<void> {
    if (!this.#deps.login) {
      throw new CollectionsError('the session cannot be renewed: give the client loginApiKey, clientUsername and password (or a valid refreshToken)');
    }
    this.adopt(await this.#deps.login());
  }

  /** Refresh with the refresh token; if there is none, or it is refused (401), log in again. */
  async #refreshOrLogin(): Promise<void> {
    const refreshToken = this.#refreshToken;
    if (refreshToken) {
      try {
        this.adopt(await this.#deps.refresh(refreshToken));
        return;
      } catch (error) {
        // A refused refresh token (reused, expired, revoked) is spent either way.
        if (!(error instanceof CollectionsApiError && (error.status === 401 || error.status === 400)) || !this.#deps.login) throw error;
        this.#refreshToken = null;
      }
    }
    await this.#login();
  }
}

/** The `exp` of a JWT access token, in epoch milliseconds, read without verifying it; null if unreadable. */
function jwtExpiry(token: string): number | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(payload.length / 4) * 4, '=');
    const claims = JSON.parse(atob(base64)) as { exp?: unknown };
    return typeof claims.exp === 'number' ? claims.exp * 1000 : null;
  } catch {
    return null;
  }
}
