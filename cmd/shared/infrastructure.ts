import type { Knex } from 'knex';
import type { CorePorts } from '../../internal/application';
import { ACCESS_TOKEN_TTL_SECONDS, type AppEnv } from '../../internal/tenancy/credentials';
import type { ReadinessCheck } from '../../adapters/http/routes/health.routes';
import { FixedClock } from '../../adapters/clock/fixed-clock';
import { eventWriting, webhookTestEvents } from '../../adapters/events/event-renderer';
import { HostedPaymentPortal } from '../../adapters/gateways/hosted-payment-portal';
import { SimulatedDirectDebitGateway } from '../../adapters/gateways/simulated-direct-debit-gateway';
import { SandboxPaymentProcessor } from '../../adapters/gateways/sandbox-payment-processor';
import { SandboxPaymentInstructionProvider } from '../../adapters/gateways/sandbox-payment-instruction-provider';
import { PageSigner } from '../../adapters/security/page-signer';
import { DEFAULT_DUTY_CYCLE, DutyCyclePace } from '../../adapters/clock/duty-cycle-pace';
import { SystemClock } from '../../adapters/clock/system-clock';
import { RandomIdGenerator } from '../../adapters/ids/random-id-generator';
import { migrateLatest, openKnex } from '../../adapters/persistence/knex/connection';
import { KnexUnitOfWork, knexRepositories } from '../../adapters/persistence/knex/knex-unit-of-work';
import { resealWebhookSecrets } from '../../adapters/persistence/knex/knex-webhook-endpoint-repository';
import { AesGcmSecretBox } from '../../adapters/security/aes-gcm-secret-box';
import { CredentialCache } from '../../adapters/persistence/credential-cache';
import { MemoryStore } from '../../adapters/persistence/memory/memory-store';
import { MemoryUnitOfWork, memoryRepositories } from '../../adapters/persistence/memory/memory-unit-of-work';
import { BullmqJobQueue, type BullmqQueueAccess } from '../../adapters/queue/bullmq/bullmq-job-queue';
import { BullmqJobConsumer } from '../../adapters/queue/bullmq/bullmq-job-consumer';
import { InProcessJobQueue } from '../../adapters/queue/in-process/in-process-job-queue';
import { JwtTokenService } from '../../adapters/security/jwt-token-service';
import { ScryptPasswordHasher } from '../../adapters/security/scrypt-password-hasher';
import { Sha256SecretHasher } from '../../adapters/security/sha256-secret-hasher';
import { HttpWebhookSender } from '../../adapters/webhooks/http-webhook-sender';
import { NetworkUrlPolicy } from '../../adapters/webhooks/network-url-policy';
import { DEFAULT_RETRY_DELAYS_MS } from '../../internal/webhooks/retry-schedule';
import { InProcessTokenBucket } from '../../adapters/rate-limit/in-process-token-bucket';
import { RedisTokenBucket } from '../../adapters/rate-limit/redis-token-bucket';
import type { JobQueue } from '../../ports/job-queue';
import type { JobConsumer } from '../../ports/job-consumer';
import type { MessageSenders } from '../../ports/message-sender';
import type { Repositories } from '../../ports/unit-of-work';
import type { Clock } from '../../ports/clock';
import type { IdGenerator } from '../../ports/id-generator';
import type { ChannelSettings } from '../../adapters/messaging/channel-settings';
import { type ConfiguredSenders, configuredSenders } from '../../adapters/messaging/configured-senders';
import { sandboxMessageSenders } from '../../adapters/messaging/sandbox-message-senders';
import { PRIMARY_ONLY, type ReadRouter } from '../../ports/read-router';
import { InProcessRecentWrites, RedisRecentWrites, ReplicaReadRouting } from '../../adapters/persistence/knex/read-routing';
import { openRedis } from '../../adapters/redis/connection';
import type { RateLimiter } from '../../ports/rate-limiter';
import type { SecretBox } from '../../ports/secret-box';

/** Real or in-memory adapters behind the same ports: the single seam tests swap. */
export interface Infrastructure {
  ports: CorePorts;
  db: Knex | null;
  /** The consumer side of the job queue (the producer is `ports.queue`), and what only one adapter has. */
  jobs: InfrastructureJobs;
  readinessChecks: ReadinessCheck[];
  /** The hosted pages every paymentUrl points at (HTTP answers and events render with it). */
  paymentPortal: HostedPaymentPortal;
  /** Signs and checks the hosted pages' URLs and form tokens. */
  pageSigner: PageSigner;
  /** Token buckets per API key: Redis with REDIS_URL (shared by every API process), else this process's memory. */
  rateLimiter: RateLimiter;
  /** Where an API request's reads go (DATABASE_READ_URL); PRIMARY_ONLY without a replica. */
  readRouter: ReadRouter;
  /** The replica routing and its lag monitor, with DATABASE_READ_URL. */
  replica: ReplicaReadRouting | null;
  close(): Promise<void>;
}

/**
 * Jobs, by port: the consumer runs them in whichever process starts it (`start(handlers,
 * schedules)`, once the application exists). Two narrow capabilities name what one adapter alone
 * has, for the few callers that need it.
 */
export interface InfrastructureJobs {
  consumer: JobConsumer;
  /**
   * Set when jobs run in this process (no REDIS_URL: producer and consumer are one in-process
   * queue, and run nothing until the consumer is started). `drain()` resolves once every job
   * enqueued so far, and every job those enqueued, has run (tests, the admin CLI).
   */
  inProcess: { drain(): Promise<void> } | null;
  /** Set with REDIS_URL: the BullMQ Queue (the queue console; tests inspecting job states) and the waiting age (metrics). */
  bullmq: BullmqQueueAccess | null;
}

export interface InfrastructureOptions extends Partial<ChannelSettings> {
  databaseUrl: string;
  redisUrl: string | null;
  queuePrefix: string;
  jwtSecret: string;
  /** SECRETS_KEY: the keys sealing secrets at rest, newest first (the first seals). */
  secretsKeys: readonly Buffer[];
  appEnv: AppEnv;
  /** Apply migrations first, then encrypt what is still plaintext (see migrateDatabase). */
  migrate: boolean;
  /** Base of every paymentUrl and hosted page. */
  publicBaseUrl: string;
  poolMax?: number;
  /** DATABASE_READ_URL and its settings: stale-tolerant API reads go there (docs/operations.md#read-replica). */
  readReplica?: { url: string; maxLagSeconds: number; readYourWritesMs: number } | null;
  /** How long a facade credential lookup is reused in this process (0 disables the cache). */
  credentialCacheMs?: number;
  /** WORKER_CONCURRENCY: jobs the BullMQ consumer of this process runs at once, once started (default 8). */
  workerConcurrency?: number;
  /** Waits between failed webhook attempts (WEBHOOK_RETRY_DELAYS); the three-day default otherwise. */
  webhookRetryDelaysMs?: readonly number[];
  /** WEBHOOK_ALLOW_PRIVATE_URLS: webhook urls may reach loopback and private addresses (default: refused). */
  allowPrivateWebhookUrls?: boolean;
  /** HOSTED_PAGES_SECRET; absent: a key derived from the JWT secret (every process derives the same). */
  hostedPagesSecret?: string | null;
  /** SANDBOX_PROVIDER_SECRET: signs the sandbox provider's notifications; absent: derived from the JWT secret. */
  sandboxProviderSecret?: string | null;
  /** BACKGROUND_JOB_DUTY_CYCLE: the share of its run time a status sweep works through a backlog (default 0.5). */
  backgroundJobDutyCycle?: number;
}

/** The base URL of the memory infrastructure's portal. */
export const MEMORY_PUBLIC_BASE_URL = 'http://localhost:3000';

/** Disabling a client or rotating a key reaches other processes within this time. */
export const DEFAULT_CREDENTIAL_CACHE_MS = 2000;

export async function openInfrastructure(options: InfrastructureOptions): Promise<Infrastructure> {
  const db = openKnex(options.databaseUrl, { poolMax: options.poolMax });
  const credentialCache = new CredentialCache(options.credentialCacheMs ?? DEFAULT_CREDENTIAL_CACHE_MS);
  const secrets = new AesGcmSecretBox(options.secretsKeys);
  if (options.migrate) await migrateDatabase(db, secrets);
  const jobQueue = openJobQueue(options);
  const readinessChecks: ReadinessCheck[] = [{ name: 'database', check: async () => void (await db.raw('select 1')) }];
  if (jobQueue.ping) readinessChecks.push({ name: 'redis', check: jobQueue.ping });
  const common = commonPorts(options);
  const pageSigner = pageSignerOf(options);
  const paymentPortal = new HostedPaymentPortal(options.publicBaseUrl, pageSigner);
  const rateLimiter: RateLimiter = options.redisUrl ? new RedisTokenBucket(options.redisUrl, { prefix: options.queuePrefix }) : new InProcessTokenBucket();
  const repositoryOptions = { cache: credentialCache, events: eventWriting(paymentPortal, common.ids), secrets };
  const replica = options.readReplica ? await openReplica(options.readReplica, db, options) : null;
  // Reads outside units of work follow the read routing (the sandbox sender writes from jobs, on the primary).
  const repos = knexRepositories(replica?.db ?? db, repositoryOptions);
  const senders = messageSenders(repos, common.clock, common.ids, channelSettingsOf(options));
  return {
    ports: {
      // Units of work always run on the primary.
      uow: new KnexUnitOfWork(db, repositoryOptions),
      repos,
      ...common,
      queue: jobQueue.producer,
      senders,
      reminderLinks: paymentPortal,
    },
    db,
    jobs: jobQueue.jobs,
    readinessChecks,
    paymentPortal,
    pageSigner,
    rateLimiter,
    readRouter: replica ?? PRIMARY_ONLY,
    replica,
    async close() {
      await jobQueue.close();
      await rateLimiter.close();
      await replica?.close();
      await senders.close();
      await db.destroy();
    },
  };
}

/** Everything in memory: for domain and use-case tests, and the memory leg of the contract suite. */
export function memoryInfrastructure(
  options: { clock?: FixedClock | SystemClock; appEnv?: AppEnv; webhookRetryDelaysMs?: readonly number[]; allowPrivateWebhookUrls?: boolean } = {},
): Infrastructure {
  const store = new MemoryStore();
  const inProcessQueue = new InProcessJobQueue();
  const jwtSecret = 'memory-infrastructure-secret-0123456789abcdef';
  const common = commonPorts({
    jwtSecret,
    appEnv: options.appEnv ?? 'development',
    webhookRetryDelaysMs: options.webhookRetryDelaysMs,
    allowPrivateWebhookUrls: options.allowPrivateWebhookUrls,
  });
  const pageSigner = pageSignerOf({ jwtSecret });
  const paymentPortal = new HostedPaymentPortal(MEMORY_PUBLIC_BASE_URL, pageSigner);
  const events = eventWriting(paymentPortal, common.ids);
  const repos = memoryRepositories(store, events);
  const clock = options.clock ?? common.clock;
  return {
    ports: {
      uow: new MemoryUnitOfWork(store, events),
      repos,
      ...common,
      clock,
      queue: inProcessQueue,
      senders: messageSenders(repos, clock, common.ids, null),
      reminderLinks: paymentPortal,
    },
    db: null,
    jobs: { consumer: inProcessQueue, inProcess: inProcessQueue, bullmq: null },
    readinessChecks: [],
    paymentPortal,
    pageSigner,
    rateLimiter: new InProcessTokenBucket(),
    readRouter: PRIMARY_ONLY,
    replica: null,
    close: () => inProcessQueue.close(),
  };
}

/**
 * BullMQ with REDIS_URL (the consumer opens its worker connection only when started), else the
 * in-process queue, producer and consumer at once.
 */
function openJobQueue(options: Pick<InfrastructureOptions, 'redisUrl' | 'queuePrefix' | 'workerConcurrency'>): {
  producer: JobQueue;
  jobs: InfrastructureJobs;
  ping: (() => Promise<void>) | null;
  close(): Promise<void>;
} {
  if (!options.redisUrl) {
    const queue = new InProcessJobQueue();
    return { producer: queue, jobs: { consumer: queue, inProcess: queue, bullmq: null }, ping: null, close: () => queue.close() };
  }
  const producer = new BullmqJobQueue(options.redisUrl, options.queuePrefix);
  const consumer = new BullmqJobConsumer({ redisUrl: options.redisUrl, prefix: options.queuePrefix, concurrency: options.workerConcurrency ?? 8, queue: producer.queue });
  return {
    producer,
    jobs: { consumer, inProcess: null, bullmq: producer },
    ping: () => producer.ping(),
    async close() {
      await consumer.close();
      await producer.close();
    },
  };
}

/**
 * The replica's Knex and the routing over it. Read-your-writes windows live in Redis when there is
 * one (every API process sees a client's write), else in this process.
 */
async function openReplica(
  settings: { url: string; maxLagSeconds: number; readYourWritesMs: number },
  primary: Knex,
  options: Pick<InfrastructureOptions, 'redisUrl' | 'queuePrefix' | 'poolMax'>,
): Promise<ReplicaReadRouting> {
  const redis = options.redisUrl ? openRedis(options.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 0, commandTimeout: 250 }) : null;
  redis?.on('error', () => undefined); // a failing store answers "wrote recently": reads go to the primary
  const routing = new ReplicaReadRouting(primary, openKnex(settings.url, { poolMax: options.poolMax }), {
    maxLagSeconds: settings.maxLagSeconds,
    readYourWritesMs: settings.readYourWritesMs,
    recentWrites: redis ? new RedisRecentWrites(redis, options.queuePrefix) : new InProcessRecentWrites(),
    close: async () => redis?.disconnect(),
  });
  await routing.start();
  return routing;
}

/**
 * `npm run migrate`, and every process that migrates on start: the schema migrations, then the
 * secrets still in plaintext (rows from before encryption) or sealed with an older SECRETS_KEY
 * sealed again with the current key. Returns the secrets sealed.
 */
export async function migrateDatabase(db: Knex, secrets: SecretBox): Promise<number> {
  await migrateLatest(db);
  return resealWebhookSecrets(db, secrets);
}

/**
 * The channels payment reminders go out on, composed in this one place (docs/reminders.md): SMTP
 * when SMTP_URL is set, Twilio for SMS_PROVIDER / WHATSAPP_PROVIDER twilio, else the sandbox
 * sender (a table GET /test-helpers/messages reads). Without channel settings, all sandbox.
 */
function messageSenders(repos: Repositories, clock: Clock, ids: IdGenerator, channels: ChannelSettings | null): ConfiguredSenders {
  const sandbox: MessageSenders = sandboxMessageSenders(repos.sandboxMessages, clock, ids);
  return channels ? configuredSenders(channels, sandbox) : { ...sandbox, close: async () => undefined };
}

/** The channel settings among the options (the config carries them), or null when none are given. */
function channelSettingsOf(options: Partial<ChannelSettings>): ChannelSettings | null {
  if (options.smsProvider === undefined && options.whatsappProvider === undefined && !options.smtpUrl) return null;
  return {
    smtpUrl: options.smtpUrl ?? null,
    remindersFromEmail: options.remindersFromEmail ?? null,
    smsProvider: options.smsProvider ?? 'sandbox',
    whatsappProvider: options.whatsappProvider ?? 'sandbox',
    twilio: options.twilio ?? null,
  };
}

function commonPorts(options: {
  jwtSecret: string;
  appEnv: AppEnv;
  webhookRetryDelaysMs?: readonly number[];
  allowPrivateWebhookUrls?: boolean;
  sandboxProviderSecret?: string | null;
  backgroundJobDutyCycle?: number;
}) {
  // One address policy in every environment; only the explicit opt-in lets webhooks reach private addresses.
  const blockPrivateAddresses = options.allowPrivateWebhookUrls !== true;
  const ids = new RandomIdGenerator();
  return {
    clock: new SystemClock(),
    jobPace: new DutyCyclePace(options.backgroundJobDutyCycle ?? DEFAULT_DUTY_CYCLE),
    ids,
    directDebit: new SimulatedDirectDebitGateway(),
    paymentProcessor: new SandboxPaymentProcessor(),
    paymentInstructionProvider: options.sandboxProviderSecret
      ? new SandboxPaymentInstructionProvider(options.sandboxProviderSecret)
      : SandboxPaymentInstructionProvider.derivedFrom(options.jwtSecret),
    secrets: new Sha256SecretHasher(),
    passwords: new ScryptPasswordHasher(),
    tokens: new JwtTokenService(options.jwtSecret, ACCESS_TOKEN_TTL_SECONDS),
    appEnv: options.appEnv,
    webhooks: {
      sender: new HttpWebhookSender({ blockPrivateAddresses }),
      urlPolicy: new NetworkUrlPolicy({ blockPrivateAddresses }),
      testEvents: webhookTestEvents(ids),
      retryDelaysMs: options.webhookRetryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
    },
  };
}

function pageSignerOf(options: { jwtSecret: string; hostedPagesSecret?: string | null }): PageSigner {
  return options.hostedPagesSecret ? new PageSigner(options.hostedPagesSecret) : PageSigner.derivedFrom(options.jwtSecret);
}
