import Koa from 'koa';
import type { Logger } from 'pino';
import type { Application } from '../../internal/application';
import type { IdGenerator } from '../../ports/id-generator';
import type { ReadRouter } from '../../ports/read-router';
import type { PaymentPortal } from '../../ports/payment-portal';
import { debtPresenter } from './presenters/debt.presenter';
import { debtRoutes, debtTestHelperRoutes } from './routes/debts.routes';
import { directDebitRoutes, directDebitTestHelperRoutes } from './routes/direct-debit.routes';
import { notificationDoor, paymentInstructionRoutes, paymentInstructionTestHelperRoutes } from './routes/payment-instructions.routes';
import { type MoneyReceivedObserver, moneyReceivedMetrics } from '../metrics/payment-instruction-metrics';
import { paymentLinkRoutes, paymentLinkTestHelperRoutes } from './routes/payment-links.routes';
import { subscriptionRoutes } from './routes/subscriptions.routes';
import { enrollmentLinkRoutes } from './routes/enrollment-links.routes';
import { hostedPages, type HostedPagesOptions } from './pages/hosted-pages';
import type { Metrics } from '../metrics/metrics';
import { metricsEndpoint } from './metrics-endpoint';
import { httpMetrics } from './middleware/http-metrics';
import { jsonBody } from './middleware/json-body';
import { type AuthLimits, DEFAULT_AUTH_LIMITS, type LoginThrottle, loginThrottle } from './middleware/login-throttle';
import { rateLimitGate, type RateLimitOptions } from './middleware/rate-limit';
import { requestContext } from './middleware/request-context';
import { openApiDocument } from './openapi/document';
import { mountApiReference } from './reference/api-reference';
import { mountRoutes, type Route } from './route';
import { SegmentRouter } from './segment-router';
import { authRoutes } from './routes/auth.routes';
import { contactRoutes } from './routes/contacts.routes';
import { healthRoutes, type ReadinessCheck } from './routes/health.routes';
import { productRoutes } from './routes/products.routes';
import { reminderRoutes, reminderTestHelperRoutes } from './routes/reminders.routes';
import { testHelperRoutes } from './routes/test-helpers.routes';
import { eventRoutes } from './routes/events.routes';
import { webhookEndpointRoutes } from './routes/webhook-endpoints.routes';

export interface HttpOptions {
  app: Application;
  ids: IdGenerator;
  logger: Logger;
  publicBaseUrl: string;
  /** Sandbox helpers exist everywhere except production. */
  testHelpers: boolean;
  readinessChecks: ReadinessCheck[];
  /** Where each API request's reads go (DATABASE_READ_URL); absent: the primary. */
  readRouter?: ReadRouter;
  /** True once the process received SIGTERM: /health/ready answers 503 while it drains. */
  shuttingDown?: () => boolean;
  paymentPortal: PaymentPortal;
  /** The hosted pages (payment portal, receipts, enrollment); not served when absent. */
  pages?: Omit<HostedPagesOptions, 'app' | 'logger'>;
  /** Token buckets per facade API key (docs/operations.md); absent: no rate limiting. */
  rateLimit?: Omit<RateLimitOptions, 'logger' | 'metrics'>;
  /** /auth's buckets and password-hashing bound, on the same limiter (default: DEFAULT_AUTH_LIMITS). */
  authLimits?: Partial<AuthLimits>;
  /**
   * Prometheus metrics of this process, counted by the HTTP middleware and served at GET /metrics
   * unless `onApiPort` is false (production without METRICS_TOKEN: config.ts metricsOnApiPort);
   * absent: neither.
   */
  metrics?: { registry: Metrics; token: string | null; onApiPort?: boolean };
  /**
   * TRUST_PROXY_HOPS: the proxies in front of the API that append to X-Forwarded-For. 0 (the
   * default): the client address is the socket's, the header is ignored; N: the N-th entry from
   * the right, the one the outermost of the N proxies appended (docs/security.md).
   */
  trustProxyHops?: number;
}

/** Every documented endpoint, in the order the reference lists them. */
export function apiRoutes(
  options: Pick<HttpOptions, 'app' | 'testHelpers' | 'readinessChecks' | 'shuttingDown' | 'paymentPortal'> & { loginThrottle?: LoginThrottle; moneyReceived?: MoneyReceivedObserver },
): Route[] {
  const { app } = options;
  const presentDebt = debtPresenter(options.paymentPortal);
  const notifications = notificationDoor(app, options.moneyReceived);
  return [
    ...authRoutes(app, options.loginThrottle),
    ...debtRoutes(app, presentDebt),
    ...paymentLinkRoutes(app, options.paymentPortal),
    ...subscriptionRoutes(app, options.paymentPortal, presentDebt),
    ...contactRoutes(app),
    ...productRoutes(app),
    ...directDebitRoutes(app),
    ...paymentInstructionRoutes(app, options.paymentPortal, notifications),
    ...webhookEndpointRoutes(app),
    ...eventRoutes(app),
    ...reminderRoutes(app),
    ...enrollmentLinkRoutes(app, options.paymentPortal),
    ...(options.testHelpers
      ? [
          ...testHelperRoutes(app),
          ...debtTestHelperRoutes(app, presentDebt),
          ...paymentLinkTestHelperRoutes(app, options.paymentPortal),
          ...directDebitTestHelperRoutes(app),
          ...paymentInstructionTestHelperRoutes(app, notifications),
          ...reminderTestHelperRoutes(app),
        ]
      : []),
    ...healthRoutes(options.readinessChecks, options.shuttingDown),
  ];
}

export function createHttpServer(options: HttpOptions): Koa {
  const metrics = options.metrics?.registry ?? null;
  // The limiter that keeps the API keys' buckets also throttles login attempts.
  const throttle = options.rateLimit
    ? loginThrottle(options.rateLimit.limiter, options.logger, metrics, { ...DEFAULT_AUTH_LIMITS, ...options.authLimits })
    : undefined;
  const moneyReceived = metrics ? moneyReceivedMetrics(metrics.registry) : undefined;
  const routes = apiRoutes({ ...options, loginThrottle: throttle, moneyReceived });
  const router = new SegmentRouter();
  const rateLimit = options.rateLimit ? rateLimitGate({ ...options.rateLimit, logger: options.logger, metrics }) : undefined;
  mountRoutes(router, routes, options.app, rateLimit);
  const openApi = openApiDocument(routes, options.publicBaseUrl);
  router.get('/openapi.json', (ctx) => {
    ctx.body = openApi;
  });
  // GET /docs: the interactive reference of that document, and its scripts under /docs/.
  mountApiReference(router);

  if (options.metrics && options.metrics.onApiPort !== false) router.get('/metrics', metricsEndpoint(options.metrics.registry, options.metrics.token));

  const koa = new Koa(clientAddressOptions(options.trustProxyHops ?? 0));
  if (metrics) koa.use(httpMetrics(metrics));
  koa.use(requestContext(options.ids, options.logger));
  // Pages read urlencoded forms themselves, so they come before the JSON body reader.
  if (options.pages) koa.use(hostedPages({ ...options.pages, app: options.app, logger: options.logger }));
  koa.use(jsonBody);
  // Integrators' requests only (an x-api-key; the hosted pages above, probes and /metrics use the
  // primary): a GET may read the replica unless its API key wrote within READ_YOUR_WRITES_MS; any
  // other method opens that window.
  const readRouter = options.readRouter;
  if (readRouter) {
    koa.use((ctx, next) => {
      const clientKey = ctx.get('x-api-key') || null;
      return readRouter.run({ safe: (ctx.method === 'GET' || ctx.method === 'HEAD') && clientKey !== null, clientKey }, () => next());
    });
  }
  koa.use(router.routes());
  return koa;
}

/**
 * How Koa finds `ctx.ip` (every per-address bucket keys on it). 0 hops: the socket's address,
 * X-Forwarded-For and X-Forwarded-Proto are ignored (a client could write anything there). N hops:
 * Koa keeps the last N X-Forwarded-For entries and takes the first of them, the N-th from the
 * right, which the outermost trusted proxy appended; entries left of it are the client's own and
 * never choose a bucket. With fewer than N entries it takes the leftmost (a request that skipped
 * the outer proxies), and without the header the socket's address.
 */
export function clientAddressOptions(trustProxyHops: number): { proxy: boolean; maxIpsCount: number } {
  if (!Number.isInteger(trustProxyHops) || trustProxyHops < 0) throw new Error('trustProxyHops must be a non-negative integer');
  return { proxy: trustProxyHops > 0, maxIpsCount: trustProxyHops };
}
