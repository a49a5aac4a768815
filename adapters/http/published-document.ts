import type { Application } from '../../internal/application';
import type { PaymentPortal } from '../../ports/payment-portal';
import type { LoginThrottle } from './middleware/login-throttle';
import { openApiDocument } from './openapi/document';
import { apiRoutes } from './server';

/**
 * The OpenAPI document without a running service: the same route table the API mounts (sandbox
 * helpers included unless `testHelpers` is false, as on a production server), built over a
 * stand-in application whose use cases are never called.
 */
export function publishedOpenApiDocument(serverUrl: string, options: { testHelpers?: boolean } = {}) {
  const routes = apiRoutes({
    app: unreachable('application') as Application,
    paymentPortal: unreachable('payment portal') as PaymentPortal,
    testHelpers: options.testHelpers ?? true,
    readinessChecks: [],
    loginThrottle: unreachable('login throttle') as LoginThrottle,
  });
  return openApiDocument(routes, serverUrl);
}

/** Any property is another stand-in; calling one throws: documenting routes must not run them. */
function unreachable(name: string): unknown {
  const stand: unknown = new Proxy(function () {}, {
    get: (_target, property) => (property === 'then' ? undefined : stand),
    apply: () => {
      throw new Error(`the ${name} stand-in of the published OpenAPI document was called`);
    },
  });
  return stand;
}
