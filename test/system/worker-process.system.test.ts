/**
 * The real worker entrypoint (cmd/worker/main.ts) as a separate process, on a fresh MySQL
 * database and Redis: it runs a job enqueued from another process and shuts down gracefully.
 */
import crypto from 'node:crypto';
import { expect } from 'chai';
import { BullmqJobQueue } from '../../adapters/queue/bullmq/bullmq-job-queue';
import { buildApplication } from '../../internal/application';
import { type Infrastructure, openInfrastructure } from '../../cmd/shared/infrastructure';
import { exitCodeWithin, killIfAlive, type Proc, startProcess, waitFor } from '../support/child-process';
import { createMigratedTestDatabase, mysqlAvailable, redisAvailable, type TestDatabase, TEST_REDIS_URL } from '../support/databases';
import { JWT_TEST_SECRET } from '../support/harness';
import { TEST_SECRETS_KEY, TEST_SECRETS_KEYS } from '../support/secrets';

const PURGE = 'tenancy.purge-expired-refresh-tokens' as const;
const OVERDUE = 'debts.mark-overdue' as const;
const EXPIRE = 'payment-links.mark-expired' as const;
const HOUR = 3_600_000;

const tokenHash = (): string => crypto.randomBytes(32).toString('hex');

// ---------------------------------------------------------------------------------------------

describe('worker process [mysql + redis]', function () {
  this.timeout(40_000);
  const prefix = `test-${crypto.randomBytes(4).toString('hex')}`;
  let database: TestDatabase | null = null;
  let infra: Infrastructure | null = null;
  let producer: BullmqJobQueue | null = null;
  let worker: Proc | null = null;
  let clientUserId = 0;
  const startupExpired = [tokenHash(), tokenHash()];
  const liveToken = tokenHash();

  const remaining = async (hashes: string[]): Promise<number> => {
    const [row] = await infra!.db!('refresh_tokens').whereIn('token_hash', hashes).count<{ n: number }[]>({ n: '*' });
    return Number(row!.n);
  };
  const insertToken = async (hash: string, expiresAt: Date) =>
    infra!.ports.repos.refreshTokens.insertRefreshToken(clientUserId, hash, expiresAt, await infra!.ports.repos.refreshTokens.startRefreshTokenFamily(clientUserId, new Date()));
  const completedJobs = (name: string = PURGE) => worker!.logs().filter((l) => l.msg === 'job completed' && l.name === name);
  let app: ReturnType<typeof buildApplication> | null = null;
  let organizationName = '';

  before(async function () {
    if (!(await mysqlAvailable()) || !(await redisAvailable())) this.skip();
    database = await createMigratedTestDatabase('mysql');
    infra = await openInfrastructure({ databaseUrl: database.url, redisUrl: null, queuePrefix: prefix, jwtSecret: JWT_TEST_SECRET, secretsKeys: TEST_SECRETS_KEYS, appEnv: 'development', migrate: false, publicBaseUrl: 'http://localhost:3000' });
    app = buildApplication(infra.ports);
    const suffix = crypto.randomBytes(4).toString('hex');
    organizationName = `Org ${suffix}`;
    const created = await app.commands.createClient.execute({ organization: `Org ${suffix}`, username: `user_${suffix}`, password: 'password-123', companies: [], settings: {} });
    clientUserId = (await infra.ports.repos.credentials.findClientUserByUsername(created.clientUsername))!.id;
    for (const hash of startupExpired) await insertToken(hash, new Date(Date.now() - HOUR));
    await insertToken(liveToken, new Date(Date.now() + 24 * HOUR));

    worker = startProcess('cmd/worker/main.ts', {
      DATABASE_URL: database.url,
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: prefix,
      JWT_SECRET: JWT_TEST_SECRET,
      SECRETS_KEY: TEST_SECRETS_KEY,
      LOG_LEVEL: 'info',
      // A sweep through a backlog pauses 49 × each chunk's time between chunks (the SIGTERM case below).
      BACKGROUND_JOB_DUTY_CYCLE: '0.02',
    });
    await waitFor(() => worker!.logs().find((l) => l.msg === 'worker ready'), '"worker ready"', { proc: worker });
    producer = new BullmqJobQueue(TEST_REDIS_URL, prefix);
  });

  after(async () => {
    killIfAlive(worker);
    if (producer) {
      await producer.queue.obliterate({ force: true });
      await producer.close();
    }
    await infra?.close();
    await database?.drop();
  });

  it('logs "worker ready" with its queue prefix', () => {
    const ready = worker!.logs().find((l) => l.msg === 'worker ready')!;
    expect(ready.prefix).to.equal(prefix);
    expect(ready.service).to.equal('worker');
  });

  it('runs the scheduled purge once at startup', async () => {
    const [first] = await waitFor(() => (completedJobs().length > 0 ? completedJobs() : null), 'the scheduled purge', { proc: worker! });
    expect(first!.name).to.equal(PURGE);
    expect(first!.result).to.deep.equal({ purged: startupExpired.length });
    expect(await remaining(startupExpired)).to.equal(0);
    expect(await remaining([liveToken])).to.equal(1);
  });

  it('purges expired refresh tokens when the job is enqueued from another process', async () => {
    // Inserted after the startup run, so only the job enqueued here can remove them (the next
    // scheduled run is an hour away).
    await waitFor(() => completedJobs().length > 0, 'the scheduled purge', { proc: worker! });
    const expired = [tokenHash(), tokenHash(), tokenHash()];
    for (const hash of expired) await insertToken(hash, new Date(Date.now() - 1000));
    expect(await remaining(expired)).to.equal(3);

    const jobId = `purge-${crypto.randomBytes(4).toString('hex')}`;
    await producer!.enqueue({ name: PURGE, data: {}, jobId });

    await waitFor(async () => (await remaining(expired)) === 0, 'the expired tokens to be purged', { proc: worker! });
    const completed = await waitFor(() => completedJobs().find((l) => l.jobId === jobId), `the "job completed" log of ${jobId}`, { proc: worker! });
    expect(completed.result).to.deep.equal({ purged: 3 });
    expect(await remaining([liveToken])).to.equal(1);
  });

  it('persists OVERDUE for past-due debts when debts.mark-overdue is enqueued from another process', async () => {
    await waitFor(() => completedJobs(OVERDUE).length > 0, 'the scheduled overdue run', { proc: worker! });
    const { tenancy, credentials } = infra!.ports.repos;
    const organization = (await tenancy.findOrganizationByName(organizationName))!;
    const client = (await credentials.findClientUser(clientUserId))!;
    const summary = (await credentials.listClients()).find((c) => c.clientUsername === client.username)!;
    const company = (await tenancy.findCompanyByCode(summary.companies[0]!))!;
    const scope = { organizationId: organization.id, organizationName, clientUserId, company, clock: infra!.ports.clock, requestId: null };
    await app!.commands.createContact.execute({ externalClientId: 'debtor-1', name: 'Debtor', email: 'debtor@example.com' }, scope);
    const draft = (dueDate: string) => ({
      debtor: { externalClientId: 'debtor-1' },
      product: null,
      amountCents: 1000,
      dueDate,
      evaluateAutopay: true,
    });
    await app!.commands.createDebt.execute(draft('2020-01-01'), 'past-due', scope);
    await app!.commands.createDebt.execute(draft('2999-01-01'), 'not-due', scope);
    const statusOf = async (key: string) => (await infra!.db!('debts').where({ external_request_id: key }).first()).status;
    expect(await statusOf('past-due')).to.equal('PENDING');

    const jobId = `overdue-${crypto.randomBytes(4).toString('hex')}`;
    await producer!.enqueue({ name: OVERDUE, data: {}, jobId });
    await waitFor(async () => (await statusOf('past-due')) === 'OVERDUE', 'the past-due debt to be marked OVERDUE', { proc: worker! });
    await waitFor(() => completedJobs(OVERDUE).find((l) => l.jobId === jobId), `the "job completed" log of ${jobId}`, { proc: worker! });
    expect(await statusOf('not-due')).to.equal('PENDING');
  });

  it('persists EXPIRED for links past expiresAt on their organization clock when payment-links.mark-expired is enqueued', async () => {
    await waitFor(() => completedJobs(EXPIRE).length > 0, 'the scheduled expiry run', { proc: worker! });
    const { tenancy, credentials } = infra!.ports.repos;
    const organization = (await tenancy.findOrganizationByName(organizationName))!;
    const client = (await credentials.findClientUser(clientUserId))!;
    const summary = (await credentials.listClients()).find((c) => c.clientUsername === client.username)!;
    const company = (await tenancy.findCompanyByCode(summary.companies[0]!))!;
    const scope = { organizationId: organization.id, organizationName, clientUserId, company, clock: infra!.ports.clock, requestId: null };
    const link = await app!.commands.createPaymentLink.execute(
      { amountCents: 5000, description: 'Expiring', expiresAt: new Date(Date.now() + HOUR) },
      scope,
    );
    const statusOf = async () => (await infra!.db!('payment_links').where({ id: link.id }).first()).status;
    expect(await statusOf()).to.equal('ACTIVE');
    // The organization's sandbox clock moves past expiresAt; the worker reads it from the database.
    await tenancy.setFrozenNow(organization.id, new Date(Date.now() + 2 * HOUR));
    try {
      const jobId = `expire-${crypto.randomBytes(4).toString('hex')}`;
      await producer!.enqueue({ name: EXPIRE, data: {}, jobId });
      await waitFor(async () => (await statusOf()) === 'EXPIRED', 'the link to be marked EXPIRED', { proc: worker! });
    } finally {
      await tenancy.setFrozenNow(organization.id, null);
    }
  });

  it('stops gracefully on SIGTERM with exit code 0, a paced sweep ending after its chunk in flight; the next run marks the rest once', async () => {
    const { tenancy, credentials } = infra!.ports.repos;
    const organization = (await tenancy.findOrganizationByName(organizationName))!;
    const summary = (await credentials.listClients()).find((c) => c.organizationId === organization.id)!;
    const company = (await tenancy.findCompanyByCode(summary.companies[0]!))!;
    const scope = { organizationId: organization.id, organizationName, clientUserId, company, clock: infra!.ports.clock, requestId: null };
    const backlog = 1200;
    await app!.commands.createContact.execute({ externalClientId: 'backlog-debtor', name: 'Debtor', email: 'backlog@example.com' }, scope);
    const draft = { debtor: { externalClientId: 'backlog-debtor' }, product: null, amountCents: 1000, dueDate: '2020-01-01', evaluateAutopay: false };
    for (let from = 0; from < backlog; from += 50) {
      await app!.commands.createDebtBatch.execute(Array.from({ length: 50 }, (_, i) => ({ externalRequestId: `backlog-${from + i}`, draft })), scope);
    }
    const overdue = async () => Number((await infra!.db!('debts').where({ organization_id: organization.id }).where('external_request_id', 'like', 'backlog-%').where('status', 'OVERDUE').count<{ n: number }[]>({ n: '*' }))[0]!.n);
    const jobId = `backlog-${crypto.randomBytes(4).toString('hex')}`;
    await producer!.enqueue({ name: OVERDUE, data: {}, jobId });
    // The first chunk commits, then the sweep pauses about 49 times as long as that chunk took.
    await waitFor(async () => (await overdue()) >= 500, 'the first chunk of the backlog', { proc: worker! });
    const stopping = Date.now();
    worker!.child.kill('SIGTERM');
    const code = await exitCodeWithin(worker!, 15_000);
    expect(code, worker!.output()).to.equal(0);
    expect(worker!.logs().map((l) => l.msg)).to.include.members(['shutting down', 'stopped']);
    expect(Date.now() - stopping, 'the pause was cut short').to.be.below(10_000);
    expect(completedJobs(OVERDUE).find((l) => l.jobId === jobId)?.result, 'the run ended after its first chunk').to.deep.equal({ marked: 500 });
    expect(await overdue()).to.equal(500);

    // The next run (here, this process's) takes the rest: every debt marked once, with one event.
    expect(await app!.jobs.markOverdueDebts.execute()).to.deep.equal({ marked: backlog - 500 });
    const [events] = await infra!.db!('events').where({ company_id: company.id, type: 'debt.overdue' }).where('resource_id', 'like', 'debt_backlog-%').count<{ n: number }[]>({ n: '*' });
    expect(Number(events!.n)).to.equal(backlog);
  });
});
