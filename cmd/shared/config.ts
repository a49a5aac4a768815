import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { APP_ENVS, type AppEnv } from '../../internal/tenancy/credentials';

/** The only reader of process.env: typed, frozen, checked at boot (decisions.md section 1). */
export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  redisUrl: string | null;
  runWorkers: boolean;
  appEnv: AppEnv;
  /** PUBLIC_BASE_URL; null means http://localhost:<the port actually bound>. */
  publicBaseUrl: string | null;
  jwtSecret: string;
  logLevel: string;
  migrateOnStart: boolean;
  queuePrefix: string;
  workerConcurrency: number;
  /** How long an API process reuses a credential lookup; changes from elsewhere apply within it. */
  credentialCacheMs: number;
  /** WEBHOOK_RETRY_DELAYS: waits between failed webhook attempts; unset, the three-day default. */
  webhookRetryDelaysMs?: readonly number[];
  /** WEBHOOK_DISPATCH_EVERY_MS: how often each worker process fans events out and hands due deliveries over. */
  webhookDispatchEveryMs: number;
  /** HOSTED_PAGES_SECRET: signs paymentUrls, enrollment URLs and form tokens; null derives one from the JWT secret. */
  hostedPagesSecret: string | null;
  /** Token bucket per API key when the organization has none of its own; capacity 0 turns limiting off. */
  rateLimitCapacity: number;
  rateLimitRefillPerSecond: number;
  /** When set, GET /metrics (and the worker's metrics listener) want `Authorization: Bearer <it>`. */
  metricsToken: string | null;
  /** Worker processes serve /metrics on this port when set (0 picks a free one). */
  metricsPort: number | null;
  /** How long a SIGTERM may take (in-flight requests and jobs) before the process exits 1. */
  shutdownTimeoutMs: number;
  /** The operator named in the audit log for admin CLI changes. */
  adminOperator: string;
  /** SANDBOX_PROVIDER_SECRET: signs and checks the sandbox payment provider's notifications; null derives one from the JWT secret. */
  sandboxProviderSecret: string | null;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Readonly<Config> {
  const port = integer(env.PORT ?? '3000', 'PORT');
  const appEnv = (env.APP_ENV ?? 'development') as AppEnv;
  if (!APP_ENVS.includes(appEnv)) throw new Error(`APP_ENV must be one of ${APP_ENVS.join(', ')}`);
  const databaseUrl = env.DATABASE_URL ?? 'sqlite:./data/collections.sqlite';
  return Object.freeze({
    port,
    host: env.HOST ?? '0.0.0.0',
    databaseUrl,
    redisUrl: env.REDIS_URL || null,
    runWorkers: env.RUN_WORKERS === 'true',
    appEnv,
    publicBaseUrl: env.PUBLIC_BASE_URL ? env.PUBLIC_BASE_URL.replace(/\/+$/, '') : null,
    jwtSecret: jwtSecret(env, appEnv),
    logLevel: env.LOG_LEVEL ?? 'info',
    migrateOnStart: env.MIGRATE_ON_START !== 'false',
    queuePrefix: env.QUEUE_PREFIX ?? 'cf',
    workerConcurrency: integer(env.WORKER_CONCURRENCY ?? '8', 'WORKER_CONCURRENCY'),
    credentialCacheMs: integer(env.CREDENTIAL_CACHE_MS ?? '2000', 'CREDENTIAL_CACHE_MS'),
    webhookRetryDelaysMs: env.WEBHOOK_RETRY_DELAYS ? durations(env.WEBHOOK_RETRY_DELAYS, 'WEBHOOK_RETRY_DELAYS') : undefined,
    webhookDispatchEveryMs: positiveInteger(env.WEBHOOK_DISPATCH_EVERY_MS ?? '1000', 'WEBHOOK_DISPATCH_EVERY_MS'),
    hostedPagesSecret: hostedPagesSecret(env.HOSTED_PAGES_SECRET),
    rateLimitCapacity: integer(env.RATE_LIMIT_CAPACITY ?? '200', 'RATE_LIMIT_CAPACITY'),
    rateLimitRefillPerSecond: positive(env.RATE_LIMIT_REFILL_PER_SECOND ?? '100', 'RATE_LIMIT_REFILL_PER_SECOND'),
    metricsToken: env.METRICS_TOKEN || null,
    metricsPort: env.METRICS_PORT ? integer(env.METRICS_PORT, 'METRICS_PORT') : null,
    shutdownTimeoutMs: integer(env.SHUTDOWN_TIMEOUT_MS ?? '25000', 'SHUTDOWN_TIMEOUT_MS'),
    adminOperator: env.ADMIN_OPERATOR || defaultOperator(),
    sandboxProviderSecret: secretOfAtLeast32(env.SANDBOX_PROVIDER_SECRET, 'SANDBOX_PROVIDER_SECRET'),
  });
}

const DURATION_UNITS_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `1m,2m,4h` (units ms, s, m, h, d; a bare number is milliseconds) → milliseconds. */
export function durations(text: string, name: string): number[] {
  return text.split(',').map((part) => {
    const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(part);
    const ms = match ? Math.round(Number(match[1]) * DURATION_UNITS_MS[match[2] ?? 'ms']!) : NaN;
    if (!(ms > 0)) throw new Error(`${name} must be a comma-separated list of positive durations such as 1m,5m,2h`);
    return ms;
  });
}

function positiveInteger(text: string, name: string): number {
  const n = integer(text, name);
  if (n === 0) throw new Error(`${name} must be a positive integer`);
  return n;
}

/** PUBLIC_BASE_URL, else this host on the configured port. */
export function publicBaseUrlOf(config: Pick<Config, 'publicBaseUrl' | 'port'>): string {
  return config.publicBaseUrl ?? `http://localhost:${config.port}`;
}

function secretOfAtLeast32(value: string | undefined, name: string): string | null {
  if (!value) return null;
  if (value.length < 32) throw new Error(`${name} must be at least 32 characters`);
  return value;
}

function hostedPagesSecret(value: string | undefined): string | null {
  if (!value) return null;
  if (value.length < 32) throw new Error('HOSTED_PAGES_SECRET must be at least 32 characters');
  return value;
}

function positive(text: string, name: string): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a number above 0`);
  return n;
}

/** The OS account running the admin CLI, and where: `alice@ops-host`. */
function defaultOperator(): string {
  let user = 'unknown';
  try {
    user = os.userInfo().username;
  } catch {
    // no passwd entry (some containers)
  }
  return `${user}@${os.hostname()}`;
}

function integer(text: string, name: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer`);
  return n;
}

/**
 * JWT_SECRET, or JWT_SECRET_FILE. Production refuses to start without one; elsewhere a secret
 * is generated once and kept under ./data so tokens survive restarts.
 */
function jwtSecret(env: NodeJS.ProcessEnv, appEnv: AppEnv): string {
  if (env.JWT_SECRET) return env.JWT_SECRET;
  if (env.JWT_SECRET_FILE) return fs.readFileSync(env.JWT_SECRET_FILE, 'utf8').trim();
  if (appEnv === 'production') throw new Error('JWT_SECRET (or JWT_SECRET_FILE) is required in production');
  const file = path.resolve(env.DATA_DIR ?? './data', 'jwt-secret');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    const secret = crypto.randomBytes(48).toString('base64url');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    try {
      fs.writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
      return secret;
    } catch {
      return fs.readFileSync(file, 'utf8').trim(); // another process wrote it first
    }
  }
}
