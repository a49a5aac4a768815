import { unitOfWork } from '../../../internal/shared/group-commit';
import crypto from 'node:crypto';
import { expect } from 'chai';
import { FixedClock } from '../../../adapters/clock/fixed-clock';
import { jobHandlers } from '../../../adapters/queue/job-handlers';
import { type Infrastructure, memoryInfrastructure } from '../../../cmd/shared/infrastructure';
import { type Application, buildApplication } from '../../../internal/application';
import { DispatchOutbox } from '../../../internal/shared/jobs/dispatch-outbox';
import { ConflictError } from '../../../internal/shared/errors';
import type { TenantScope } from '../../../internal/shared/tenant-scope';
import { CreateSubscription, type CreateSubscriptionInput } from '../../../internal/subscriptions/commands/create-subscription';
import { UpdateSubscription } from '../../../internal/subscriptions/commands/update-subscription';
import { cycleRequestId, subscriptionIdOf } from '../../../internal/subscriptions/subscription';
import type { DebtRepository, DebtView } from '../../../ports/debt-repository';
import type { Job, JobQueue } from '../../../ports/job-queue';
import { jobOf } from '../../../internal/shared/jobs/outbox-job';
import type { SubscriptionView } from '../../../ports/subscription-repository';

/**
 * The failure paths of the subscription use cases, over the memory adapters with one port
 * swapped: a DebtRepository whose update fails for chosen debts (PARTIAL_UPDATE counts), and a
 * JobQueue whose enqueue rejects (the outbox keeps the generation job until it can go out).
 */

const T0 = new Date('2031-05-10T15:00:00.000Z');
const GENERATE = 'subscriptions.generate-cycles';

/** A debt repository that records update calls and fails those for the debts `fails` picks. */
function failingUpdates(debts: DebtRepository, fails: (debtId: number) => boolean): { repo: DebtRepository; updated: number[] } {
  const updated: number[] = [];
  const repo = new Proxy(debts, {
    get(target, property, receiver) {
      if (property === 'update') {
        return async (...args: Parameters<DebtRepository['update']>) => {
          updated.push(args[1]);
          if (fails(args[1])) throw new Error('storage unavailable');
          return target.update(...args);
        };
      }
      const value = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { repo, updated };
}

/** A queue that is away: every enqueue rejects, as BullMQ does when Redis is unreachable. */
class UnreachableQueue implements JobQueue {
  readonly attempts: Job[] = [];

  async enqueue(job: Job): Promise<void> {
    this.attempts.push(job);
    throw new Error('Redis is unreachable');
  }
}

interface World {
  infra: Infrastructure;
  app: Application;
  scope: TenantScope;
  /** How many times the generation job has run on the in-process queue. */
  runs(): number;
}

/** Memory adapters at T0, the in-process queue bound to the real handlers (generation counted), one tenant with contact ext-ana. */
async function world(): Promise<World> {
  const clock = new FixedClock(T0);
  const infra = memoryInfrastructure({ clock });
  const app = buildApplication(infra.ports);
  const handlers = jobHandlers(app);
  let runs = 0;
  await infra.jobs.consumer.start({
    ...handlers,
    [GENERATE]: (data) => {
      runs++;
      return handlers[GENERATE](data);
    },
  }, []);
  const { repos } = infra.ports;
  const suffix = crypto.randomBytes(4).toString('hex');
  const created = await app.commands.createClient.execute({
    organization: `Org ${suffix}`,
    username: `user_${suffix}`,
    password: `pw-${suffix}-secret`,
    companies: [],
    settings: {},
  });
  const user = (await repos.credentials.findClientUserByUsername(created.clientUsername))!;
  const scope: TenantScope = {
    organizationId: created.organizationId,
    organizationName: `Org ${suffix}`,
    clientUserId: user.id,
    company: (await repos.tenancy.findCompanyByCode(created.companies[0]!.companyCode))!,
    clock,
    requestId: null,
  };
  await app.commands.createContact.execute({ externalClientId: 'ext-ana', name: 'Ana', email: 'ana@example.com' }, scope);
  return { infra, app, scope, runs: () => runs };
}

/** 100.00 a month from 2031-06-01, `totalCycles` cycles. */
function input(externalSubscriptionId: string, totalCycles: number): CreateSubscriptionInput {
  return {
    externalSubscriptionId,
    debtor: { externalClientId: 'ext-ana' },
    amountCents: 10_000,
    schedule: { intervalUnit: 'month', intervalCount: 1, startDate: '2031-06-01', totalCycles },
    productName: 'Gym plan',
  };
}

// ---------------------------------------------------------------------------------------------

describe('UpdateSubscription with a failing DebtRepository (memory)', () => {
  let w: World;
  let sub: SubscriptionView;
  /** The generated debts, cycle 0 first. */
  let cycles: DebtView[];

  beforeEach(async () => {
    w = await world();
    sub = await w.app.commands.createSubscription.execute(input('gym', 5), w.scope);
    await w.infra.jobs.inProcess!.drain();
    cycles = await w.infra.ports.repos.debts.openOfSubscription(sub.id);
    expect(cycles.map((d) => d.externalRequestId)).to.deep.equal([0, 1, 2, 3, 4].map((n) => cycleRequestId('gym', n)));
  });

  // The debt adapter under test serves both the reads and the locked per-debt transactions.
  const useCase = (debts: DebtRepository) =>
    new UpdateSubscription({ uow: unitOfWork((work) => w.infra.ports.uow.run((repos) => work({ ...repos, debts }))), debts });
  const amounts = async () => (await Promise.all(cycles.map((d) => w.infra.ports.repos.debts.findByExternalRequestId(w.scope.company.id, d.externalRequestId)))).map((d) => d!.amountCents);
  const storedAmount = async () => (await w.infra.ports.repos.subscriptions.findById(sub.id))!.amountCents;

  it('counts the debts whose update fails as unsynced and still updates the subscription and the others', async () => {
    const failing = new Set([cycles[1]!.id, cycles[3]!.id]);
    const { repo, updated } = failingUpdates(w.infra.ports.repos.debts, (id) => failing.has(id));

    const result = await useCase(repo).execute(subscriptionIdOf(sub), { amountCents: 15_000 }, w.scope);

    expect(result.unsynced).to.equal(2);
    expect(result.subscription.amountCents).to.equal(15_000);
    expect(await storedAmount()).to.equal(15_000);
    expect(updated).to.have.members(cycles.map((d) => d.id));
    expect(await amounts()).to.deep.equal([15_000, 10_000, 15_000, 10_000, 15_000]);
  });

  it('counts every open debt when every update fails, the subscription updated anyway', async () => {
    const { repo } = failingUpdates(w.infra.ports.repos.debts, () => true);
    const result = await useCase(repo).execute(subscriptionIdOf(sub), { amountCents: 12_345, description: 'New' }, w.scope);
    expect(result.unsynced).to.equal(5);
    const stored = (await w.infra.ports.repos.subscriptions.findById(sub.id))!;
    expect([stored.amountCents, stored.description]).to.deep.equal([12_345, 'New']);
    expect(await amounts()).to.deep.equal([10_000, 10_000, 10_000, 10_000, 10_000]);
  });

  it('adds a debt paid beyond the new amount to the count without trying to update it', async () => {
    await w.app.commands.payDebt.execute(cycles[0]!.externalRequestId, 9_000, 'test-helper', w.scope);
    const { repo, updated } = failingUpdates(w.infra.ports.repos.debts, (id) => id === cycles[2]!.id);

    const result = await useCase(repo).execute(subscriptionIdOf(sub), { amountCents: 5_000 }, w.scope);

    expect(result.unsynced).to.equal(2);
    expect(updated).to.not.include(cycles[0]!.id);
    expect(updated).to.have.members([cycles[1]!.id, cycles[2]!.id, cycles[3]!.id, cycles[4]!.id]);
    expect(await amounts()).to.deep.equal([10_000, 5_000, 10_000, 5_000, 5_000]);
    const partial = (await w.infra.ports.repos.debts.findByExternalRequestId(w.scope.company.id, cycles[0]!.externalRequestId))!;
    expect([partial.status, partial.amountPaidCents]).to.deep.equal(['PARTIALLY_PAID', 9_000]);
  });

  it('never touches paid or cancelled debts, so their failure cannot count', async () => {
    await w.app.commands.payDebt.execute(cycles[0]!.externalRequestId, undefined, 'test-helper', w.scope);
    await w.app.commands.cancelDebt.execute(cycles[1]!.externalRequestId, w.scope);
    const closed = new Set([cycles[0]!.id, cycles[1]!.id]);
    const { repo, updated } = failingUpdates(w.infra.ports.repos.debts, (id) => closed.has(id));

    const result = await useCase(repo).execute(subscriptionIdOf(sub), { amountCents: 15_000 }, w.scope);

    expect(result.unsynced).to.equal(0);
    expect(updated).to.have.members([cycles[2]!.id, cycles[3]!.id, cycles[4]!.id]);
    expect(await amounts()).to.deep.equal([10_000, 10_000, 15_000, 15_000, 15_000]);
  });

  it('does not rewrite a debt already at the new amount', async () => {
    const { repo, updated } = failingUpdates(w.infra.ports.repos.debts, () => true);
    const result = await useCase(repo).execute(subscriptionIdOf(sub), { amountCents: 10_000 }, w.scope);
    expect(result.unsynced).to.equal(0);
    expect(updated).to.deep.equal([]);
  });

  it('leaves the debts alone when the amount is not changed', async () => {
    const { repo, updated } = failingUpdates(w.infra.ports.repos.debts, () => true);
    const result = await useCase(repo).execute(subscriptionIdOf(sub), { description: 'Only text', enforcePaymentOrder: true }, w.scope);
    expect(result.unsynced).to.equal(0);
    expect(updated).to.deep.equal([]);
    expect(result.subscription).to.include({ description: 'Only text', enforcePaymentOrder: true, amountCents: 10_000 });
  });
});

// ---------------------------------------------------------------------------------------------

describe('CreateSubscription with a JobQueue that rejects (memory)', () => {
  let w: World;
  let queue: UnreachableQueue;
  let sub: SubscriptionView;

  beforeEach(async () => {
    w = await world();
    queue = new UnreachableQueue();
    const { uow, repos, ids, clock } = w.infra.ports;
    sub = await new CreateSubscription({ uow, repos, ids, dispatchOutbox: new DispatchOutbox({ outbox: repos.outbox, queue, clock }) }).execute(input('gym', 3), w.scope);
  });

  const pending = () => w.infra.ports.repos.outbox.pending(100);
  const generated = async () => (await w.infra.ports.repos.debts.openOfSubscription(sub.id)).map((d) => d.externalRequestId);

  it('creates the ACTIVE subscription although the enqueue failed', async () => {
    expect(queue.attempts.map((j) => j.name)).to.deep.equal([GENERATE]);
    expect(sub).to.include({ externalSubscriptionId: 'gym', status: 'ACTIVE', amountCents: 10_000 });
    const stored = await w.infra.ports.repos.subscriptions.findByExternalSubscriptionId(w.scope.organizationId, 'gym');
    expect(stored?.id).to.equal(sub.id);
  });

  it('keeps the generation job pending in the outbox, and nothing is generated yet', async () => {
    const entries = await pending();
    expect(entries.map(({ id: _id, ...job }) => job)).to.deep.equal([
      { name: GENERATE, jobId: `sub-${sub.code}-generate-0`, data: { subscriptionId: sub.id, resume: 0, fromDate: null } },
    ]);
    await w.infra.jobs.inProcess!.drain();
    expect(w.runs()).to.equal(0);
    expect(await generated()).to.deep.equal([]);
  });

  it('keeps the job pending while the queue is still away', async () => {
    const { repos, clock } = w.infra.ports;
    let failure: unknown = null;
    await new DispatchOutbox({ outbox: repos.outbox, queue, clock }).execute().catch((error) => (failure = error));
    expect(String(failure)).to.contain('Redis is unreachable');
    expect(queue.attempts).to.have.length(2);
    expect(await pending()).to.have.length(1);
  });

  it('hands the job to a working queue on the next dispatch, which generates every cycle once', async () => {
    expect(await w.app.jobs.dispatchOutbox.execute()).to.deep.equal({ dispatched: 1 });
    await w.infra.jobs.inProcess!.drain();
    expect(w.runs()).to.equal(1);
    expect(await pending()).to.deep.equal([]);
    expect(await generated()).to.deep.equal([0, 1, 2].map((n) => cycleRequestId('gym', n)));
  });

  it('runs the job once however often it is dispatched or handed over again', async () => {
    const [entry] = await pending();
    await w.app.jobs.dispatchOutbox.execute();
    expect(await w.app.jobs.dispatchOutbox.execute()).to.deep.equal({ dispatched: 0 });
    // An entry handed over twice (dispatched, then the mark lost) keeps its jobId.
    await w.infra.ports.queue.enqueue(jobOf(entry!));
    await w.infra.jobs.inProcess!.drain();
    expect(w.runs()).to.equal(1);
    expect(await generated()).to.have.length(3);
  });

  it('still answers 409 for the same externalSubscriptionId while its job is pending', async () => {
    let failure: unknown = null;
    await w.app.commands.createSubscription.execute(input('gym', 3), w.scope).catch((error) => (failure = error));
    expect(failure).to.be.instanceOf(ConflictError);
    expect((failure as ConflictError).code).to.equal('RESOURCE_CONFLICT');
    expect(await pending()).to.have.length(1);
  });
});
