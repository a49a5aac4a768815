/**
 * Subscriptions in storage: the SubscriptionRepository (insert, the three finds, the lock, update,
 * the mark-ended transition and the list with its effective status) and the debts' methods about
 * one subscription's cycles (cancel the unpaid ones, the live due dates, the open ones), so the
 * memory and SQL adapters are compared on every one.
 */
import { expect } from 'chai';
import type { Contact } from '../../internal/contacts/contact';
import type { Debt } from '../../internal/debts/debt';
import type { Product } from '../../internal/products/product';
import type { Subscription, SubscriptionStatus } from '../../internal/subscriptions/subscription';
import type { NewSubscription, SubscriptionView } from '../../ports/subscription-repository';
import { at, expectConflict, newContact, newDebt, newProduct, newTenant, PAGE, rejectionOf, T1, T2, type TenantFixture, uid, viewOf } from './fixtures';
import type { ContractContext } from './repositories.contract';
import type { Repositories } from '../../ports/unit-of-work';
import { contend, expectWaited } from './contention';

export interface SubscriptionFixture extends TenantFixture {
  contact: Contact;
  product: Product;
}

/** An ACTIVE monthly subscription of 100.00 on the 15th, six cycles from 2026-01-15 (the last due 2026-06-15). */
export function newSubscription(t: SubscriptionFixture, overrides: Partial<NewSubscription> = {}): NewSubscription {
  return {
    organizationId: t.organization.id,
    companyId: t.company.id,
    code: `S${uid()}${uid()}`,
    externalSubscriptionId: `ext-sub-${uid()}`,
    contactId: t.contact.id,
    contactCreatedInline: false,
    productId: t.product.id,
    productCreatedInline: false,
    status: 'ACTIVE',
    amountCents: 10_000,
    currency: 'MXN',
    schedule: { intervalUnit: 'month', intervalCount: 1, startDate: '2026-01-15', totalCycles: 6, endDate: null, billingDay: { day: 15 } },
    lastDueDate: '2026-06-15',
    enforcePaymentOrder: false,
    autopay: false,
    allowOverduePayment: true,
    allowPartialPayments: false,
    paymentMethods: null,
    description: null,
    additionalData: null,
    resumeCount: 0,
    createdAt: T1,
    updatedAt: T1,
    ...overrides,
  };
}

/** What a read returns for a stored subscription: the row plus its embedded contact and product. */
function subscriptionViewOf(s: Subscription, contact: Contact, product: Product): SubscriptionView {
  return {
    ...s,
    contact: { code: contact.code, externalClientId: contact.externalClientId },
    product: { id: product.id, name: product.name, active: product.active },
  };
}

export function describeSubscriptionsContract({ repos, uow, contention }: ContractContext): void {
  async function subscriptionTenant(options: { companies?: number } = {}): Promise<SubscriptionFixture> {
    const tenant = await newTenant(repos(), options);
    const contact = await repos().contacts.insert(newContact(tenant.organization.id));
    const product = await repos().products.insert(newProduct(tenant.company));
    return { ...tenant, contact, product };
  }
  const insert = (t: SubscriptionFixture, overrides: Partial<NewSubscription> = {}) => repos().subscriptions.insert(newSubscription(t, overrides));
  const view = (t: SubscriptionFixture, s: Subscription) => subscriptionViewOf(s, t.contact, t.product);
  const externalIds = (items: Subscription[]) => items.map((s) => s.externalSubscriptionId);

  describe('SubscriptionRepository', () => {
    it('round-trips a subscription (cents exact, instants to the millisecond, JSON fields, the schedule) and one with every optional field null', async () => {
      const t = await subscriptionTenant();
      const full = newSubscription(t, {
        amountCents: 9_007_199_254_740,
        currency: 'USD',
        contactCreatedInline: true,
        productCreatedInline: true,
        schedule: { intervalUnit: 'year', intervalCount: 2, startDate: '2026-02-28', totalCycles: null, endDate: '2034-03-01', billingDay: { day: 28, month: 2 } },
        lastDueDate: '2034-02-28',
        enforcePaymentOrder: true,
        autopay: true,
        allowOverduePayment: false,
        allowPartialPayments: true,
        paymentMethods: ['CASH', 'TRANSFER'],
        description: 'Plan Ñandú «oro»',
        additionalData: { plan: 'gold', seats: 3, ratio: 0.25, tags: ['a', 'ñ'], nested: { none: null, yes: true } },
        resumeCount: 2,
        createdAt: at('2026-07-01T10:11:12.345Z'),
        updatedAt: at('2026-07-02T00:00:00.001Z'),
      });
      const stored = await repos().subscriptions.insert(full);
      expect(stored).to.deep.equal({ ...full, id: stored.id });
      expect(stored.id).to.be.a('number');
      expect(await repos().subscriptions.findByCode(t.company.id, full.code)).to.deep.equal(view(t, stored));
      expect(await repos().subscriptions.findById(stored.id)).to.deep.equal(view(t, stored));
      expect(await repos().subscriptions.findByExternalSubscriptionId(t.organization.id, full.externalSubscriptionId)).to.deep.equal(view(t, stored));

      const bare = newSubscription(t, {
        schedule: { intervalUnit: 'week', intervalCount: 1, startDate: '2026-01-05', totalCycles: null, endDate: null, billingDay: null },
        lastDueDate: null,
      });
      const open = await repos().subscriptions.insert(bare);
      expect(await repos().subscriptions.findById(open.id)).to.deep.equal(view(t, { ...bare, id: open.id }));
      const empties = await insert(t, { paymentMethods: [], additionalData: {} });
      expect(await repos().subscriptions.findById(empties.id)).to.deep.include({ paymentMethods: [], additionalData: {} });
    });

    it('rejects an externalSubscriptionId the organization has (in any of its companies) with ConflictError, not one of another organization', async () => {
      const t = await subscriptionTenant({ companies: 2 });
      const first = await insert(t, { externalSubscriptionId: 'plan-1' });
      await expectConflict(insert(t, { externalSubscriptionId: 'plan-1' }));
      await expectConflict(insert({ ...t, company: t.companies[1]! }, { externalSubscriptionId: 'plan-1' }));
      const other = await subscriptionTenant();
      const elsewhere = await insert(other, { externalSubscriptionId: 'plan-1' });
      expect(elsewhere.id).to.not.equal(first.id);
      expect((await repos().subscriptions.findByExternalSubscriptionId(t.organization.id, 'plan-1'))!.id).to.equal(first.id);
      expect((await repos().subscriptions.findByExternalSubscriptionId(other.organization.id, 'plan-1'))!.id).to.equal(elsewhere.id);
      expect(await repos().subscriptions.findByExternalSubscriptionId(t.organization.id, 'plan-2')).to.equal(null);
    });

    it('rejects a code that is taken (the public id) with ConflictError', async () => {
      const t = await subscriptionTenant();
      const first = await insert(t);
      await expectConflict(insert(t, { code: first.code }));
      const other = await subscriptionTenant();
      await expectConflict(insert(other, { code: first.code }));
      expect((await repos().subscriptions.findByCode(t.company.id, first.code))!.id).to.equal(first.id);
    });

    it('finds by code only in its company, by id, and returns null for what is not there', async () => {
      const t = await subscriptionTenant({ companies: 2 });
      const s = await insert(t);
      expect(await repos().subscriptions.findByCode(t.company.id, s.code)).to.deep.equal(view(t, s));
      expect(await repos().subscriptions.findByCode(t.companies[1]!.id, s.code)).to.equal(null);
      expect(await repos().subscriptions.findByCode(t.company.id, `none${uid()}`)).to.equal(null);
      expect(await repos().subscriptions.findById(2_000_000_000)).to.equal(null);
    });

    it('embeds the contact and product as they read now', async () => {
      const t = await subscriptionTenant();
      const s = await insert(t);
      await repos().products.rename(t.company.id, t.product.id, 'Renamed');
      expect(await repos().products.deactivate(t.company.id, t.product.id)).to.equal(true);
      expect((await repos().subscriptions.findById(s.id))!.product).to.deep.equal({ id: t.product.id, name: 'Renamed', active: false });
    });

    describe('lockByCode', () => {
      it('reads the subscription inside a unit of work, like findByCode', async () => {
        const t = await subscriptionTenant({ companies: 2 });
        const s = await insert(t);
        const seen = await uow().run(async (tx) => ({
          mine: await tx.subscriptions.lockByCode(t.company.id, s.code),
          unknown: await tx.subscriptions.lockByCode(t.company.id, `none${uid()}`),
          foreign: await tx.subscriptions.lockByCode(t.companies[1]!.id, s.code),
        }));
        expect(seen).to.deep.equal({ mine: view(t, s), unknown: null, foreign: null });
      });

      it('serializes concurrent read-modify-write transactions on one subscription (no lost update)', async () => {
        const t = await subscriptionTenant();
        const s = await insert(t);
        const increment = () =>
          uow().run(async (tx) => {
            const locked = (await tx.subscriptions.lockByCode(t.company.id, s.code))!;
            await tx.subscriptions.findById(s.id);
            return tx.subscriptions.update(t.company.id, locked.id, { resumeCount: locked.resumeCount + 1, updatedAt: T2 });
          });
        await Promise.all(Array.from({ length: 8 }, increment));
        expect((await repos().subscriptions.findById(s.id))!.resumeCount).to.equal(8);
      });
    });

    describe('update', () => {
      it('changes each field it is given, stamps updatedAt and returns the view with contact and product', async () => {
        const t = await subscriptionTenant();
        const s = await insert(t, { description: 'Before', additionalData: { a: 1 }, paymentMethods: ['CARD'] });
        const changed = await repos().subscriptions.update(t.company.id, s.id, {
          amountCents: 12_345_678_901,
          description: 'After «ñ»',
          enforcePaymentOrder: true,
          allowOverduePayment: false,
          autopay: true,
          paymentMethods: ['CASH', 'WALLET'],
          additionalData: { b: [1, 2], c: { d: null } },
          status: 'PAUSED',
          resumeCount: 3,
          updatedAt: at('2026-08-09T10:11:12.999Z'),
        });
        const expected = view(t, {
          ...s,
          amountCents: 12_345_678_901,
          description: 'After «ñ»',
          enforcePaymentOrder: true,
          allowOverduePayment: false,
          autopay: true,
          paymentMethods: ['CASH', 'WALLET'],
          additionalData: { b: [1, 2], c: { d: null } },
          status: 'PAUSED',
          resumeCount: 3,
          updatedAt: at('2026-08-09T10:11:12.999Z'),
        });
        expect(changed).to.deep.equal(expected);
        expect(await repos().subscriptions.findById(s.id)).to.deep.equal(expected);
      });

      it('changes only the fields given; paymentMethods null clears them', async () => {
        const t = await subscriptionTenant();
        const s = await insert(t, { description: 'Kept', additionalData: { a: 1 }, paymentMethods: ['CARD'] });
        expect(await repos().subscriptions.update(t.company.id, s.id, { updatedAt: T2 })).to.deep.equal(view(t, { ...s, updatedAt: T2 }));
        const cleared = await repos().subscriptions.update(t.company.id, s.id, { paymentMethods: null, updatedAt: T2 });
        expect(cleared).to.deep.equal(view(t, { ...s, paymentMethods: null, updatedAt: T2 }));
        for (const [changes, field] of [
          [{ amountCents: 1 }, 'amountCents'], [{ description: 'x' }, 'description'], [{ enforcePaymentOrder: true }, 'enforcePaymentOrder'],
          [{ allowOverduePayment: false }, 'allowOverduePayment'], [{ autopay: true }, 'autopay'], [{ additionalData: { z: 'z' } }, 'additionalData'],
          [{ status: 'CANCELLED' }, 'status'], [{ resumeCount: 9 }, 'resumeCount'],
        ] as const) {
          const before = (await repos().subscriptions.findById(s.id))!;
          const after = await repos().subscriptions.update(t.company.id, s.id, { ...changes, updatedAt: T1 });
          expect(after, field).to.deep.equal({ ...before, ...changes, updatedAt: T1 });
        }
      });

      it('stores what it is given, not the caller\'s arrays and objects (changing them afterwards changes nothing)', async () => {
        const t = await subscriptionTenant();
        const s = await insert(t);
        const paymentMethods: NonNullable<Subscription['paymentMethods']> = ['CARD'];
        const additionalData: Record<string, unknown> = { a: 1 };
        await repos().subscriptions.update(t.company.id, s.id, { paymentMethods, additionalData, updatedAt: T2 });
        paymentMethods.push('CASH');
        additionalData.b = 2;
        expect(await repos().subscriptions.findById(s.id)).to.deep.include({ paymentMethods: ['CARD'], additionalData: { a: 1 } });
      });

      it('does not touch another company\'s subscription (the call rejects)', async () => {
        const t = await subscriptionTenant({ companies: 2 });
        const s = await insert(t);
        expect(await rejectionOf(repos().subscriptions.update(t.companies[1]!.id, s.id, { amountCents: 1, updatedAt: T2 }))).to.be.instanceOf(Error);
        expect(await repos().subscriptions.findById(s.id)).to.deep.equal(view(t, s));
      });
    });

    describe('markEnded', () => {
      it("ends the organization's ACTIVE subscriptions whose last cycle is before today, in every company, and returns them as they now read", async () => {
        const t = await subscriptionTenant({ companies: 2 });
        const siblingProduct = await repos().products.insert(newProduct(t.companies[1]!));
        const sibling = { ...t, company: t.companies[1]!, product: siblingProduct };
        const seed = (fixture: SubscriptionFixture, key: string, status: SubscriptionStatus, lastDueDate: string | null) =>
          insert(fixture, { externalSubscriptionId: key, status, lastDueDate });
        const lateA = await seed(t, 'late-a', 'ACTIVE', '2026-05-31');
        const lateB = await seed(sibling, 'late-b', 'ACTIVE', '2026-01-15');
        const kept = [
          await seed(t, 'due-today', 'ACTIVE', '2026-06-01'),
          await seed(t, 'future', 'ACTIVE', '2026-12-15'),
          await seed(t, 'open-ended', 'ACTIVE', null),
          await seed(t, 'paused', 'PAUSED', '2026-01-15'),
          await seed(t, 'cancelled', 'CANCELLED', '2026-01-15'),
          await seed(t, 'already', 'ENDED', '2026-01-15'),
        ];
        const other = await subscriptionTenant();
        const foreign = await seed(other, 'late-a', 'ACTIVE', '2026-01-15');

        const ended = await uow().run((tx) => tx.subscriptions.markEnded(t.organization.id, '2026-06-01', T2, 100));
        expect(ended).to.have.deep.members([
          view(t, { ...lateA, status: 'ENDED', updatedAt: T2 }),
          view(sibling, { ...lateB, status: 'ENDED', updatedAt: T2 }),
        ]);
        expect(await repos().subscriptions.findById(lateA.id)).to.deep.equal(view(t, { ...lateA, status: 'ENDED', updatedAt: T2 }));
        expect(await repos().subscriptions.findById(lateB.id)).to.deep.equal(view(sibling, { ...lateB, status: 'ENDED', updatedAt: T2 }));
        for (const s of kept) expect(await repos().subscriptions.findById(s.id), s.externalSubscriptionId).to.deep.equal(view(t, s));
        expect(await repos().subscriptions.findById(foreign.id)).to.deep.equal(view(other, foreign));
        expect(await uow().run((tx) => tx.subscriptions.markEnded(t.organization.id, '2026-06-01', T2, 100))).to.deep.equal([]);
      });

      it('ends at most `limit` per call, so a caller works through them in bounded transactions', async () => {
        const t = await subscriptionTenant();
        for (const key of ['l-1', 'l-2', 'l-3']) await insert(t, { externalSubscriptionId: key, lastDueDate: '2026-01-15' });
        const first = await uow().run((tx) => tx.subscriptions.markEnded(t.organization.id, '2026-06-01', T2, 2));
        const second = await uow().run((tx) => tx.subscriptions.markEnded(t.organization.id, '2026-06-01', T2, 2));
        expect(first).to.have.length(2);
        expect(second).to.have.length(1);
        expect(externalIds([...first, ...second]).sort()).to.deep.equal(['l-1', 'l-2', 'l-3']);
        expect(await uow().run((tx) => tx.subscriptions.markEnded(t.organization.id, '2026-06-01', T2, 2))).to.deep.equal([]);
      });

      it('ends the earliest last cycle first (then by id), and answers them by id', async () => {
        const t = await subscriptionTenant();
        for (const [key, lastDueDate] of [['late', '2026-03-15'], ['early', '2026-01-15'], ['middle', '2026-02-15']] as const) {
          await insert(t, { externalSubscriptionId: key, lastDueDate });
        }
        expect(externalIds(await uow().run((tx) => tx.subscriptions.markEnded(t.organization.id, '2026-06-01', T2, 2)))).to.deep.equal(['early', 'middle']);
        expect(externalIds(await uow().run((tx) => tx.subscriptions.markEnded(t.organization.id, '2026-06-01', T2, 2)))).to.deep.equal(['late']);
      });
    });

    describe('concurrency', () => {
      it('holds a second lockByCode until the first commits: it reads the first one\'s write (no lost update)', async () => {
        const t = await subscriptionTenant();
        const s = await insert(t);
        const resume = async (tx: Repositories) => {
          const locked = (await tx.subscriptions.lockByCode(t.company.id, s.code))!;
          return { seen: locked.resumeCount, after: await tx.subscriptions.update(t.company.id, locked.id, { resumeCount: locked.resumeCount + 1, updatedAt: T2 }) };
        };
        const outcome = await contend(
          uow(),
          contention(),
          async (tx, hold) => {
            const locked = (await tx.subscriptions.lockByCode(t.company.id, s.code))!;
            await hold();
            return tx.subscriptions.update(t.company.id, locked.id, { resumeCount: locked.resumeCount + 1, status: 'PAUSED', updatedAt: T2 });
          },
          resume,
        );
        expectWaited(outcome, contention());
        expect(outcome.second.seen, 'the second locker reads the first one\'s committed count').to.equal(1);
        expect(outcome.second.after).to.deep.include({ resumeCount: 2, status: 'PAUSED' });
      });

      it('markEnded serializes with a concurrent cancellation holding the subscription: one of them wins, neither overwrites the other', async () => {
        const t = await subscriptionTenant();
        const s = await insert(t, { lastDueDate: '2026-01-15' });
        const outcome = await contend(
          uow(),
          contention(),
          async (tx, hold) => {
            const locked = (await tx.subscriptions.lockByCode(t.company.id, s.code))!;
            await hold();
            if (locked.status !== 'ACTIVE') return locked.status;
            await tx.subscriptions.update(t.company.id, locked.id, { status: 'CANCELLED', updatedAt: T2 });
            return 'CANCELLED';
          },
          (tx) => tx.subscriptions.markEnded(t.organization.id, '2026-06-01', T2, 100),
        );
        const stored = (await repos().subscriptions.findById(s.id))!;
        if (outcome.first === 'CANCELLED') {
          expect(outcome.second, 'cancelled first: markEnded finds it no longer ACTIVE').to.deep.equal([]);
          expect(stored.status).to.equal('CANCELLED');
        } else {
          expect(outcome.first, 'ended first: the cancellation reads ENDED').to.equal('ENDED');
          expect(outcome.second.map((x) => x.id)).to.deep.equal([s.id]);
          expect(stored.status).to.equal('ENDED');
        }
      });

      it('hands each subscription past its last cycle to exactly one of two concurrent markEnded runs', async () => {
        const t = await subscriptionTenant();
        const late: Subscription[] = [];
        for (const key of ['c-1', 'c-2', 'c-3']) late.push(await insert(t, { externalSubscriptionId: key, lastDueDate: '2026-01-15' }));
        const end = (tx: Repositories) => tx.subscriptions.markEnded(t.organization.id, '2026-06-01', T2, 100);
        const outcome = await contend(
          uow(),
          contention(),
          async (tx, hold) => {
            const ended = await end(tx);
            await hold();
            return ended;
          },
          end,
        );
        expect(outcome.first.map((s) => s.id).sort((a, b) => a - b)).to.deep.equal(late.map((s) => s.id));
        expect(outcome.second, 'the second finds none left: it never ends a subscription twice').to.deep.equal([]);
      });
    });

    describe('list', () => {
      async function listed(t: SubscriptionFixture) {
        const otherContact = await repos().contacts.insert(newContact(t.organization.id));
        const seed = (key: string, status: SubscriptionStatus, lastDueDate: string | null, contactId = t.contact.id) =>
          insert(t, { externalSubscriptionId: key, status, lastDueDate, contactId });
        // Binary order: upper case sorts before lower case.
        const s = {
          active: await seed('sub-b', 'ACTIVE', '2026-06-01'),
          open: await seed('sub-D', 'ACTIVE', null, otherContact.id),
          pastLast: await seed('sub-a', 'ACTIVE', '2026-05-31'),
          ended: await seed('sub-e', 'ENDED', '2026-01-15', otherContact.id),
          paused: await seed('sub-C', 'PAUSED', '2026-01-15'),
          cancelled: await seed('sub-f', 'CANCELLED', null),
        };
        return { s, otherContact };
      }
      const today = '2026-06-01';

      it("lists the company's by externalSubscriptionId descending, with total and pages, contact and product embedded", async () => {
        const t = await subscriptionTenant({ companies: 2 });
        const { s } = await listed(t);
        const all = await repos().subscriptions.list(t.company.id, { today }, PAGE);
        expect(externalIds(all.items)).to.deep.equal(['sub-f', 'sub-e', 'sub-b', 'sub-a', 'sub-D', 'sub-C']);
        expect([all.total, all.capped]).to.deep.equal([6, false]);
        expect(all.items[2]).to.deep.equal(view(t, s.active));
        const first = await repos().subscriptions.list(t.company.id, { today }, { page: 1, limit: 4 });
        const second = await repos().subscriptions.list(t.company.id, { today }, { page: 2, limit: 4 });
        const beyond = await repos().subscriptions.list(t.company.id, { today }, { page: 3, limit: 4 });
        expect(externalIds(first.items)).to.deep.equal(['sub-f', 'sub-e', 'sub-b', 'sub-a']);
        expect(externalIds(second.items)).to.deep.equal(['sub-D', 'sub-C']);
        expect([first.total, second.total, beyond.total, beyond.items]).to.deep.equal([6, 6, 6, []]);
        expect(await repos().subscriptions.list(t.companies[1]!.id, { today }, PAGE)).to.deep.equal({ items: [], total: 0, capped: false });
      });

      it('filters by the effective status: ENDED includes ACTIVE ones past their last cycle on `today`, ACTIVE excludes them', async () => {
        const t = await subscriptionTenant();
        const { s } = await listed(t);
        const by = async (status: SubscriptionStatus, day = today) => {
          const page = await repos().subscriptions.list(t.company.id, { status, today: day }, PAGE);
          expect(page.total, status).to.equal(page.items.length);
          return externalIds(page.items);
        };
        expect(await by('ACTIVE')).to.deep.equal(['sub-b', 'sub-D']);
        expect(await by('ENDED')).to.deep.equal(['sub-e', 'sub-a']);
        expect(await by('PAUSED')).to.deep.equal(['sub-C']);
        expect(await by('CANCELLED')).to.deep.equal(['sub-f']);
        expect(await by('ACTIVE', '2026-06-02')).to.deep.equal(['sub-D']);
        expect(await by('ENDED', '2026-06-02')).to.deep.equal(['sub-e', 'sub-b', 'sub-a']);
        // The stored status is kept as it is: the list only reads.
        const read = (await repos().subscriptions.list(t.company.id, { status: 'ENDED', today }, PAGE)).items.find((x) => x.id === s.pastLast.id)!;
        expect(read.status).to.equal('ACTIVE');
      });

      it("tells each status's exact total on full and empty pages, through pauses, cancellations and the mark-ended job", async () => {
        const t = await subscriptionTenant();
        const { s } = await listed(t);
        // limit 1: every page with a match is full, so no page tells its own total.
        const totals = async (day: string) => {
          const out: Record<string, number[]> = {};
          for (const status of [undefined, 'ACTIVE', 'ENDED', 'PAUSED', 'CANCELLED'] as const) {
            const full = await repos().subscriptions.list(t.company.id, { status, today: day }, { page: 1, limit: 1 });
            const empty = await repos().subscriptions.list(t.company.id, { status, today: day }, { page: 50, limit: 1 });
            out[status ?? 'all'] = [full.total, empty.total];
          }
          return out;
        };
        expect(await totals(today)).to.deep.equal({ all: [6, 6], ACTIVE: [2, 2], ENDED: [2, 2], PAUSED: [1, 1], CANCELLED: [1, 1] });
        expect(await totals('2026-06-02')).to.deep.equal({ all: [6, 6], ACTIVE: [1, 1], ENDED: [3, 3], PAUSED: [1, 1], CANCELLED: [1, 1] });
        await repos().subscriptions.update(t.company.id, s.active.id, { status: 'PAUSED', updatedAt: T2 });
        await repos().subscriptions.update(t.company.id, s.open.id, { status: 'CANCELLED', updatedAt: T2 });
        await repos().subscriptions.update(t.company.id, s.paused.id, { description: 'still paused', updatedAt: T2 });
        expect(await totals(today)).to.deep.equal({ all: [6, 6], ACTIVE: [0, 0], ENDED: [2, 2], PAUSED: [2, 2], CANCELLED: [2, 2] });
        await repos().subscriptions.update(t.company.id, s.active.id, { status: 'ACTIVE', updatedAt: T2 });
        expect(await repos().subscriptions.markEnded(t.organization.id, '2026-06-02', T2, 10)).to.have.length(2);
        for (const day of [today, '2026-06-02']) {
          expect(await totals(day), day).to.deep.equal({ all: [6, 6], ACTIVE: [0, 0], ENDED: [3, 3], PAUSED: [1, 1], CANCELLED: [2, 2] });
        }
      });

      it("filters by the debtor's externalClientId, alone and with a status", async () => {
        const t = await subscriptionTenant();
        const { otherContact } = await listed(t);
        const debtor = { organizationId: t.organization.id, externalClientId: otherContact.externalClientId };
        const page = await repos().subscriptions.list(t.company.id, { today, debtor }, PAGE);
        expect(externalIds(page.items)).to.deep.equal(['sub-e', 'sub-D']);
        expect(page.total).to.equal(2);
        expect(page.items[0]!.contact).to.deep.equal({ code: otherContact.code, externalClientId: otherContact.externalClientId });
        const ended = await repos().subscriptions.list(t.company.id, { today, debtor, status: 'ENDED' }, PAGE);
        expect([externalIds(ended.items), ended.total]).to.deep.equal([['sub-e'], 1]);
        expect((await repos().subscriptions.list(t.company.id, { today, debtor: { ...debtor, externalClientId: 'nobody-here' } }, PAGE)).total).to.equal(0);
        expect((await repos().subscriptions.list(t.company.id, { today, debtor: { ...debtor, organizationId: t.organization.id + 1_000_000 } }, PAGE)).total).to.equal(0);
      });

      it("totals a debtor's subscriptions of this company alone (every status), past the last page and inside the work that wrote them", async () => {
        const t = await subscriptionTenant({ companies: 2 });
        const debtor = { organizationId: t.organization.id, externalClientId: t.contact.externalClientId };
        for (const status of ['ACTIVE', 'PAUSED', 'CANCELLED'] as const) await insert(t, { status });
        await insert(t, { companyId: t.companies[1]!.id });
        await insert(t, { contactId: (await repos().contacts.insert(newContact(t.organization.id))).id });
        const totals = async (companyId: number, page = 1) => (await repos().subscriptions.list(companyId, { today, debtor }, { page, limit: 2 })).total;
        expect([await totals(t.company.id), await totals(t.company.id, 2), await totals(t.company.id, 5), await totals(t.companies[1]!.id)]).to.deep.equal([3, 3, 3, 1]);
        const seen = await uow().run(async (tx) => {
          await tx.subscriptions.insert(newSubscription(t));
          return (await tx.subscriptions.list(t.company.id, { today, debtor }, { page: 3, limit: 2 })).total;
        });
        expect([seen, await totals(t.company.id)]).to.deep.equal([4, 4]);
      });
    });
  });

  describe('DebtRepository: debts of a subscription', () => {
    /** A subscription with one debt in each status, plus debts of another subscription and of none. */
    async function withCycles() {
      const t = await subscriptionTenant();
      const subscription = await insert(t);
      const another = await insert(t);
      const cycle = (status: Debt['status'], dueDate: string, subscriptionId: number | null = subscription.id) =>
        repos().debts.insert(newDebt(t, {
          status, dueDate, subscriptionId, productId: t.product.id,
          amountPaidCents: status === 'PAID' ? 10_000 : status === 'PARTIALLY_PAID' ? 2_500 : 0,
        }));
      const debts = {
        overdue: await cycle('OVERDUE', '2026-02-15'),
        paid: await cycle('PAID', '2026-01-15'),
        pendingLate: await cycle('PENDING', '2026-04-15'),
        partly: await cycle('PARTIALLY_PAID', '2026-03-15'),
        cancelled: await cycle('CANCELLED', '2026-05-15'),
        pending: await cycle('PENDING', '2026-03-15'),
        otherSubscription: await cycle('PENDING', '2026-03-15', another.id),
        noSubscription: await cycle('PENDING', '2026-03-15', null),
      };
      return { t, subscription, another, debts, debtView: (d: Debt) => viewOf(d, t.contact, t.product) };
    }

    it('cancels the unpaid debts (PENDING, OVERDUE) of the subscription only, returns them as they now read by id, and then none', async () => {
      const { t, subscription, debts, debtView } = await withCycles();
      const cancelled = await uow().run((tx) => tx.debts.cancelUnpaidOfSubscription(subscription.id, T2));
      const expected = [debts.overdue, debts.pendingLate, debts.pending].map((d) => debtView({ ...d, status: 'CANCELLED', updatedAt: T2 }));
      expect(cancelled).to.deep.equal(expected);
      for (const d of expected) expect(await repos().debts.findById(t.company.id, d.id)).to.deep.equal(d);
      for (const d of [debts.paid, debts.partly, debts.cancelled, debts.otherSubscription, debts.noSubscription]) {
        expect(await repos().debts.findById(t.company.id, d.id), d.externalRequestId).to.deep.equal(debtView(d));
      }
      expect(await uow().run((tx) => tx.debts.cancelUnpaidOfSubscription(subscription.id, T2))).to.deep.equal([]);
      // The unfiltered total (SQL: the debt tally) no longer counts them.
      const live = Object.values(debts).filter((d) => d.status !== 'CANCELLED').length - expected.length;
      expect((await repos().debts.list(t.company.id, { today: '2026-06-01' }, { page: 1, limit: 50 })).total).to.equal(live);
    });

    it('cancels each unpaid debt once when two cancellations of the subscription run concurrently (the rows stay locked until the first commits)', async () => {
      const { subscription, debts } = await withCycles();
      const cancel = (tx: Repositories) => tx.debts.cancelUnpaidOfSubscription(subscription.id, T2);
      const outcome = await contend(
        uow(),
        contention(),
        async (tx, hold) => {
          const cancelled = await cancel(tx);
          await hold();
          return cancelled;
        },
        cancel,
      );
      expect(outcome.first.map((d) => d.id)).to.deep.equal([debts.overdue.id, debts.pendingLate.id, debts.pending.id].sort((a, b) => a - b));
      expect(outcome.second, 'the second finds none left: it never cancels a debt twice').to.deep.equal([]);
    });

    it('gives the due dates that have a debt of the subscription that is not CANCELLED, each once', async () => {
      const { t, subscription, another, debts } = await withCycles();
      const live = await repos().debts.liveDueDatesOfSubscription(subscription.id);
      expect([...live].sort()).to.deep.equal(['2026-01-15', '2026-02-15', '2026-03-15', '2026-04-15']);
      await repos().debts.update(t.company.id, debts.pendingLate.id, { status: 'CANCELLED', updatedAt: T2 });
      expect([...(await repos().debts.liveDueDatesOfSubscription(subscription.id))].sort()).to.deep.equal(['2026-01-15', '2026-02-15', '2026-03-15']);
      expect(await repos().debts.liveDueDatesOfSubscription(another.id)).to.deep.equal(['2026-03-15']);
      expect(await repos().debts.liveDueDatesOfSubscription(2_000_000_000)).to.deep.equal([]);
    });

    it('gives the open debts of the subscription (neither PAID nor CANCELLED) by due date, then id', async () => {
      const { subscription, another, debts, debtView } = await withCycles();
      expect(await repos().debts.openOfSubscription(subscription.id)).to.deep.equal(
        [debts.overdue, debts.partly, debts.pending, debts.pendingLate].map(debtView),
      );
      expect(await repos().debts.openOfSubscription(another.id)).to.deep.equal([debtView(debts.otherSubscription)]);
      expect(await repos().debts.openOfSubscription(2_000_000_000)).to.deep.equal([]);
    });
  });
}
