import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  isPlainEmailAddress,
  parseSmtpUrl,
  TEXT_PROVIDERS,
  TWILIO_API_BASE_URL,
  type ChannelSettings,
  type TextProvider,
  type TwilioSettings,
} from '../../adapters/messaging/channel-settings';
import { parseSecretsKey } from '../../adapters/security/aes-gcm-secret-box';
import { DEFAULT_DUTY_CYCLE } from '../../adapters/clock/duty-cycle-pace';
import { CLUSTER_SCHEME, clusterNodes } from '../../adapters/redis/connection';
import { APP_ENVS, type AppEnv } from '../../internal/tenancy/credentials';

/**
 * The only reader of process.env: typed, frozen, checked at boot (decisions.md section 1).
 * The reminder channels (decisions.md section 7) are `ChannelSettings`: `smtpUrl`,
 * `remindersFromEmail`, `smsProvider`, `whatsappProvider`, `twilio`; `configuredSenders(config,
 * sandbox)` (adapters/messaging/configured-senders.ts) takes the config as it is.
 */
export interface Config extends ChannelSettings {
  port: number;
  host: string;
  databaseUrl: string;
  /** DATABASE_READ_URL: a read replica of DATABASE_URL for stale-tolerant reads (docs/operations.md#read-replica); null: none. */
  databaseReadUrl: string | null;
  /** REPLICA_MAX_LAG_SECONDS: a replica further behind than this is skipped. */
  replicaMaxLagSeconds: number;
  /** READ_YOUR_WRITES_MS: after a client's write, its reads go to the primary this long. */
  readYourWritesMs: number;
  /** REDIS_URL, or REDIS_CLUSTER_NODES as `redis-cluster://host:port,...`; null: in-process queue. */
  redisUrl: string | null;
  runWorkers: boolean;
  appEnv: AppEnv;
  /** PUBLIC_BASE_URL; null means http://localhost:<the port actually bound>. */
  publicBaseUrl: string | null;
  jwtSecret: string;
  /**
   * SECRETS_KEY / SECRETS_KEY_FILE: the keys that encrypt secrets at rest (webhook signing
   * secrets), newest first: the first encrypts, every one decrypts (key rotation).
   */
  secretsKeys: readonly Buffer[];
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
  /**
   * WEBHOOK_ALLOW_PRIVATE_URLS=true: webhook urls may reach loopback and private addresses (local
   * development and tests); refused in production. Otherwise the same address policy everywhere.
   */
  allowPrivateWebhookUrls: boolean;
  /** HOSTED_PAGES_SECRET: signs paymentUrls, enrollment URLs and form tokens; null derives one from the JWT secret. */
  hostedPagesSecret: string | null;
  /** Token bucket per API key when the organization has none of its own; capacity 0 turns limiting off. */
  rateLimitCapacity: number;
  rateLimitRefillPerSecond: number;
  /** When set, GET /metrics (and the worker's metrics listener) want `Authorization: Bearer <it>`. */
  metricsToken: string | null;
  /** Worker processes serve /metrics on this port when set (0 picks a free one). */
  metricsPort: number | null;
  /**
   * QUEUE_CONSOLE_WRITE=true: the queue console (bull-board at /queues on METRICS_PORT, with
   * REDIS_URL and METRICS_TOKEN) may retry, promote, clean and pause; otherwise it is read-only.
   */
  queueConsoleWrite: boolean;
  /** How long a SIGTERM may take (in-flight requests and jobs) before the process exits 1. */
  shutdownTimeoutMs: number;
  /**
   * SHUTDOWN_DELAY_MS: after SIGTERM the API answers /health/ready 503 at once and keeps serving
   * this long before it stops listening, so a load balancer's health checks take it out first.
   */
  shutdownDelayMs: number;
  /** The operator named in the audit log for admin CLI changes. */
  adminOperator: string;
  /**
   * TRUST_PROXY_HOPS: how many proxies in front append to X-Forwarded-For. 0: the client address
   * is the socket's and the header is ignored; N: the N-th entry from the right (docs/security.md).
   */
  trustProxyHops: number;
  /** SANDBOX_PROVIDER_SECRET: signs and checks the sandbox payment provider's notifications; null derives one from the JWT secret. */
  sandboxProviderSecret: string | null;
  /**
   * BACKGROUND_JOB_DUTY_CYCLE: the share of its run time a status sweep (overdue debts, expired
   * links and instructions, ended subscriptions) works through a backlog, pausing the rest between
   * its chunks; above 0, at most 1 (no pause).
   */
  backgroundJobDutyCycle: number;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Readonly<Config> {
  const port = integer(env.PORT ?? '3000', 'PORT');
  const appEnv = (env.APP_ENV ?? 'development') as AppEnv;
  if (!APP_ENVS.includes(appEnv)) throw new Error(`APP_ENV must be one of ${APP_ENVS.join(', ')}`);
  const databaseUrl = env.DATABASE_URL ?? 'sqlite:./data/collections.sqlite';
  const shutdownTimeoutMs = integer(env.SHUTDOWN_TIMEOUT_MS ?? '25000', 'SHUTDOWN_TIMEOUT_MS');
  const shutdownDelayMs = integer(env.SHUTDOWN_DELAY_MS ?? '0', 'SHUTDOWN_DELAY_MS');
  if (shutdownDelayMs >= shutdownTimeoutMs) throw new Error('SHUTDOWN_DELAY_MS must be below SHUTDOWN_TIMEOUT_MS (the delay is part of the shutdown deadline)');
  return Object.freeze({
    port,
    host: env.HOST ?? '0.0.0.0',
    databaseUrl,
    databaseReadUrl: databaseReadUrl(env.DATABASE_READ_URL, databaseUrl),
    replicaMaxLagSeconds: integer(env.REPLICA_MAX_LAG_SECONDS ?? '5', 'REPLICA_MAX_LAG_SECONDS'),
    readYourWritesMs: integer(env.READ_YOUR_WRITES_MS ?? '5000', 'READ_YOUR_WRITES_MS'),
    redisUrl: redisTarget(env),
    runWorkers: env.RUN_WORKERS === 'true',
    appEnv,
    publicBaseUrl: env.PUBLIC_BASE_URL ? env.PUBLIC_BASE_URL.replace(/\/+$/, '') : null,
    jwtSecret: jwtSecret(env, appEnv),
    secretsKeys: secretsKeys(env, appEnv),
    logLevel: env.LOG_LEVEL ?? 'info',
    migrateOnStart: env.MIGRATE_ON_START !== 'false',
    queuePrefix: env.QUEUE_PREFIX ?? 'cf',
    workerConcurrency: integer(env.WORKER_CONCURRENCY ?? '8', 'WORKER_CONCURRENCY'),
    credentialCacheMs: integer(env.CREDENTIAL_CACHE_MS ?? '2000', 'CREDENTIAL_CACHE_MS'),
    webhookRetryDelaysMs: env.WEBHOOK_RETRY_DELAYS ? durations(env.WEBHOOK_RETRY_DELAYS, 'WEBHOOK_RETRY_DELAYS') : undefined,
    webhookDispatchEveryMs: positiveInteger(env.WEBHOOK_DISPATCH_EVERY_MS ?? '1000', 'WEBHOOK_DISPATCH_EVERY_MS'),
    allowPrivateWebhookUrls: allowPrivateWebhookUrls(env.WEBHOOK_ALLOW_PRIVATE_URLS, appEnv),
    hostedPagesSecret: hostedPagesSecret(env.HOSTED_PAGES_SECRET),
    rateLimitCapacity: integer(env.RATE_LIMIT_CAPACITY ?? '200', 'RATE_LIMIT_CAPACITY'),
    rateLimitRefillPerSecond: positive(env.RATE_LIMIT_REFILL_PER_SECOND ?? '100', 'RATE_LIMIT_REFILL_PER_SECOND'),
    metricsToken: env.METRICS_TOKEN || null,
    metricsPort: env.METRICS_PORT ? integer(env.METRICS_PORT, 'METRICS_PORT') : null,
    queueConsoleWrite: strictBoolean(env.QUEUE_CONSOLE_WRITE, 'QUEUE_CONSOLE_WRITE'),
    shutdownTimeoutMs,
    shutdownDelayMs,
    adminOperator: env.ADMIN_OPERATOR || defaultOperator(),
    trustProxyHops: integer(env.TRUST_PROXY_HOPS ?? '0', 'TRUST_PROXY_HOPS'),
    sandboxProviderSecret: secretOfAtLeast32(env.SANDBOX_PROVIDER_SECRET, 'SANDBOX_PROVIDER_SECRET'),
    backgroundJobDutyCycle: dutyCycle(env.BACKGROUND_JOB_DUTY_CYCLE ?? String(DEFAULT_DUTY_CYCLE), 'BACKGROUND_JOB_DUTY_CYCLE'),
    ...channelSettings(env, appEnv),
  });
}

/**
 * SMTP_URL, REMINDERS_FROM_EMAIL, SMS_PROVIDER, WHATSAPP_PROVIDER and TWILIO_* (decisions.md
 * section 7, docs/reminders.md). A provider that cannot work refuses to start, naming the
 * variable; no message repeats a value (SMTP_URL holds a password, TWILIO_AUTH_TOKEN is one).
 */
export function channelSettings(env: NodeJS.ProcessEnv, appEnv: AppEnv): ChannelSettings {
  const smtpUrl = env.SMTP_URL || null;
  if (smtpUrl !== null) parseSmtpUrl(smtpUrl); // throws a message that names SMTP_URL, never its value
  const remindersFromEmail = env.REMINDERS_FROM_EMAIL || null;
  if (remindersFromEmail !== null && !isPlainEmailAddress(remindersFromEmail)) {
    throw new Error('REMINDERS_FROM_EMAIL must be a plain address such as recordatorios@example.com');
  }
  if (smtpUrl !== null && remindersFromEmail === null) throw new Error('SMTP_URL needs REMINDERS_FROM_EMAIL (the From address of reminder emails)');
  const smsProvider = textProvider(env.SMS_PROVIDER, 'SMS_PROVIDER');
  const whatsappProvider = textProvider(env.WHATSAPP_PROVIDER, 'WHATSAPP_PROVIDER');
  const twilio = smsProvider === 'twilio' || whatsappProvider === 'twilio' ? twilioSettings(env, appEnv, smsProvider, whatsappProvider) : null;
  return { smtpUrl, remindersFromEmail, smsProvider, whatsappProvider, twilio };
}

function textProvider(value: string | undefined, name: string): TextProvider {
  if (value === undefined || value === '') return 'sandbox';
  if (!(TEXT_PROVIDERS as readonly string[]).includes(value)) throw new Error(`${name} must be one of ${TEXT_PROVIDERS.join(', ')}`);
  return value as TextProvider;
}

const E164 = /^\+[1-9]\d{6,14}$/;

function twilioSettings(env: NodeJS.ProcessEnv, appEnv: AppEnv, sms: TextProvider, whatsapp: TextProvider): TwilioSettings {
  const using = [sms === 'twilio' ? 'SMS_PROVIDER' : null, whatsapp === 'twilio' ? 'WHATSAPP_PROVIDER' : null].filter(Boolean).join(' and ');
  const accountSid = env.TWILIO_ACCOUNT_SID ?? '';
  const authToken = env.TWILIO_AUTH_TOKEN ?? '';
  if (!accountSid || !authToken) throw new Error(`${using}=twilio needs TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN`);
  if (!/^AC[0-9a-fA-F]{32}$/.test(accountSid)) throw new Error('TWILIO_ACCOUNT_SID must be AC followed by 32 hexadecimal characters');
  let from: string | null = null;
  if (sms === 'twilio') {
    from = env.TWILIO_FROM ?? '';
    if (!from) throw new Error('SMS_PROVIDER=twilio needs TWILIO_FROM (the sending number, +E.164, or a Messaging Service SID MG…)');
    if (!E164.test(from) && !/^MG[0-9a-fA-F]{32}$/.test(from)) throw new Error('TWILIO_FROM must be a number in E.164 form (+5215512345678) or a Messaging Service SID (MG…)');
  }
  let whatsappFrom: string | null = null;
  if (whatsapp === 'twilio') {
    whatsappFrom = env.TWILIO_WHATSAPP_FROM ?? '';
    if (!whatsappFrom) throw new Error('WHATSAPP_PROVIDER=twilio needs TWILIO_WHATSAPP_FROM (the WhatsApp sender, +E.164)');
    if (!E164.test(whatsappFrom.replace(/^whatsapp:/, ''))) throw new Error('TWILIO_WHATSAPP_FROM must be a number in E.164 form (+14155238886), with or without whatsapp:');
  }
  const apiBaseUrl = (env.TWILIO_API_BASE_URL || TWILIO_API_BASE_URL).replace(/\/+$/, '');
  let base: URL | null = null;
  try {
    base = new URL(apiBaseUrl);
  } catch {
    // reported below
  }
  if (!base || (base.protocol !== 'https:' && base.protocol !== 'http:') || base.username || base.password || (base.pathname !== '/' && base.pathname !== '')) {
    throw new Error('TWILIO_API_BASE_URL must be an http(s) origin such as https://api.twilio.com');
  }
  if (appEnv === 'production' && base.protocol !== 'https:') throw new Error('TWILIO_API_BASE_URL must be https in production');
  return { accountSid, authToken, from, whatsappFrom, apiBaseUrl };
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

/** A replica only for a MySQL/MariaDB or PostgreSQL primary, and on the same engine. */
function databaseReadUrl(value: string | undefined, databaseUrl: string): string | null {
  if (!value) return null;
  const engine = (url: string) => (url.startsWith('mysql://') ? 'mysql' : url.startsWith('postgres://') || url.startsWith('postgresql://') ? 'postgres' : null);
  if (engine(value) === null || engine(value) !== engine(databaseUrl)) {
    throw new Error('DATABASE_READ_URL needs mysql:// URLs for it and DATABASE_URL (a MariaDB/MySQL replica), or postgres:// URLs for both (a PostgreSQL standby)');
  }
  return value;
}

/**
 * REDIS_URL (one Redis) or REDIS_CLUSTER_NODES (`host:port,host:port,...`, seed nodes of a Redis
 * Cluster), never both. A cluster is carried as `redis-cluster://<the nodes>` (REDIS_URL may
 * also be written that way); the queue prefix then becomes a hash tag (adapters/redis/connection.ts).
 */
function redisTarget(env: NodeJS.ProcessEnv): string | null {
  const nodes = env.REDIS_CLUSTER_NODES?.trim();
  if (!nodes) return env.REDIS_URL || null;
  if (env.REDIS_URL) throw new Error('set REDIS_URL (one Redis) or REDIS_CLUSTER_NODES (a Redis Cluster), not both');
  const url = `${CLUSTER_SCHEME}${nodes.replace(/\s+/g, '')}`;
  clusterNodes(url); // checks every node is host:port
  return url;
}

/**
 * A security switch is read strictly (`true` or `false`, not "yes" or a typo read as false), and
 * production refuses it: a production webhook must never reach the network the service runs in.
 */
function allowPrivateWebhookUrls(value: string | undefined, appEnv: AppEnv): boolean {
  if (value === undefined || value === '' || value === 'false') return false;
  if (value !== 'true') throw new Error('WEBHOOK_ALLOW_PRIVATE_URLS must be true or false');
  if (appEnv === 'production') throw new Error('WEBHOOK_ALLOW_PRIVATE_URLS=true is refused in production (local development and tests only)');
  return true;
}

/** `true` or `false` (unset or empty: false); anything else is refused rather than read as false. */
function strictBoolean(value: string | undefined, name: string): boolean {
  if (value === undefined || value === '' || value === 'false') return false;
  if (value !== 'true') throw new Error(`${name} must be true or false`);
  return true;
}

function positiveInteger(text: string, name: string): number {
  const n = integer(text, name);
  if (n === 0) throw new Error(`${name} must be a positive integer`);
  return n;
}

/**
 * Whether GET /metrics is served on the API port. It tells the Node version, per-route rates,
 * queue and webhook counts: in production only behind METRICS_TOKEN. Without the token a
 * production API does not mount it there (404 like any unknown path; METRICS_PORT, an internal
 * listener, is then the way to scrape it). Elsewhere it is served, with the token when one is set.
 */
export function metricsOnApiPort(config: Pick<Config, 'appEnv' | 'metricsToken'>): boolean {
  return config.appEnv !== 'production' || config.metricsToken !== null;
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

function dutyCycle(text: string, name: string): number {
  const n = positive(text, name);
  if (n > 1) throw new Error(`${name} must be above 0 and at most 1`);
  return n;
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
  return generatedOnce(path.resolve(env.DATA_DIR ?? './data', 'jwt-secret'), () => crypto.randomBytes(48).toString('base64url'));
}

/**
 * SECRETS_KEY (one key, or several separated by commas, newest first), or SECRETS_KEY_FILE (the
 * same, commas or one per line). Each is 32 random bytes, base64 or 64 hex characters.
 * Production refuses to start without one; elsewhere a key is generated once into DATA_DIR, so
 * what it encrypted stays readable across restarts.
 */
function secretsKeys(env: NodeJS.ProcessEnv, appEnv: AppEnv): Buffer[] {
  let text: string;
  let name: string;
  if (env.SECRETS_KEY) [text, name] = [env.SECRETS_KEY, 'SECRETS_KEY'];
  else if (env.SECRETS_KEY_FILE) [text, name] = [fs.readFileSync(env.SECRETS_KEY_FILE, 'utf8'), 'SECRETS_KEY_FILE'];
  else if (appEnv === 'production') throw new Error('SECRETS_KEY (or SECRETS_KEY_FILE) is required in production');
  else [text, name] = [generatedOnce(path.resolve(env.DATA_DIR ?? './data', 'secrets-key'), () => crypto.randomBytes(32).toString('base64')), 'the generated secrets key'];
  const keys = text
    .split(/[\s,]+/)
    .filter((part) => part !== '')
    .map((part) => parseSecretsKey(part, name));
  if (keys.length === 0) throw new Error(`${name} must hold at least one key`);
  return keys.filter((key, i) => keys.findIndex((other) => other.equals(key)) === i);
}

/**
 * A development secret kept in `file` (owner-only, in an owner-only directory), made by `make` the
 * first time; when processes start together, the first one's wins.
 */
function generatedOnce(file: string, make: () => string): string {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const secret = make();
    try {
      fs.writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
      return secret;
    } catch {
      return fs.readFileSync(file, 'utf8').trim(); // another process wrote it first
    }
  }
}
