import crypto from 'node:crypto';
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino, { type Logger } from 'pino';
import supertest from 'supertest';
import type { AuthLimits } from '../../adapters/http/middleware/login-throttle';
import { InProcessTokenBucket } from '../../adapters/rate-limit/in-process-token-bucket';
import type { RateLimitPolicy } from '../../ports/rate-limiter';
import type { Application } from '../../internal/application';
import type { CompanySettings } from '../../internal/tenancy/company';
import { durations } from '../../cmd/shared/config';
import type { Infrastructure } from '../../cmd/shared/infrastructure';
import { startApiProcess } from '../../cmd/shared/api-process';
import { checkTallies } from './tally-check';
import { createTestDatabase, databaseAvailable, type DatabaseKind, deleteRedisKeys, redisAvailable, TEST_REDIS_URL, type TestDatabase } from './databases';
import { conformanceMiddleware } from './openapi-conformance';
import { SwitchableJobQueue } from './switchable-queue';
import { startWorkerProcess, type WorkerProcess } from './worker-process';
import { TEST_SECRETS_KEY, TEST_SECRETS_KEYS } from './secrets';

export const JWT_TEST_SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';

/**
 * Webhook delivery for a suite, as the api and worker processes run it: `retryDelays` in the
 * WEBHOOK_RETRY_DELAYS format (a short schedule), the dispatch every `dispatchEveryMs`.
 */
export interface WebhookHarnessOptions {
  retryDelays: string;
  dispatchEveryMs: number;
}

/**
 * The harness's default rate limit: on (every facade answer carries the RateLimit headers, on
 * the Redis limiter in the worker leg) but far above what any suite sends; rate-limit suites
 * set low limits per organization.
 */
export const TEST_RATE_LIMIT: RateLimitPolicy = { capacity: 100_000, refillPerSecond: 100_000 };

export interface Tenant {
  organizationId: number;
  clientUsername: string;
  password: string;
  apiKey: string;
  loginApiKey: string;
  accessToken: string;
  refreshToken: string;
  companyCodes: string[];
  /** The two credential headers every resource route needs. */
  headers: Record<string, string>;
}

export interface ApiHarness {
  kind: DatabaseKind;
  infra: Infrastructure;
  app: Application;
  server: Server;
  /** PUBLIC_BASE_URL of this API: http://localhost:3000, or the server's own address with `realBaseUrl`. */
  baseUrl: string;
  /** supertest agent bound to the running server. */
  http: supertest.Agent;
  /** The database and queue prefix of this API, for processes a test starts beside it (workers). */
  databaseUrl: string;
  queuePrefix: string;
  /** `organization` names it (and its company, when no companies are given); default `Org <random>`. */
  newTenant(options?: { companies?: string[]; settings?: Partial<CompanySettings>; organization?: string }): Promise<Tenant>;
  /** Resolves when every job enqueued so far has run (in-process queue, or the worker process). */
  drainJobs(): Promise<void>;
  /** The API's queue: `queue.down = true` makes its enqueue fail (Redis away for the API). */
  queue: SwitchableJobQueue;
  /** Whether a worker process runs the jobs (and its periodic outbox dispatcher). */
  withWorker: boolean;
  close(): Promise<void>;
}

/**
 * The whole API over a fresh database of its own (SQLite file or a `test_…` MySQL or PostgreSQL database),
 * migrated, listening on an ephemeral port. One per test file.
 */
export async function startApi(
  kind: DatabaseKind,
  options: {
    appEnv?: 'development' | 'production';
    /** Start the worker process (on `redisUrl`, else the shared test Redis). */
    worker?: boolean;
    /** BullMQ on this Redis; with neither this nor `worker`, jobs run in this process. */
    redisUrl?: string;
    webhooks?: WebhookHarnessOptions;
    /** paymentUrls on the server's own address (browser tests follow them); else http://localhost:3000. */
    realBaseUrl?: boolean;
    /** The hosted pages' lookup limit per client address (default: the production one). */
    pageLookupLimit?: RateLimitPolicy;
    /** The public-link-by-identifier limit per client address (default: the production one). */
    identifierLookupLimit?: RateLimitPolicy;
    rateLimitDefaults?: RateLimitPolicy | null;
    metricsToken?: string;
    /**
     * WEBHOOK_ALLOW_PRIVATE_URLS for this API and its worker. The suites' receivers listen on
     * 127.0.0.1, so the harness opts in (outside production) unless a test says false to see
     * the policy every deployment runs with.
     */
    allowPrivateWebhookUrls?: boolean;
    /**
     * TRUST_PROXY_HOPS. Default 1: the harness stands in for the one proxy in front of the API, so
     * a test client chooses its address with X-Forwarded-For (each page client has its own). The
     * server's own default is 0; the security reliability tests run that too.
     */
    trustProxyHops?: number;
    /** /auth's buckets and hashing bound (default: the server's DEFAULT_AUTH_LIMITS). */
    authLimits?: Partial<AuthLimits>;
    /** The server's logger (default: silent, or TEST_LOG_LEVEL on stdout). */
    logger?: Logger;
  } = {},
): Promise<ApiHarness> {
  const redisUrl = options.redisUrl ?? (options.worker ? TEST_REDIS_URL : null);
  const database: TestDatabase = await createTestDatabase(kind);
  // Listening first tells the port, so paymentUrls can name the server itself.
  const server = http.createServer();
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const baseUrl = options.realBaseUrl ? `http://127.0.0.1:${(server.address() as AddressInfo).port}` : 'http://localhost:3000';
  const queuePrefix = `test-${crypto.randomBytes(4).toString('hex')}`;
  const appEnv = options.appEnv ?? 'development';
  const allowPrivateWebhookUrls = options.allowPrivateWebhookUrls ?? appEnv !== 'production';
  const rateLimitDefaults = options.rateLimitDefaults === undefined ? TEST_RATE_LIMIT : options.rateLimitDefaults;
  // The API process as `npm start` composes it (cmd/shared/api-process.ts), with the test's settings.
  const queue = new SwitchableJobQueue();
  const api = await startApiProcess(
    {
      databaseUrl: database.url,
      redisUrl,
      queuePrefix,
      jwtSecret: JWT_TEST_SECRET,
      secretsKeys: TEST_SECRETS_KEYS,
      appEnv,
      migrateOnStart: true,
      publicBaseUrl: baseUrl,
      webhookRetryDelaysMs: options.webhooks && durations(options.webhooks.retryDelays, 'retryDelays'),
      allowPrivateWebhookUrls,
      // With `worker`, the worker process runs the jobs (and the webhook dispatch); else this one does.
      runWorkers: false,
      webhookDispatchEveryMs: options.webhooks?.dispatchEveryMs ?? 1000,
      rateLimitCapacity: rateLimitDefaults?.capacity ?? 0,
      rateLimitRefillPerSecond: rateLimitDefaults?.refillPerSecond ?? 1,
      metricsToken: options.metricsToken ?? null,
      trustProxyHops: options.trustProxyHops ?? 1,
    },
    {
      logger: options.logger ?? pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
      // Tests run the outbox dispatch and the sweeps when they mean to; webhooks go out on their own only when asked.
      periodicJobs: false,
      webhookDispatcher: !!options.webhooks,
      wrapQueue: (inner) => {
        queue.inner = inner;
        return queue;
      },
      pages: { rateLimiter: new InProcessTokenBucket(), lookupLimit: options.pageLookupLimit, identifierLookupLimit: options.identifierLookupLimit },
      authLimits: options.authLimits,
      // Every answer is held to /openapi.json (test/support/openapi-conformance.ts).
      outerMiddleware: [conformanceMiddleware({ testHelpers: appEnv !== 'production' })],
    },
  );
  const { infra, app } = api;
  api.serve(server);
  const agent = supertest.agent(server);
  // With `worker`, jobs go through BullMQ on Redis to the real worker entrypoint, a process of its own.
  const webhookEnv: Record<string, string> = {
    WEBHOOK_ALLOW_PRIVATE_URLS: String(allowPrivateWebhookUrls),
    ...(options.webhooks ? { WEBHOOK_RETRY_DELAYS: options.webhooks.retryDelays, WEBHOOK_DISPATCH_EVERY_MS: String(options.webhooks.dispatchEveryMs) } : {}),
  };
  const worker: WorkerProcess | null = options.worker
    ? await startWorkerProcess({ DATABASE_URL: database.url, REDIS_URL: redisUrl!, QUEUE_PREFIX: queuePrefix, JWT_SECRET: JWT_TEST_SECRET, SECRETS_KEY: TEST_SECRETS_KEY, ...webhookEnv })
    : null;

  return {
    kind,
    infra,
    app,
    server,
    baseUrl,
    http: agent,
    queue,
    withWorker: worker !== null,
    databaseUrl: database.url,
    queuePrefix,
    async newTenant(tenantOptions = {}) {
      const suffix = crypto.randomBytes(6).toString('hex');
      const password = `pw-${suffix}-secret`;
      const created = await app.commands.createClient.execute({
        organization: tenantOptions.organization ?? `Org ${suffix}`,
        username: `user_${suffix}`,
        password,
        companies: tenantOptions.companies?.map((c) => `${c}-${suffix}`.toUpperCase()) ?? [],
        settings: tenantOptions.settings ?? {},
      });
      // Each tenant's integrator logs in from an address of its own (/auth's buckets are per address).
      const login = await agent
        .post('/auth/login')
        .set('X-Forwarded-For', randomAddress())
        .set('x-api-key', created.loginApiKey)
        .send({ clientUsername: created.clientUsername, password });
      if (login.status !== 200) throw new Error(`login failed: ${login.status} ${JSON.stringify(login.body)}`);
      return {
        organizationId: created.organizationId,
        clientUsername: created.clientUsername,
        password,
        apiKey: created.apiKey,
        loginApiKey: created.loginApiKey,
        accessToken: login.body.accessToken,
        refreshToken: login.body.refreshToken,
        companyCodes: created.companies.map((c) => c.companyCode),
        headers: { 'x-api-key': created.apiKey, 'x-authorization-token': login.body.accessToken },
      };
    },
    async drainJobs() {
      if (infra.jobs.inProcess) return infra.jobs.inProcess.drain();
      await waitForIdleQueue(infra, worker);
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await worker?.stop();
      await infra.jobs.bullmq?.queue.obliterate({ force: true }).catch(() => undefined);
      if (options.worker) await deleteRedisKeys(TEST_REDIS_URL, `${queuePrefix}:rate-limit:*`);
      // A job a test did not wait for (a subscription's generation, a webhook fan-out) finishes
      // before the tallies are read (the reads share one snapshot, so a later one cannot race them).
      await infra.jobs.inProcess?.drain();
      // Whatever the suite did to the debts, contacts, links and events, every tally still equals COUNT(*).
      if (infra.db) await checkTallies(infra.db);
      await api.close();
      await database.drop();
    },
  };
}

/** A client address of the documentation range 198.18.0.0/15 (benchmarking), random. */
export function randomAddress(): string {
  const b = crypto.randomBytes(3);
  return `198.${18 + (b[0]! & 1)}.${b[1]}.${b[2]}`;
}

/**
 * Declares the same HTTP suite once per database: the embedded SQLite default, MySQL (MariaDB
 * here) and PostgreSQL. The MySQL and PostgreSQL legs skip when no server answers, except under
 * CI=true. The worker-process leg runs on MySQL only.
 */
export function describeEachDatabase(
  title: string,
  suite: (ctx: { api: () => ApiHarness }) => void,
  options: { withWorker?: boolean; webhooks?: WebhookHarnessOptions } = {},
): void {
  const legs: { label: string; kind: DatabaseKind; worker: boolean }[] = [
    { label: 'sqlite', kind: 'sqlite', worker: false },
    { label: 'mysql', kind: 'mysql', worker: false },
    { label: 'postgres', kind: 'postgres', worker: false },
    ...(options.withWorker ? [{ label: 'mysql + redis + worker process', kind: 'mysql' as const, worker: true }] : []),
  ];
  for (const { label, kind, worker } of legs) {
    describe(`${title} [${label}]`, function () {
      this.timeout(30_000);
      let harness: ApiHarness | null = null;
      before(async function () {
        this.timeout(60_000);
        if (!(await databaseAvailable(kind))) this.skip();
        if (worker && !(await redisAvailable())) this.skip();
        harness = await startApi(kind, { worker, webhooks: options.webhooks });
      });
      after(async () => {
        await harness?.close();
      });
      suite({
        api: () => {
          if (!harness) throw new Error('harness not started');
          return harness;
        },
      });
    });
  }
}

/** Until nothing is waiting or running on the queue and the outbox has handed everything over. */
async function waitForIdleQueue(infra: Infrastructure, worker: WorkerProcess | null): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const { waiting, active, prioritized, 'waiting-children': waitingChildren } = await infra.jobs.consumer.counts();
    const counts = { waiting, active, prioritized, 'waiting-children': waitingChildren };
    const pending = await infra.ports.repos.outbox.pending(1);
    if (Object.values(counts).every((n) => n === 0) && pending.length === 0) return;
    worker?.assertAlive();
    if (Date.now() > deadline) throw new Error(`jobs still pending after 20 s: ${JSON.stringify(counts)}\n${worker?.output() ?? ''}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
