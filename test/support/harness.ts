import crypto from 'node:crypto';
import type { Server } from 'node:http';
import pino from 'pino';
import supertest from 'supertest';
import { HostedPaymentPortal } from '../../adapters/gateways/hosted-payment-portal';
import { createHttpServer } from '../../adapters/http/server';
import { jobHandlers } from '../../adapters/queue/job-handlers';
import { type Application, buildApplication } from '../../internal/application';
import type { CompanySettings } from '../../internal/tenancy/company';
import { bindInProcessJobs, type Infrastructure, openInfrastructure } from '../../cmd/shared/infrastructure';
import { createTestDatabase, type DatabaseKind, mysqlAvailable, type TestDatabase } from './databases';

export const JWT_TEST_SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';

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
  /** supertest agent bound to the running server. */
  http: supertest.Agent;
  newTenant(options?: { companies?: string[]; settings?: Partial<CompanySettings> }): Promise<Tenant>;
  close(): Promise<void>;
}

/**
 * The whole API over a fresh database of its own (SQLite file or a `test_…` MySQL database),
 * migrated, listening on an ephemeral port. One per test file.
 */
export async function startApi(kind: DatabaseKind, options: { appEnv?: 'development' | 'production' } = {}): Promise<ApiHarness> {
  const database: TestDatabase = await createTestDatabase(kind);
  const infra = await openInfrastructure({
    databaseUrl: database.url,
    redisUrl: null,
    queuePrefix: 'test',
    jwtSecret: JWT_TEST_SECRET,
    appEnv: options.appEnv ?? 'development',
    migrate: true,
  });
  const app = buildApplication(infra.ports);
  bindInProcessJobs(infra, jobHandlers(app));
  const koa = createHttpServer({
    app,
    ids: infra.ports.ids,
    logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    publicBaseUrl: 'http://localhost:3000',
    paymentPortal: new HostedPaymentPortal('http://localhost:3000'),
    testHelpers: (options.appEnv ?? 'development') !== 'production',
    readinessChecks: infra.readinessChecks,
  });
  const server = koa.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const http = supertest.agent(server);

  return {
    kind,
    infra,
    app,
    server,
    http,
    async newTenant(tenantOptions = {}) {
      const suffix = crypto.randomBytes(6).toString('hex');
      const password = `pw-${suffix}-secret`;
      const created = await app.commands.createClient.execute({
        organization: `Org ${suffix}`,
        username: `user_${suffix}`,
        password,
        companies: tenantOptions.companies?.map((c) => `${c}-${suffix}`.toUpperCase()) ?? [],
        settings: tenantOptions.settings ?? {},
      });
      const login = await http
        .post('/auth/login')
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
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await infra.close();
      await database.drop();
    },
  };
}

/**
 * Declares the same HTTP suite once per database: the embedded SQLite default and MySQL
 * (MariaDB here). The MySQL leg skips when no server answers, except under CI=true.
 */
export function describeEachDatabase(title: string, suite: (ctx: { api: () => ApiHarness }) => void): void {
  for (const kind of ['sqlite', 'mysql'] as DatabaseKind[]) {
    describe(`${title} [${kind}]`, function () {
      this.timeout(30_000);
      let harness: ApiHarness | null = null;
      before(async function () {
        if (kind === 'mysql' && !(await mysqlAvailable())) this.skip();
        harness = await startApi(kind);
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
