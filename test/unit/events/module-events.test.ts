import { unitOfWork } from '../../../internal/shared/group-commit';
import { expect } from 'chai';
import { productIdOf } from '../../../internal/products/product';
import { CYCLES_PER_TRANSACTION, GenerateSubscriptionCycles } from '../../../internal/subscriptions/jobs/generate-subscription-cycles';
import type { CreateSubscriptionInput } from '../../../internal/subscriptions/commands/create-subscription';
import { cycleRequestId, subscriptionIdOf } from '../../../internal/subscriptions/subscription';
import type { LoggedEvent } from '../../../ports/event-log';
import { CreatePaymentLink } from '../../../internal/payment-links/commands/create-payment-link';
import { ChangeSubscriptionState } from '../../../internal/subscriptions/commands/change-subscription-state';
import type { Repositories, UnitOfWork } from '../../../ports/unit-of-work';
import { memoryWorld } from '../../support/memory-world';

/**
 * Every state change of the contacts, products, payment links and subscriptions modules writes
 * exactly its events, in the transaction of the change: none for a replay, a no-op or a change
 * that failed and rolled back. (The debts module: test/unit/debts/debt-events.test.ts.)
 */

const T0 = new Date('2031-05-10T15:00:00.000Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

async function world(options: Parameters<typeof memoryWorld>[1] = {}) {
  const w = memoryWorld(T0, options);
  const { scope } = await w.newTenant();
  const all = async (): Promise<LoggedEvent[]> => (await w.repos.events.list(scope.company.id, {}, { page: 1, limit: 500 })).items.reverse();
  let mark = 0;
  /** The events written since the last call (or the start), as [type, resourceId, status]. */
  const fresh = async () => {
    const events = await all();
    const out = events.slice(mark);
    mark = events.length;
    return out;
  };
  const summary = async () =>
    (await fresh()).map((e) => {
      const object = (e.payload.data as { object: Record<string, unknown> }).object;
      return [e.type, e.resourceId, object.status ?? object.active ?? null];
    });
  const types = async () => (await fresh()).map((e) => e.type);
  return { w, scope, fresh, summary, types };
}

/** The world's unit of work with one repository method of the transaction replaced by a failing one. */
function failingAt<K extends keyof Repositories>(uow: UnitOfWork, repo: K, method: keyof Repositories[K]): UnitOfWork {
  return unitOfWork((work) =>
    uow.run((tx) => {
      const original = tx[repo] as object;
      const broken = new Proxy(original, {
        get(target, property, receiver) {
          if (property === method) return async () => Promise.reject(new Error('storage failed'));
          const value = Reflect.get(target, property, receiver);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      return work({ ...tx, [repo]: broken });
    }),
  );
}

const failure = (work: Promise<unknown>) => work.then(() => expect.fail('expected a failure'), (error: unknown) => error);

describe('events: contacts and products (memory)', () => {
  it('contact.created and contact.updated with the contact as GET shows it; a taken externalClientId writes none', async () => {
    const { w, scope, fresh, summary } = await world();
    const contact = await w.app.commands.createContact.execute({ externalClientId: 'ana', name: 'Ana', email: 'ana@example.com' }, { ...scope, requestId: 'req_1' });
    const [created] = await fresh();
    expect(created).to.deep.include({ type: 'contact.created', resourceId: `con_${contact.code}`, requestId: 'req_1' });
    expect((created!.payload.data as { object: Record<string, unknown> }).object).to.deep.include({ externalClientId: 'ana', name: 'Ana' });
    await failure(w.app.commands.createContact.execute({ externalClientId: 'ana', name: 'Again', email: 'a@example.com' }, scope));
    await w.app.commands.updateContact.execute(`con_${contact.code}`, { name: 'Ana María' }, scope);
    await failure(w.app.commands.updateContact.execute('con_unknown', { name: 'X' }, scope));
    const [updated, ...rest] = await fresh();
    expect(rest).to.deep.equal([]);
    expect(updated!.type).to.equal('contact.updated');
    expect((updated!.payload.data as { object: Record<string, unknown> }).object).to.deep.include({ name: 'Ana María' });
    expect(await summary()).to.deep.equal([]);
  });

  it('product.created once (not for the stored product a repeat returns), product.updated only for a change, product.deleted once', async () => {
    const { w, scope, summary } = await world();
    const product = await w.app.commands.createProduct.execute({ name: 'Gym' }, scope);
    await w.app.commands.createProduct.execute({ name: 'Gym' }, scope);
    const id = productIdOf(product);
    await w.app.commands.updateProduct.execute(id, { name: 'Gym' }, scope);
    await w.app.commands.updateProduct.execute(id, { name: 'Gym plus' }, scope);
    await w.app.commands.createProduct.execute({ name: 'Other' }, scope);
    await failure(w.app.commands.updateProduct.execute(id, { name: 'Other' }, scope));
    await w.app.commands.deleteProduct.execute(id, scope);
    await failure(w.app.commands.deleteProduct.execute(id, scope));
    const other = await w.app.commands.createProduct.execute({ name: 'Third' }, scope);
    await w.app.commands.updateProduct.execute(productIdOf(other), { active: false }, scope);
    const otherId = (await w.repos.products.findByName(scope.company.id, 'Other'))!;
    expect(await summary()).to.deep.equal([
      ['product.created', id, true],
      ['product.updated', id, true],
      ['product.created', productIdOf(otherId), true],
      ['product.deleted', id, false],
      ['product.created', productIdOf(other), true],
      ['product.updated', productIdOf(other), false],
    ]);
  });
});

describe('events: payment links (memory)', () => {
  const linkInput = (overrides: Record<string, unknown> = {}) => ({
    amountCents: 5_000,
    description: 'Invoice 7',
    expiresAt: new Date(T0.getTime() + 2 * DAY),
    ...overrides,
  });

  it('creation writes the inline contact and product, payment_link.created and debt.created (its associated debt)', async () => {
    const { w, scope, summary } = await world();
    const link = await w.app.commands.createPaymentLink.execute(
      linkInput({ debtor: { contactData: { externalClientId: 'bob', name: 'Bob', email: 'bob@example.com' } }, productName: 'Course' }),
      scope,
    );
    const events = await summary();
    expect(events.map((e) => e[0])).to.deep.equal(['contact.created', 'product.created', 'payment_link.created', 'debt.created']);
    expect(events.slice(2)).to.deep.equal([
      ['payment_link.created', `plk_${link.code}`, 'ACTIVE'],
      ['debt.created', `debt_plk_${link.code}`, 'PENDING'],
    ]);
  });

  it('a repeated externalPaymentLinkId writes nothing', async () => {
    const { w, scope, types } = await world();
    await w.app.commands.createPaymentLink.execute(linkInput({ externalPaymentLinkId: 'inv-1' }), scope);
    await types();
    await failure(w.app.commands.createPaymentLink.execute(linkInput({ externalPaymentLinkId: 'inv-1', productName: 'New product' }), scope));
    expect(await types()).to.deep.equal([]);
  });

  it('a creation that fails after its inline contact was written rolls the contact and its event back', async () => {
    const { w, scope, types } = await world();
    const create = new CreatePaymentLink({ ...w.infra.ports, uow: failingAt(w.uow, 'debts', 'insert') });
    const error = await failure(create.execute(linkInput({ debtor: { contactData: { externalClientId: 'zoe', name: 'Zoe', email: 'zoe@example.com' } } }), scope));
    expect((error as Error).message).to.equal('storage failed');
    expect(await types()).to.deep.equal([]);
    expect(await w.repos.contacts.findByExternalClientId(scope.organizationId, 'zoe')).to.equal(null);
  });

  it('PATCH writes payment_link.updated, and debt.updated when expiresAt moved the debt', async () => {
    const { w, scope, summary } = await world();
    const link = await w.app.commands.createPaymentLink.execute(linkInput(), scope);
    await summary();
    await w.app.commands.updatePaymentLink.execute(`plk_${link.code}`, () => ({ description: 'Invoice 7b' }), scope);
    await w.app.commands.updatePaymentLink.execute(`plk_${link.code}`, () => ({ expiresAt: new Date(T0.getTime() + 5 * DAY) }), scope);
    expect(await summary()).to.deep.equal([
      ['payment_link.updated', `plk_${link.code}`, 'ACTIVE'],
      ['payment_link.updated', `plk_${link.code}`, 'ACTIVE'],
      ['debt.updated', `debt_plk_${link.code}`, 'PENDING'],
    ]);
  });

  it('cancel writes payment_link.cancelled and debt.cancelled once; cancelling again or paying it writes nothing', async () => {
    const { w, scope, summary } = await world();
    const link = await w.app.commands.createPaymentLink.execute(linkInput(), scope);
    await summary();
    await w.app.commands.cancelPaymentLink.execute(`plk_${link.code}`, scope);
    await w.app.commands.cancelPaymentLink.execute(`plk_${link.code}`, scope);
    await failure(w.app.commands.payPaymentLink.execute(`plk_${link.code}`, undefined, 'test-helper', scope));
    expect(await summary()).to.deep.equal([
      ['payment_link.cancelled', `plk_${link.code}`, 'CANCELLED'],
      ['debt.cancelled', `debt_plk_${link.code}`, 'CANCELLED'],
    ]);
  });

  it('paying a single-use link writes debt.paid and payment_link.paid', async () => {
    const { w, scope, summary } = await world();
    const link = await w.app.commands.createPaymentLink.execute(linkInput(), scope);
    await summary();
    await w.app.commands.payPaymentLink.execute(`plk_${link.code}`, undefined, 'test-helper', scope);
    expect(await summary()).to.deep.equal([
      ['debt.paid', `debt_plk_${link.code}`, 'PAID'],
      ['payment_link.paid', `plk_${link.code}`, 'PAID'],
    ]);
  });

  it('each payment through a reusable link writes debt.created and debt.paid for its record and payment_link.paid (still ACTIVE)', async () => {
    const { w, scope, fresh } = await world();
    const link = await w.app.commands.createPaymentLink.execute(linkInput({ singleUse: false }), scope);
    await fresh();
    await w.app.commands.payPaymentLink.execute(`plk_${link.code}`, 1_000, 'test-helper', scope);
    await w.app.commands.payPaymentLink.execute(`plk_${link.code}`, 2_000, 'test-helper', scope);
    const events = await fresh();
    expect(events.map((e) => e.type)).to.deep.equal(['debt.created', 'debt.paid', 'payment_link.paid', 'debt.created', 'debt.paid', 'payment_link.paid']);
    const objects = events.map((e) => (e.payload.data as { object: Record<string, unknown> }).object);
    expect(objects[1]).to.deep.include({ status: 'PAID', amount: 10, amountPaid: 10 });
    expect(objects[2]).to.deep.include({ status: 'ACTIVE', paymentLinkId: `plk_${link.code}` });
    expect(objects[4]).to.deep.include({ amount: 20 });
    expect(events[0]!.resourceId).to.not.equal(events[3]!.resourceId);
  });

  it('the expiry job writes payment_link.expired once per link, as a worker change (no request)', async () => {
    const { w, scope, fresh } = await world();
    const soon = await w.app.commands.createPaymentLink.execute(linkInput({ expiresAt: new Date(T0.getTime() + HOUR) }), scope);
    await w.app.commands.createPaymentLink.execute(linkInput({ expiresAt: new Date(T0.getTime() + 3 * DAY) }), scope);
    await fresh();
    w.clock.advance(2 * HOUR);
    expect(await w.app.jobs.markExpiredPaymentLinks.execute()).to.deep.equal({ expired: 1 });
    expect(await w.app.jobs.markExpiredPaymentLinks.execute()).to.deep.equal({ expired: 0 });
    const events = await fresh();
    expect(events.map((e) => [e.type, e.resourceId, e.requestId, e.clientUserId])).to.deep.equal([['payment_link.expired', `plk_${soon.code}`, null, null]]);
    expect((events[0]!.payload.data as { object: Record<string, unknown> }).object).to.deep.include({ status: 'EXPIRED' });
  });
});

describe('events: subscriptions (memory)', () => {
  async function subscriptionWorld(options: Parameters<typeof memoryWorld>[1] = {}) {
    const base = await world(options);
    await base.w.app.commands.createContact.execute({ externalClientId: 'ana', name: 'Ana', email: 'ana@example.com' }, base.scope);
    await base.fresh();
    const create = (externalSubscriptionId: string, totalCycles: number, overrides: Partial<CreateSubscriptionInput> = {}) =>
      base.w.app.commands.createSubscription.execute(
        {
          externalSubscriptionId,
          debtor: { externalClientId: 'ana' },
          amountCents: 10_000,
          schedule: { intervalUnit: 'month', intervalCount: 1, startDate: '2031-06-01', totalCycles },
          productName: 'Gym plan',
          ...overrides,
        },
        base.scope,
      );
    const generate = () => base.w.infra.jobs.inProcess!.drain();
    return { ...base, create, generate };
  }

  it('creation writes subscription.created (and the inline product); the generation job debt.created per cycle, then subscription.cycles_generated', async () => {
    const { create, generate, summary } = await subscriptionWorld();
    const sub = await create('gym', 3);
    await generate();
    const id = subscriptionIdOf(sub);
    expect(await summary()).to.deep.equal([
      ['product.created', `prd_${sub.productId}`, true],
      ['subscription.created', id, 'ACTIVE'],
      ...[0, 1, 2].map((n) => ['debt.created', `debt_${cycleRequestId('gym', n)}`, 'PENDING']),
      ['subscription.cycles_generated', id, 'ACTIVE'],
    ]);
  });

  it('a generation run again, or killed half-way and run again, writes each cycle and its event once', async () => {
    // A queue that takes the generation job and never runs it: the test runs it by hand.
    const { w, create, types } = await subscriptionWorld({ ports: { queue: { enqueue: async () => undefined } } });
    // Two transactions' worth of cycles: the whole first one, and 190 more.
    const cycles = CYCLES_PER_TRANSACTION + 190;
    const sub = await create('weekly', cycles, { schedule: { intervalUnit: 'week', intervalCount: 1, startDate: '2031-06-01', totalCycles: cycles } });
    // The generation dies in its second chunk (after the first committed).
    let chunks = 0;
    const real = w.infra.ports.uow;
    const dying = unitOfWork((work) => (++chunks === 2 ? Promise.reject(new Error('worker killed')) : real.run(work)));
    const job = { subscriptionId: sub.id, resume: 0, fromDate: null };
    const crashing = new GenerateSubscriptionCycles({ ...w.infra.ports, uow: dying });
    await failure(crashing.execute(job));
    const afterCrash = await types();
    expect(afterCrash.filter((t) => t === 'debt.created')).to.have.length(CYCLES_PER_TRANSACTION);
    expect(afterCrash).to.not.include('subscription.cycles_generated');
    await w.app.jobs.generateSubscriptionCycles.execute(job);
    await w.app.jobs.generateSubscriptionCycles.execute(job);
    // Two runs at once (a stalled job handed to a second worker) serialize on the subscription.
    await Promise.all([w.app.jobs.generateSubscriptionCycles.execute(job), w.app.jobs.generateSubscriptionCycles.execute(job)]);
    const rest = await types();
    expect(rest.filter((t) => t === 'debt.created')).to.have.length(cycles - CYCLES_PER_TRANSACTION);
    expect(rest.filter((t) => t === 'subscription.cycles_generated')).to.have.length(1);
    expect(rest.at(-1)).to.equal('subscription.cycles_generated');
  });

  it('pause writes subscription.paused and debt.cancelled per unpaid debt; resume subscription.resumed, then the new cycles; cancel subscription.cancelled', async () => {
    const { w, scope, create, generate, summary } = await subscriptionWorld();
    const sub = await create('gym', 3);
    await generate();
    await w.app.commands.payDebt.execute(`debt_${cycleRequestId('gym', 0)}`, undefined, 'test-helper', scope);
    await summary();
    const id = subscriptionIdOf(sub);
    await w.app.commands.changeSubscriptionState.execute('pause', id, scope);
    expect(await summary()).to.deep.equal([
      ['subscription.paused', id, 'PAUSED'],
      ['debt.cancelled', `debt_${cycleRequestId('gym', 1)}`, 'CANCELLED'],
      ['debt.cancelled', `debt_${cycleRequestId('gym', 2)}`, 'CANCELLED'],
    ]);
    await failure(w.app.commands.changeSubscriptionState.execute('pause', id, scope));
    await failure(w.app.commands.updateSubscription.execute(id, { amountCents: 1 }, scope));
    expect(await summary()).to.deep.equal([]);
    await w.app.commands.changeSubscriptionState.execute('resume', id, scope);
    await generate();
    expect(await summary()).to.deep.equal([
      ['subscription.resumed', id, 'ACTIVE'],
      ['debt.created', `debt_${cycleRequestId('gym', 0, 1)}`, 'PENDING'],
      ['debt.created', `debt_${cycleRequestId('gym', 1, 1)}`, 'PENDING'],
      ['subscription.cycles_generated', id, 'ACTIVE'],
    ]);
    await w.app.commands.changeSubscriptionState.execute('cancel', id, scope);
    expect(await summary()).to.deep.equal([
      ['subscription.cancelled', id, 'CANCELLED'],
      ['debt.cancelled', `debt_${cycleRequestId('gym', 0, 1)}`, 'CANCELLED'],
      ['debt.cancelled', `debt_${cycleRequestId('gym', 1, 1)}`, 'CANCELLED'],
    ]);
  });

  it('a pause that fails after cancelling the debts rolls the cancellations and their events back', async () => {
    const { w, scope, create, generate, types } = await subscriptionWorld();
    const sub = await create('gym', 2);
    await generate();
    await types();
    const pause = new ChangeSubscriptionState({ ...w.infra.ports, uow: failingAt(w.uow, 'subscriptions', 'update'), dispatchOutbox: w.app.jobs.dispatchOutbox });
    await failure(pause.execute('pause', subscriptionIdOf(sub), scope));
    expect(await types()).to.deep.equal([]);
    expect((await w.repos.debts.openOfSubscription(sub.id)).map((d) => d.status)).to.deep.equal(['PENDING', 'PENDING']);
  });

  it('PATCH writes subscription.updated, then debt.updated per synced debt and debt.paid for one the new amount pays in full', async () => {
    const { w, scope, create, generate, summary } = await subscriptionWorld();
    const sub = await create('gym', 2);
    await generate();
    await w.app.commands.payDebt.execute(`debt_${cycleRequestId('gym', 0)}`, 6_000, 'test-helper', scope);
    await summary();
    const id = subscriptionIdOf(sub);
    await w.app.commands.updateSubscription.execute(id, { description: 'Gold' }, scope);
    expect(await summary()).to.deep.equal([['subscription.updated', id, 'ACTIVE']]);
    await w.app.commands.updateSubscription.execute(id, { amountCents: 6_000 }, scope);
    expect(await summary()).to.deep.equal([
      ['subscription.updated', id, 'ACTIVE'],
      ['debt.updated', `debt_${cycleRequestId('gym', 0)}`, 'PAID'],
      ['debt.paid', `debt_${cycleRequestId('gym', 0)}`, 'PAID'],
      ['debt.updated', `debt_${cycleRequestId('gym', 1)}`, 'PENDING'],
    ]);
  });

  it('the mark-ended job persists ENDED with subscription.ended once, on the organization clock; reads and the ENDED filter agree', async () => {
    const { w, scope, create, generate, fresh } = await subscriptionWorld();
    const ending = await create('short', 1);
    await create('open', 1, { schedule: { intervalUnit: 'month', intervalCount: 1, startDate: '2031-06-01' } });
    await generate();
    await fresh();
    expect(await w.app.jobs.markEndedSubscriptions.execute()).to.deep.equal({ ended: 0 });
    w.clock.set(new Date('2031-06-02T00:00:00.000Z'));
    expect(await w.app.jobs.markEndedSubscriptions.execute()).to.deep.equal({ ended: 1 });
    expect(await w.app.jobs.markEndedSubscriptions.execute()).to.deep.equal({ ended: 0 });
    const events = await fresh();
    expect(events.map((e) => [e.type, e.resourceId, e.requestId])).to.deep.equal([['subscription.ended', subscriptionIdOf(ending), null]]);
    expect((events[0]!.payload.data as { object: Record<string, unknown> }).object).to.deep.include({ status: 'ENDED' });
    expect((await w.repos.subscriptions.findById(ending.id))!.status).to.equal('ENDED');
    const today = '2031-06-02';
    const ended = await w.repos.subscriptions.list(scope.company.id, { status: 'ENDED', today }, { page: 1, limit: 10 });
    expect(ended.items.map((s) => s.code)).to.deep.equal([ending.code]);
    const active = await w.repos.subscriptions.list(scope.company.id, { status: 'ACTIVE', today }, { page: 1, limit: 10 });
    expect(active.items.map((s) => s.externalSubscriptionId)).to.deep.equal(['open']);
    await failure(w.app.commands.changeSubscriptionState.execute('pause', subscriptionIdOf(ending), scope));
    expect(await fresh()).to.deep.equal([]);
  });
});
