import Router from '@koa/router';
import Koa from 'koa';
import type { Logger } from 'pino';
import type { Application } from '../../internal/application';
import type { IdGenerator } from '../../ports/id-generator';
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
import { type LoginThrottle, loginThrottle } from './middleware/login-throttle';
import { rateLimitGate, type RateLimitOptions } from './middleware/rate-limit';
import { requestContext } from './middleware/request-context';
import { openApiDocument } from './openapi/document';
import { mountApiReference } from './reference/api-reference';
import { mountRoutes, type Route } from './route';
import { authRoutes } from './routes/auth.routes';
import { contactRoutes } from './routes/contacts.routes';
import { healthRoutes, type ReadinessCheck } from './routes/health.routes';
import { productRoutes } from './routes/products.routes';
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
  paymentPortal: PaymentPortal;
  /** The hosted pages (payment portal, receipts, enrollment); not served when absent. */
  pages?: Omit<HostedPagesOptions, 'app' | 'logger'>;
  /** Token buckets per facade API key (docs/operations.md); absent: no rate limiting. */
  rateLimit?: Omit<RateLimitOptions, 'logger' | 'metrics'>;
  /** Prometheus metrics of this process, served at GET /metrics; absent: neither. */
  metrics?: { registry: Metrics; token: string | null };
}

/** Every documented endpoint, in the order the reference lists them. */
export function apiRoutes(
  options: Pick<HttpOptions, 'app' | 'testHelpers' | 'readinessChecks' | 'paymentPortal'> & { loginThrottle?: LoginThrottle; moneyReceived?: MoneyReceivedObserver },
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
    ...enrollmentLinkRoutes(app, options.paymentPortal),
    ...(options.testHelpers
      ? [
          ...testHelperRoutes(app),
          ...debtTestHelperRoutes(app, presentDebt),
          ...paymentLinkTestHelperRoutes(app, options.paymentPortal),
          ...directDebitTestHelperRoutes(app),
          ...paymentInstructionTestHelperRoutes(app, notifications),
        ]
      : []),
    ...healthRoutes(options.readinessChecks),
  ];
}

export function createHttpServer(options: HttpOptions): Koa {
  const metrics = options.metrics?.registry ?? null;
  // The limiter that keeps the API keys' buckets also throttles login attempts.
  const throttle = options.rateLimit ? loginThrottle(options.rateLimit.limiter, options.logger, metrics) : undefined;
  const moneyReceived = metrics ? moneyReceivedMetrics(metrics.registry) : undefined;
  const routes = apiRoutes({ ...options, loginThrottle: throttle, moneyReceived });
  const router = new Router();
  const rateLimit = options.rateLimit ? rateLimitGate({ ...options.rateLimit, logger: options.logger, metrics }) : undefined;
  mountRoutes(router, routes, options.app, rateLimit);
  const openApi = openApiDocument(routes, options.publicBaseUrl);
  router.get('/openapi.json', (ctx) => {
    ctx.body = openApi;
  });
  // GET /docs: the interactive reference of that document, and its scripts under /docs/.
  mountApiReference(router);

  if (options.metrics) router.get('/metrics', metricsEndpoint(options.metrics.registry, options.metrics.token));

  // Behind one proxy: the client address is the last X-Forwarded-For entry, the one that proxy appended
  // (earlier entries are whatever the client sent).
  const koa = new Koa({ proxy: true, maxIpsCount: 1 });
  if (metrics) koa.use(httpMetrics(metrics));
  koa.use(requestContext(options.ids, options.logger));
  // Pages read urlencoded forms themselves, so they come before the JSON body reader.
  if (options.pages) koa.use(hostedPages({ ...options.pages, app: options.app, logger: options.logger }));
  koa.use(jsonBody);
  koa.use(router.routes());
  return koa;
}
