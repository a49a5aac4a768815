import { unitOfWork } from '../../../internal/shared/group-commit';
import { expect } from 'chai';
import type { Application } from '../../../internal/application';
import type { Contact } from '../../../internal/contacts/contact';
import { CreateDebt } from '../../../internal/debts/commands/create-debt';
import { type BatchItem, CreateDebtBatch } from '../../../internal/debts/commands/create-debt-batch';
import type { DebtDraft } from '../../../internal/debts/debt-draft';
import type { ListDebtsInput } from '../../../internal/debts/queries/list-debts';
import type { Product } from '../../../internal/products/product';
import { BusinessRuleViolationError, InvalidRequestError, NotFoundError } from '../../../internal/shared/errors';
import type { PageRequest } from '../../../internal/shared/page';
import type { TenantScope } from '../../../internal/shared/tenant-scope';
import type { CompanySettings } from '../../../internal/tenancy/company';
import type { DebtView } from '../../../ports/debt-repository';
import type { Repositories, UnitOfWork } from '../../../ports/unit-of-work';
import { type MemoryWorld, memoryWorld } from '../../support/memory-world';

// ---------------------------------------------------------------------------------------------
// Helpers

/** 15:00Z on 2031-05-10: "today" for every scope unless a test moves the clock. */
const T0 = new Date('2031-05-10T15:00:00.000Z');
const DAY_MS = 86_400_000;
const PAGE: PageRequest = { page: 1, limit: 500 };

/** The error a promise rejects with; fails the test when it resolves. */
async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the promise to reject');
}

async function expectRuleViolation(promise: Promise<unknown>): Promise<string> {
  const error = await rejection(promise);
  expect(error, String(error)).to.be.instanceOf(BusinessRuleViolationError);
  expect((error as BusinessRuleViolationError).code).to.equal('BUSINESS_RULE_VIOLATION');
  return error.message;
}

async function expectNotFound(promise: Promise<unknown>): Promise<void> {
  const error = await rejection(promise);
  expect(error, String(error)).to.be.instanceOf(NotFoundError);
  expect((error as NotFoundError).code).to.equal('RESOURCE_NOT_FOUND');
}

async function expectInvalidField(promise: Promise<unknown>, field: string): Promise<InvalidRequestError> {
  const error = await rejection(promise);
  expect(error, String(error)).to.be.instanceOf(InvalidRequestError);
  expect((error as InvalidRequestError).details.map((d) => d.field)).to.deep.equal([field]);
  return error as InvalidRequestError;
}

/** A v2 draft: debtor ext-ana, 100.00 due on the 20th, no product. */
function draft(overrides: Partial<DebtDraft> = {}): DebtDraft {
  return { debtor: { externalClientId: 'ext-ana' }, product: null, amountCents: 10_000, dueDate: '2031-05-20', evaluateAutopay: true, ...overrides };
}

const contactData = (externalClientId: string, name = 'Ana Inline', email = 'inline@example.com') => ({
  contactData: { externalClientId, name, email },
});

const keys = (debts: Pick<DebtView, 'externalRequestId'>[]): string[] => debts.map((d) => d.externalRequestId);

/** Records every method call made through the proxied object, by `<label>.<method>`. */
class CallLog {
  readonly calls: { name: string; args: unknown[] }[] = [];

  wrap<T extends object>(label: string, target: T): T {
    return new Proxy(target, {
      get: (object, property, receiver) => {
        const value = Reflect.get(object, property, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          this.calls.push({ name: `${label}.${String(property)}`, args });
          return value.apply(object, args);
        };
      },
    });
  }

  repos(repos: Repositories): Repositories {
    return Object.fromEntries(Object.entries(repos).map(([name, repo]) => [name, this.wrap(name, repo)])) as unknown as Repositories;
  }

  /** A unit of work whose transaction repositories are logged too. */
  uow(uow: UnitOfWork): UnitOfWork {
    return unitOfWork((work) => uow.run((tx) => work(this.repos(tx))));
  }

  count(name: string): number {
    return this.calls.filter((c) => c.name === name).length;
  }

  argsOf(name: string): unknown[][] {
    return this.calls.filter((c) => c.name === name).map((c) => c.args);
  }
}

type World = MemoryWorld;

/** Everything in memory, time held at T0. */
const world = (): World => memoryWorld(T0);

// ---------------------------------------------------------------------------------------------

describe('debts: use cases (memory)', () => {
  let w: World;
  let app: Application;
  let scope: TenantScope;
  let ana: Contact;

  beforeEach(async () => {
    w = world();
    app = w.app;
    ({ scope } = await w.newTenant());
    ana = await addContact('ext-ana');
  });

  const addContact = (externalClientId: string, s = scope, extra: { name?: string; email?: string } = {}) =>
    app.commands.createContact.execute(
      { externalClientId, name: extra.name ?? `Name ${externalClientId}`, email: extra.email ?? `${externalClientId}@example.com`, phones: [{ number: '5550001', type: 'MOBILE' }] },
      s,
    );
  const addProduct = (name: string, extra: { externalProductId?: string; active?: boolean } = {}, s = scope): Promise<Product> =>
    app.commands.createProduct.execute({ name, ...extra }, s);
  const create = (d: DebtDraft = draft(), key?: string, s = scope) => app.commands.createDebt.execute(d, key, s);
  const get = (id: string, s = scope) => app.queries.getDebt.execute(id, s);
  const stored = (key: string, s = scope) => w.repos.debts.findByExternalRequestId(s.company.id, key);
  const all = async (s = scope) => (await w.repos.debts.list(s.company.id, { today: '2031-05-10' }, PAGE)).items;
  const pay = (id: string, amountCents?: number, s = scope) => app.commands.payDebt.execute(id, amountCents, 'test-helper', s);

  describe('CreateDebt', () => {
    it('creates a PENDING debt with the defaults, keyed by the Idempotency-Key', async () => {
      const { debt, created } = await create(draft(), 'order-1');
      expect(created).to.equal(true);
      expect(debt).to.deep.equal({
        id: debt.id,
        organizationId: scope.organizationId,
        companyId: scope.company.id,
        externalRequestId: 'order-1',
        batchId: null,
        contactId: ana.id,
        contactCreatedInline: false,
        productId: null,
        status: 'PENDING',
        amountCents: 10_000,
        amountPaidCents: 0,
        currency: 'MXN',
        dueDate: '2031-05-20',
        allowOverduePayment: true,
        allowPartialPayments: true,
        description: null,
        additionalData: null,
        paymentMethods: null,
        autopay: false,
        autopayReason: 'NO_PRODUCT',
        autopayPaymentMethodId: null,
        createdAt: T0,
        updatedAt: T0,
        contact: { code: ana.code, externalClientId: 'ext-ana' },
        product: null,
        autopayInstrument: null,
      });
    });

    it('answers exactly what is stored', async () => {
      const product = await addProduct('Gym');
      const { debt } = await create(draft({ product: { productNumber: product.id }, description: 'May', additionalData: { ref: 'A-1', n: 2, ok: true } }), 'order-1');
      expect(await stored('order-1')).to.deep.equal(debt);
    });

    it('keeps the optional fields it is given', async () => {
      const { debt } = await create(
        draft({ currency: 'USD', description: 'Cuota de mayo', allowOverduePayment: false, allowPartialPayments: false, additionalData: { ref: 'ñ-1', n: 1.5, ok: false } }),
        'order-1',
      );
      expect(debt).to.deep.include({
        currency: 'USD',
        description: 'Cuota de mayo',
        allowOverduePayment: false,
        allowPartialPayments: false,
        additionalData: { ref: 'ñ-1', n: 1.5, ok: false },
      });
    });

    it("defaults the currency to the company's default currency", async () => {
      const usd = (await w.newTenant({ settings: { defaultCurrency: 'COP' } })).scope;
      await addContact('ext-ana', usd);
      expect((await create(draft(), 'k1', usd)).debt.currency).to.equal('COP');
      expect((await create(draft({ currency: 'PEN' }), 'k2', usd)).debt.currency).to.equal('PEN');
    });

    it('generates a 24-character alphanumeric externalRequestId when no key is sent', async () => {
      const first = await create(draft());
      const second = await create(draft());
      expect(first.debt.externalRequestId).to.match(/^[A-Za-z0-9]{24}$/);
      expect(second.debt.externalRequestId).to.match(/^[A-Za-z0-9]{24}$/);
      expect(first.debt.externalRequestId).to.not.equal(second.debt.externalRequestId);
      expect(await all()).to.have.length(2);
    });

    it('finds the contact by a trimmed externalClientId', async () => {
      expect((await create(draft({ debtor: { externalClientId: '  ext-ana ' } }), 'k1')).debt.contactId).to.equal(ana.id);
    });

    it('refuses an unknown externalClientId with BUSINESS_RULE_VIOLATION and creates nothing', async () => {
      const message = await expectRuleViolation(create(draft({ debtor: { externalClientId: 'ext-nobody' } }), 'k1'));
      expect(message).to.contain('ext-nobody');
      expect(await stored('k1')).to.equal(null);
      expect(await all()).to.deep.equal([]);
    });

    it("does not see another organization's contact", async () => {
      const other = (await w.newTenant()).scope;
      await addContact('ext-elsewhere', other);
      await expectRuleViolation(create(draft({ debtor: { externalClientId: 'ext-elsewhere' } }), 'k1'));
    });

    it('creates the contact from contactData (createdInline) with normalized phones', async () => {
      const { debt } = await create(
        draft({ debtor: { contactData: { externalClientId: ' ext-new ', name: '  Nuevo  ', email: 'new@example.com', phones: [{ number: '5551234', type: 'WORK' }] } } }),
        'k1',
      );
      const contact = (await w.repos.contacts.findByExternalClientId(scope.organizationId, 'ext-new'))!;
      expect(contact).to.deep.include({
        name: 'Nuevo',
        email: 'new@example.com',
        phones: [{ number: '5551234', type: 'WORK', primary: false, description: 'WORK' }],
        createdAt: T0,
      });
      expect(debt.contactId).to.equal(contact.id);
      expect(debt.contactCreatedInline).to.equal(true);
      expect(debt.contact).to.deep.equal({ code: contact.code, externalClientId: 'ext-new' });
    });

    it('updates name and email of an existing contact from contactData, keeping phones when omitted', async () => {
      w.clock.advance(60_000);
      const { debt } = await create(draft({ debtor: contactData('ext-ana', 'Ana Renamed', 'ana.new@example.com') }), 'k1');
      const contact = (await w.repos.contacts.findByExternalClientId(scope.organizationId, 'ext-ana'))!;
      expect(contact).to.deep.equal({ ...ana, name: 'Ana Renamed', email: 'ana.new@example.com', updatedAt: new Date(T0.getTime() + 60_000) });
      expect(debt.contactId).to.equal(ana.id);
      expect(debt.contactCreatedInline).to.equal(false);
    });

    it('replaces the phones of an existing contact when contactData sends them', async () => {
      await create(draft({ debtor: { contactData: { externalClientId: 'ext-ana', name: 'Ana', email: 'a@example.com', phones: [{ number: '999', type: 'MAIN', primary: true }] } } }), 'k1');
      const contact = (await w.repos.contacts.findByExternalClientId(scope.organizationId, 'ext-ana'))!;
      expect(contact.phones).to.deep.equal([{ number: '999', type: 'MAIN', primary: true, description: 'MAIN' }]);
    });

    it('references a product by number, showing it embedded', async () => {
      const product = await addProduct('Gym');
      const { debt } = await create(draft({ product: { productNumber: product.id } }), 'k1');
      expect(debt.productId).to.equal(product.id);
      expect(debt.product).to.deep.equal({ id: product.id, name: 'Gym', active: true });
    });

    it('references a product by externalProductId', async () => {
      const product = await addProduct('Gym', { externalProductId: 'SKU-1' });
      expect((await create(draft({ product: { externalProductId: 'SKU-1' } }), 'k1')).debt.productId).to.equal(product.id);
    });

    it('refuses a nonexistent product with RESOURCE_NOT_FOUND: no debt, and no contact from contactData', async () => {
      await expectNotFound(create(draft({ product: { productNumber: 999_999 }, debtor: contactData('ext-ghost') }), 'k1'));
      await expectNotFound(create(draft({ product: { externalProductId: 'SKU-missing' } }), 'k2'));
      expect(await all()).to.deep.equal([]);
      expect(await w.repos.contacts.findByExternalClientId(scope.organizationId, 'ext-ghost')).to.equal(null);
    });

    it("refuses another company's product with RESOURCE_NOT_FOUND", async () => {
      const { scopes } = await w.newTenant({ companies: ['A', 'B'] });
      await addContact('ext-ana', scopes[0]);
      const foreign = await addProduct('Gym', { externalProductId: 'SKU-B' }, scopes[1]);
      await expectNotFound(create(draft({ product: { productNumber: foreign.id } }), 'k1', scopes[0]));
      await expectNotFound(create(draft({ product: { externalProductId: 'SKU-B' } }), 'k2', scopes[0]));
    });

    it('refuses an inactive product with BUSINESS_RULE_VIOLATION and creates nothing', async () => {
      const product = await addProduct('Old', { externalProductId: 'SKU-old', active: false });
      expect(await expectRuleViolation(create(draft({ product: { productNumber: product.id } }), 'k1'))).to.match(/inactive/);
      await expectRuleViolation(create(draft({ product: { externalProductId: 'SKU-old' } }), 'k2'));
      expect(await all()).to.deep.equal([]);
    });

    describe('autopay (v2 always evaluates it)', () => {
      const withProduct = async (settings: Partial<CompanySettings>) => {
        const s = (await w.newTenant({ settings })).scope;
        await addContact('ext-ana', s);
        const product = await addProduct('Gym', {}, s);
        return (await create(draft({ product: { productNumber: product.id } }), 'k1', s)).debt;
      };

      it('NO_PRODUCT without a product', async () => {
        expect((await create(draft(), 'k1')).debt).to.deep.include({ autopay: false, autopayReason: 'NO_PRODUCT' });
      });

      it('DEFAULT_PAYMENT_METHODS_DISABLED_FOR_COMPANY with a product and the feature off', async () => {
        expect(await withProduct({})).to.deep.include({ autopay: false, autopayReason: 'DEFAULT_PAYMENT_METHODS_DISABLED_FOR_COMPANY' });
      });

      it('COMPANY_WITHOUT_PRODUCT_MODALITY with the feature on and no modality', async () => {
        expect(await withProduct({ directDebitEnabled: true })).to.deep.include({ autopay: false, autopayReason: 'COMPANY_WITHOUT_PRODUCT_MODALITY' });
      });

      it('NO_DEFAULT_PAYMENT_METHOD with feature and modality on', async () => {
        expect(await withProduct({ directDebitEnabled: true, directDebitModality: true })).to.deep.include({
          autopay: false,
          autopayReason: 'NO_DEFAULT_PAYMENT_METHOD',
        });
      });
    });

    describe('legacy contract', () => {
      it('does not evaluate autopay unless asked: autopay false, NO_PRODUCT without a product; keeps paymentMethods', async () => {
        const { debt } = await create(draft({ evaluateAutopay: false, paymentMethods: ['CASH', 'CARD'] }), 'k1');
        expect(debt).to.deep.include({ autopay: false, autopayReason: 'NO_PRODUCT', paymentMethods: ['CASH', 'CARD'] });
        expect((await stored('k1'))!.paymentMethods).to.deep.equal(['CASH', 'CARD']);
      });

      it('creates a product by productName inline, then reuses it', async () => {
        const first = (await create(draft({ product: { productName: 'Inline plan' }, evaluateAutopay: false }), 'k1')).debt;
        const product = (await w.repos.products.findByName(scope.company.id, 'Inline plan'))!;
        expect(product).to.deep.include({ active: true, externalProductId: null, createdAt: T0 });
        expect(first.product).to.deep.equal({ id: product.id, name: 'Inline plan', active: true });
        const second = (await create(draft({ product: { productName: 'Inline plan' }, evaluateAutopay: false }), 'k2')).debt;
        expect(second.productId).to.equal(product.id);
        expect((await w.repos.products.listActive(scope.company.id, {}, PAGE)).total).to.equal(1);
      });

      it("reads the productNames of a moment's creations with their group's other products, in one query, and creates none for an active one", async () => {
        await addProduct('Gym');
        await addProduct('Pool');
        const log = new CallLog();
        const useCase = new CreateDebt({ ...w.infra.ports, uow: log.uow(w.uow), repos: log.repos(w.repos) });
        const names = ['Gym', 'Pool', 'Gym', 'Gym'];
        const results = await Promise.all(names.map((productName, i) => useCase.execute(draft({ product: { productName }, evaluateAutopay: false }), `named-${i}`, scope)));
        expect(results.map((r) => r.debt.product?.name)).to.deep.equal(names);
        expect(log.count('products.findByNames')).to.equal(1);
        expect((log.argsOf('products.findByNames')[0]![1] as string[]).slice().sort()).to.deep.equal(['Gym', 'Pool']);
        for (const single of ['products.findByName', 'products.insert', 'debts.findByExternalRequestId']) expect(log.count(single), single).to.equal(0);
      });

      it('refuses a productName that names an inactive product', async () => {
        await addProduct('Retired', { active: false });
        await expectRuleViolation(create(draft({ product: { productName: 'Retired' }, evaluateAutopay: false }), 'k1'));
        expect(await all()).to.deep.equal([]);
      });
    });

    describe('idempotency', () => {
      it('returns the stored debt unchanged for a repeated key, even with a different body', async () => {
        const first = await create(draft(), 'order-1');
        w.clock.advance(5_000);
        const again = await create(draft({ amountCents: 99_999, dueDate: '2031-12-31', description: 'changed' }), 'order-1');
        expect(again.created).to.equal(false);
        expect(again.debt).to.deep.equal(first.debt);
        expect(await all()).to.have.length(1);
      });

      it('answers a replay with the stored debt even when the new body names an unknown debtor and product', async () => {
        const first = await create(draft(), 'order-1');
        const again = await create(draft({ debtor: { externalClientId: 'ext-nobody' }, product: { productNumber: 999 } }), 'order-1');
        expect(again).to.deep.equal({ debt: first.debt, created: false });
      });

      it('treats the same key in another company as another debt', async () => {
        const { scopes } = await w.newTenant({ companies: ['A', 'B'] });
        await addContact('ext-ana', scopes[0]);
        const a = await create(draft(), 'shared-key', scopes[0]);
        const b = await create(draft(), 'shared-key', scopes[1]);
        expect(b.created).to.equal(true);
        expect(b.debt.id).to.not.equal(a.debt.id);
        expect(b.debt.companyId).to.equal(scopes[1]!.company.id);
      });

      it('creates one debt when two requests with the same key race', async () => {
        const [one, two] = await Promise.all([create(draft({ amountCents: 100 }), 'race-1'), create(draft({ amountCents: 200 }), 'race-1')]);
        expect([one.created, two.created].sort()).to.deep.equal([false, true]);
        expect(two.debt).to.deep.equal(one.debt);
        expect(keys(await all())).to.deep.equal(['race-1']);
        expect(await stored('race-1')).to.deep.equal(one.debt);
      });

      it('creates one debt and one contact when ten requests with the same key and new contactData race', async () => {
        const results = await Promise.all(Array.from({ length: 10 }, () => create(draft({ debtor: contactData('ext-racer') }), 'race-2')));
        expect(results.filter((r) => r.created)).to.have.length(1);
        for (const r of results) expect(r.debt).to.deep.equal(results[0]!.debt);
        expect(keys(await all())).to.deep.equal(['race-2']);
        const contacts = await w.repos.contacts.list(scope.organizationId, { externalClientId: 'ext-racer' }, PAGE);
        expect(contacts.total).to.equal(1);
        expect((await stored('race-2'))!.contactCreatedInline).to.equal(true);
      });

      it('runs again when a concurrent request created the inline contact first', async () => {
        // Simulate the race: the first transaction reads the contact as absent, though another
        // request has committed it, so its insert conflicts; the second attempt updates it.
        const log = new CallLog();
        await addContact('ext-late');
        let staleReads = 1;
        const uow = unitOfWork((work) =>
          w.uow.run((tx) => {
            const contacts = new Proxy(tx.contacts, {
              get: (target, property, receiver) =>
                property === 'findByExternalClientIds' && staleReads-- > 0 ? async () => [] : Reflect.get(target, property, receiver),
            });
            return work(log.repos({ ...tx, contacts }));
          }),
        );
        const useCase = new CreateDebt({ ...w.infra.ports, uow });
        const result = await useCase.execute(draft({ debtor: contactData('ext-late', 'Late Name') }), 'k1', scope);
        expect(result.created).to.equal(true);
        expect(result.debt.contactCreatedInline).to.equal(false);
        expect(log.count('contacts.insert')).to.equal(1);
        expect(log.count('contacts.update')).to.equal(1);
        const contacts = await w.repos.contacts.list(scope.organizationId, { externalClientId: 'ext-late' }, PAGE);
        expect(contacts.items.map((c) => c.name)).to.deep.equal(['Late Name']);
      });
    });
  });

  describe('CreateDebtBatch', () => {
    const item = (externalRequestId: string, overrides: Partial<DebtDraft> = {}): BatchItem => ({ externalRequestId, draft: draft(overrides) });
    const batch = (items: BatchItem[], s = scope) => app.commands.createDebtBatch.execute(items, s);
    const debtsOf = (result: Awaited<ReturnType<typeof batch>>) => result.outcomes.map((o) => o.debt!);

    it('creates every item, in the order sent, each with the batchId', async () => {
      const product = await addProduct('Gym');
      const result = await batch([item('b-1'), item('b-2', { product: { productNumber: product.id }, amountCents: 1 }), item('b-3')]);
      expect(result.batchId).to.match(/^bat_[A-Za-z0-9]{20}$/);
      expect(result.outcomes.map((o) => o.error)).to.deep.equal([undefined, undefined, undefined]);
      const debts = debtsOf(result);
      expect(keys(debts)).to.deep.equal(['b-1', 'b-2', 'b-3']);
      for (const debt of debts) {
        expect(debt).to.deep.include({ batchId: result.batchId, status: 'PENDING', createdAt: T0, contactId: ana.id, companyId: scope.company.id });
        expect(await stored(debt.externalRequestId)).to.deep.equal(debt);
      }
      expect(debts[1]).to.deep.include({ amountCents: 1, productId: product.id, autopayReason: 'DEFAULT_PAYMENT_METHODS_DISABLED_FOR_COMPANY' });
      expect(debts[1]!.product).to.deep.equal({ id: product.id, name: 'Gym', active: true });
      expect(debts[0]!.autopayReason).to.equal('NO_PRODUCT');
    });

    it('fails items independently: unknown debtor, missing product, inactive product', async () => {
      const inactive = await addProduct('Old', { active: false });
      const result = await batch([
        item('ok-1'),
        item('bad-debtor', { debtor: { externalClientId: 'ext-nobody' } }),
        item('bad-product', { product: { productNumber: 987_654 } }),
        item('bad-external', { product: { externalProductId: 'SKU-none' } }),
        item('inactive', { product: { productNumber: inactive.id } }),
        item('ok-2'),
      ]);
      const [ok1, debtor, product, external, off, ok2] = result.outcomes;
      expect(ok1!.debt!.externalRequestId).to.equal('ok-1');
      expect(ok2!.debt!.externalRequestId).to.equal('ok-2');
      expect(debtor!.error).to.be.instanceOf(BusinessRuleViolationError);
      expect(product!.error).to.be.instanceOf(NotFoundError);
      expect(external!.error).to.be.instanceOf(NotFoundError);
      expect(off!.error).to.be.instanceOf(BusinessRuleViolationError);
      expect(keys(await all()).sort()).to.deep.equal(['ok-1', 'ok-2']);
    });

    it('writes no inline contact for an item that fails on its product', async () => {
      const result = await batch([item('ok', { debtor: contactData('ext-kept') }), item('bad', { debtor: contactData('ext-ghost'), product: { productNumber: 31_337 } })]);
      expect(result.outcomes[1]!.error).to.be.instanceOf(NotFoundError);
      expect(await w.repos.contacts.findByExternalClientId(scope.organizationId, 'ext-ghost')).to.equal(null);
      expect((await w.repos.contacts.findByExternalClientId(scope.organizationId, 'ext-kept'))!.id).to.equal(result.outcomes[0]!.debt!.contactId);
    });

    it('creates nothing when every item fails', async () => {
      const result = await batch([item('x-1', { debtor: { externalClientId: 'nobody-1' } }), item('x-2', { product: { productNumber: 424_242 } })]);
      expect(result.outcomes.every((o) => o.error !== undefined)).to.equal(true);
      expect(await all()).to.deep.equal([]);
    });

    it('returns the stored debt for an existing externalRequestId, unchanged and not duplicated', async () => {
      const single = (await create(draft({ amountCents: 500 }), 'exists-1')).debt;
      const result = await batch([item('exists-1', { amountCents: 700 }), item('new-1')]);
      expect(result.outcomes[0]!.debt).to.deep.equal(single);
      expect(result.outcomes[0]!.debt!.batchId).to.equal(null);
      expect(result.outcomes[1]!.debt!.batchId).to.equal(result.batchId);
      expect(keys(await all()).sort()).to.deep.equal(['exists-1', 'new-1']);
    });

    it('repeating a batch creates nothing new: the debts keep the first batchId', async () => {
      const first = await batch([item('r-1'), item('r-2')]);
      const again = await batch([item('r-1'), item('r-2')]);
      expect(again.batchId).to.not.equal(first.batchId);
      expect(debtsOf(again)).to.deep.equal(debtsOf(first));
      expect(await all()).to.have.length(2);
    });

    it('creates each debt once when two batches with overlapping keys race', async () => {
      const [a, b] = await Promise.all([batch([item('o-1'), item('o-2'), item('o-3')]), batch([item('o-3'), item('o-2'), item('o-4')])]);
      expect(keys(await all()).sort()).to.deep.equal(['o-1', 'o-2', 'o-3', 'o-4']);
      const byKey = new Map([...debtsOf(a), ...debtsOf(b)].map((d) => [d.externalRequestId, d.id]));
      expect(debtsOf(b).map((d) => d.id)).to.deep.equal(['o-3', 'o-2', 'o-4'].map((k) => byKey.get(k)));
      expect(debtsOf(a).map((d) => d.id)).to.deep.equal(['o-1', 'o-2', 'o-3'].map((k) => byKey.get(k)));
    });

    it('creates a contactData debtor once for several items (the last data sent wins), createdInline on each', async () => {
      const result = await batch([
        item('c-1', { debtor: contactData('ext-batch', 'First Name') }),
        item('c-2', { debtor: contactData('ext-batch', 'Last Name') }),
      ]);
      const contacts = await w.repos.contacts.list(scope.organizationId, { externalClientId: 'ext-batch' }, PAGE);
      expect(contacts.items.map((c) => c.name)).to.deep.equal(['Last Name']);
      for (const debt of debtsOf(result)) expect(debt).to.deep.include({ contactId: contacts.items[0]!.id, contactCreatedInline: true });
    });

    it('reads each debtor and each product once per batch, and writes the debts in one call', async () => {
      const gym = await addProduct('Gym');
      await addProduct('Pool', { externalProductId: 'SKU-pool' });
      await addContact('ext-bob');
      const log = new CallLog();
      const useCase = new CreateDebtBatch({ ...w.infra.ports, uow: log.uow(w.uow), repos: log.repos(w.repos) });
      const items = Array.from({ length: 12 }, (_, i) =>
        item(`n-${i}`, {
          debtor: i % 3 === 0 ? { externalClientId: 'ext-ana' } : i % 3 === 1 ? { externalClientId: 'ext-bob' } : contactData('ext-inline'),
          product: i % 2 === 0 ? { productNumber: gym.id } : { externalProductId: 'SKU-pool' },
        }),
      );
      const result = await useCase.execute(items, scope);
      expect(result.outcomes.every((o) => o.debt)).to.equal(true);

      expect(log.count('contacts.findByExternalClientIds')).to.equal(1);
      expect((log.argsOf('contacts.findByExternalClientIds')[0]![1] as string[]).slice().sort()).to.deep.equal(['ext-ana', 'ext-bob', 'ext-inline']);
      expect(log.count('contacts.findByExternalClientId')).to.equal(0);
      expect(log.count('contacts.insert')).to.equal(1);
      expect(log.count('products.findByIds')).to.equal(1);
      expect(log.argsOf('products.findByIds')[0]![1]).to.deep.equal([gym.id]);
      expect(log.count('products.findByExternalProductIds')).to.equal(1);
      expect(log.argsOf('products.findByExternalProductIds')[0]![1]).to.deep.equal(['SKU-pool']);
      for (const single of ['products.findById', 'products.findByExternalProductId', 'products.findByName', 'debts.insert', 'debts.findByExternalRequestId']) {
        expect(log.count(single), single).to.equal(0);
      }
      expect(log.count('debts.insertMissing')).to.equal(1);
      expect((log.argsOf('debts.insertMissing')[0]![0] as unknown[]).length).to.equal(12);
    });

    it('reads nothing about debtors or products for items that already exist', async () => {
      await batch([item('e-1'), item('e-2')]);
      const log = new CallLog();
      const useCase = new CreateDebtBatch({ ...w.infra.ports, uow: log.uow(w.uow), repos: log.repos(w.repos) });
      const result = await useCase.execute([item('e-1', { debtor: { externalClientId: 'ext-nobody' } }), item('e-2')], scope);
      expect(result.outcomes.every((o) => o.debt)).to.equal(true);
      const debtorReads = log.argsOf('contacts.findByExternalClientIds').flatMap((args) => args[1] as string[]);
      expect(debtorReads).to.deep.equal([]);
      expect(log.argsOf('debts.insertMissing').flatMap((args) => args[0] as unknown[])).to.deep.equal([]);
    });
  });

  describe('PayDebt', () => {
    beforeEach(async () => {
      w.clock.set(new Date('2031-05-12T08:00:00.000Z'));
    });

    it('pays the remaining amount by default: PAID, stamped with the clock', async () => {
      const { debt } = await create(draft(), 'p-1');
      const paid = await pay('debt_p-1');
      expect(paid).to.deep.equal({ ...debt, status: 'PAID', amountPaidCents: 10_000, updatedAt: new Date('2031-05-12T08:00:00.000Z') });
      expect(await stored('p-1')).to.deep.equal(paid);
    });

    it('pays in part (PARTIALLY_PAID), then completes (PAID); the id may be bare', async () => {
      await create(draft(), 'p-1');
      expect(await pay('p-1', 2_500)).to.deep.include({ status: 'PARTIALLY_PAID', amountPaidCents: 2_500 });
      expect(await pay('debt_p-1')).to.deep.include({ status: 'PAID', amountPaidCents: 10_000 });
    });

    it('accumulates exact cents: 0.10 + 0.20 pays 0.30', async () => {
      await create(draft({ amountCents: 30 }), 'p-1');
      expect(await pay('p-1', 10)).to.deep.include({ status: 'PARTIALLY_PAID', amountPaidCents: 10 });
      expect(await pay('p-1', 20)).to.deep.include({ status: 'PAID', amountPaidCents: 30 });
    });

    it('refuses a PAID or CANCELLED debt, leaving it as it was', async () => {
      await create(draft(), 'paid');
      const paid = await pay('paid');
      expect(await expectRuleViolation(pay('paid', 1))).to.equal('A PAID debt cannot be paid');
      expect(await stored('paid')).to.deep.equal(paid);
      await create(draft(), 'gone');
      const cancelled = await app.commands.cancelDebt.execute('gone', scope);
      expect(await expectRuleViolation(pay('gone'))).to.equal('A CANCELLED debt cannot be paid');
      expect(await stored('gone')).to.deep.equal(cancelled);
    });

    it('refuses a payment after the due date when overdue payment is not allowed', async () => {
      const { debt } = await create(draft({ dueDate: '2031-05-11', allowOverduePayment: false }), 'late');
      expect(await expectRuleViolation(pay('late'))).to.match(/overdue payment/);
      expect(await stored('late')).to.deep.equal(debt);
    });

    it('accepts a late payment when allowed, on the due date, and on the due date when not allowed', async () => {
      await create(draft({ dueDate: '2031-05-11' }), 'late-ok');
      expect((await pay('late-ok')).status).to.equal('PAID');
      await create(draft({ dueDate: '2031-05-12', allowOverduePayment: false }), 'due-today');
      expect((await pay('due-today')).status).to.equal('PAID');
    });

    it('refuses a partial payment when partial payments are not allowed', async () => {
      await create(draft({ allowPartialPayments: false }), 'whole');
      expect(await expectRuleViolation(pay('whole', 9_999))).to.equal('The debt does not allow partial payments');
      expect((await pay('whole', 10_000)).status).to.equal('PAID');
    });

    it('refuses more than the remaining amount', async () => {
      await create(draft(), 'p-1');
      await pay('p-1', 6_000);
      expect(await expectRuleViolation(pay('p-1', 4_001))).to.equal('The payment exceeds the remaining amount');
      expect((await stored('p-1'))!.amountPaidCents).to.equal(6_000);
    });

    it('lets only one of two concurrent payments that do not both fit succeed', async () => {
      await create(draft(), 'p-1');
      const outcomes = await Promise.allSettled([pay('p-1', 6_000), pay('p-1', 6_000)]);
      expect(outcomes.map((o) => o.status).sort()).to.deep.equal(['fulfilled', 'rejected']);
      const rejected = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected')!;
      expect(rejected.reason).to.be.instanceOf(BusinessRuleViolationError);
      expect((await stored('p-1'))!.amountPaidCents).to.equal(6_000);
    });

    it('is RESOURCE_NOT_FOUND for an unknown debt or one of another company', async () => {
      await expectNotFound(pay('debt_nothing'));
      const { scopes } = await w.newTenant({ companies: ['A', 'B'] });
      await addContact('ext-ana', scopes[0]);
      await create(draft(), 'mine', scopes[0]);
      await expectNotFound(pay('mine', undefined, scopes[1]));
    });
  });

  describe('CancelDebt', () => {
    const cancel = (id: string, s = scope) => app.commands.cancelDebt.execute(id, s);

    it('cancels a PENDING debt, stamped with the clock', async () => {
      await create(draft(), 'c-1');
      w.clock.advance(1_000);
      const cancelled = await cancel('debt_c-1');
      expect(cancelled).to.deep.include({ status: 'CANCELLED', updatedAt: new Date(T0.getTime() + 1_000) });
      expect(await stored('c-1')).to.deep.equal(cancelled);
    });

    it('cancels a PARTIALLY_PAID debt, keeping what was paid', async () => {
      await create(draft(), 'c-1');
      await pay('c-1', 100);
      expect(await cancel('c-1')).to.deep.include({ status: 'CANCELLED', amountPaidCents: 100 });
    });

    it('cancels a debt that is OVERDUE by time and one stored OVERDUE', async () => {
      await create(draft({ dueDate: '2031-05-01' }), 'late-1');
      expect((await cancel('late-1')).status).to.equal('CANCELLED');
      await create(draft({ dueDate: '2031-05-01' }), 'late-2');
      await app.jobs.markOverdueDebts.execute();
      expect((await stored('late-2'))!.status).to.equal('OVERDUE');
      expect((await cancel('late-2')).status).to.equal('CANCELLED');
    });

    it('refuses a PAID debt and a CANCELLED one', async () => {
      await create(draft(), 'paid');
      await pay('paid');
      expect(await expectRuleViolation(cancel('paid'))).to.equal('A PAID debt cannot be cancelled');
      await create(draft(), 'twice');
      await cancel('twice');
      expect(await expectRuleViolation(cancel('twice'))).to.equal('A CANCELLED debt cannot be cancelled');
    });

    it('is RESOURCE_NOT_FOUND for an unknown debt or one of another organization', async () => {
      await expectNotFound(cancel('nothing'));
      await create(draft(), 'mine');
      const other = (await w.newTenant()).scope;
      await expectNotFound(cancel('mine', other));
      expect((await stored('mine'))!.status).to.equal('PENDING');
    });
  });

  describe('UpdateDebt', () => {
    const update = (id: string, input: { amountCents?: number; dueDate?: string }, s = scope) => app.commands.updateDebt.execute(id, input, s);

    it('changes the amount only, stamped with the clock', async () => {
      const { debt } = await create(draft(), 'u-1');
      w.clock.advance(2_000);
      const updated = await update('debt_u-1', { amountCents: 12_345 });
      expect(updated).to.deep.equal({ ...debt, amountCents: 12_345, updatedAt: new Date(T0.getTime() + 2_000) });
      expect(await stored('u-1')).to.deep.equal(updated);
    });

    it('changes the due date only, and both together', async () => {
      const { debt } = await create(draft(), 'u-1');
      expect(await update('u-1', { dueDate: '2031-06-30' })).to.deep.equal({ ...debt, dueDate: '2031-06-30' });
      expect(await update('u-1', { amountCents: 1, dueDate: '2031-07-01' })).to.deep.include({ amountCents: 1, dueDate: '2031-07-01', amountPaidCents: 0 });
    });

    it('refuses a debt that is no longer PENDING: PARTIALLY_PAID, PAID, CANCELLED', async () => {
      await create(draft(), 'part');
      await pay('part', 1);
      expect(await expectRuleViolation(update('part', { amountCents: 5 }))).to.equal('A PARTIALLY_PAID debt cannot be modified');
      await create(draft(), 'paid');
      await pay('paid');
      expect(await expectRuleViolation(update('paid', { amountCents: 5 }))).to.equal('A PAID debt cannot be modified');
      await create(draft(), 'gone');
      await app.commands.cancelDebt.execute('gone', scope);
      expect(await expectRuleViolation(update('gone', { dueDate: '2031-12-01' }))).to.equal('A CANCELLED debt cannot be modified');
    });

    it('refuses a debt that became OVERDUE by time, before and after the job persisted it', async () => {
      const { debt } = await create(draft({ dueDate: '2031-05-15' }), 'late');
      w.clock.set(new Date('2031-05-16T00:00:00.000Z'));
      expect(await expectRuleViolation(update('late', { dueDate: '2031-06-30' }))).to.equal('A OVERDUE debt cannot be modified');
      expect(await stored('late')).to.deep.equal(debt);
      await app.jobs.markOverdueDebts.execute();
      expect(await expectRuleViolation(update('late', { amountCents: 1 }))).to.equal('A OVERDUE debt cannot be modified');
    });

    it('accepts the last day before it is overdue (the due date itself)', async () => {
      await create(draft({ dueDate: '2031-05-15' }), 'edge');
      w.clock.set(new Date('2031-05-15T23:59:59.999Z'));
      expect((await update('edge', { amountCents: 7 })).amountCents).to.equal(7);
    });

    it('is RESOURCE_NOT_FOUND for an unknown debt', async () => {
      await expectNotFound(update('debt_nothing', { amountCents: 1 }));
    });
  });

  describe('GetDebt', () => {
    it('reads by debtId and by the bare externalRequestId', async () => {
      const { debt } = await create(draft(), 'g-1');
      expect(await get('debt_g-1')).to.deep.equal(debt);
      expect(await get('g-1')).to.deep.equal(debt);
    });

    it('reads a cancelled debt', async () => {
      await create(draft(), 'g-1');
      const cancelled = await app.commands.cancelDebt.execute('g-1', scope);
      expect(await get('debt_g-1')).to.deep.equal(cancelled);
    });

    it('finds a key that itself starts with debt_, by debtId and bare', async () => {
      const { debt } = await create(draft(), 'debt_inner');
      expect(await get('debt_inner')).to.deep.equal(debt);
      expect(await get('debt_debt_inner')).to.deep.equal(debt);
    });

    it("is RESOURCE_NOT_FOUND for an unknown id and for another company's debt", async () => {
      await expectNotFound(get('debt_nothing'));
      await create(draft(), 'g-1');
      const other = (await w.newTenant()).scope;
      await expectNotFound(get('debt_g-1', other));
    });
  });

  describe('ListDebts', () => {
    const list = (input: ListDebtsInput = {}, page: PageRequest = { page: 1, limit: 50 }, s = scope) => app.queries.listDebts.execute(input, page, s);
    const listed = async (input: ListDebtsInput = {}, s = scope) => keys((await list(input, { page: 1, limit: 50 }, s)).items);

    it('lists newest first with the total, capped false', async () => {
      for (const key of ['l-1', 'l-2', 'l-3']) await create(draft(), key);
      const page = await list();
      expect(keys(page.items)).to.deep.equal(['l-3', 'l-2', 'l-1']);
      expect(page.total).to.equal(3);
      expect(page.capped).to.equal(false);
    });

    it('excludes cancelled debts; status CANCELLED finds nothing', async () => {
      await create(draft(), 'keep');
      await create(draft(), 'gone');
      await app.commands.cancelDebt.execute('gone', scope);
      expect(await listed()).to.deep.equal(['keep']);
      expect(await list({ status: 'CANCELLED' })).to.deep.equal({ items: [], total: 0, capped: false });
    });

    it('filters by the effective status: a PENDING debt past due is OVERDUE and not PENDING', async () => {
      await create(draft({ dueDate: '2031-05-01' }), 'overdue-stored');
      await app.jobs.markOverdueDebts.execute();
      expect((await stored('overdue-stored'))!.status).to.equal('OVERDUE');
      await create(draft({ dueDate: '2031-05-10' }), 'pending-today');
      await create(draft({ dueDate: '2031-05-09' }), 'overdue-by-time');
      await create(draft(), 'partly');
      await pay('partly', 1);
      await create(draft(), 'paid');
      await pay('paid');
      expect((await stored('overdue-by-time'))!.status).to.equal('PENDING');
      expect(await listed({ status: 'PENDING' })).to.deep.equal(['pending-today']);
      expect(await listed({ status: 'OVERDUE' })).to.deep.equal(['overdue-by-time', 'overdue-stored']);
      expect(await listed({ status: 'PARTIALLY_PAID' })).to.deep.equal(['partly']);
      expect(await listed({ status: 'PAID' })).to.deep.equal(['paid']);
    });

    it("judges overdue on the scope's clock", async () => {
      await create(draft({ dueDate: '2031-05-10' }), 'due-today');
      expect(await listed({ status: 'OVERDUE' })).to.deep.equal([]);
      w.clock.set(new Date('2031-05-11T00:00:00.000Z'));
      expect(await listed({ status: 'OVERDUE' })).to.deep.equal(['due-today']);
      expect(await listed({ status: 'PENDING' })).to.deep.equal([]);
    });

    describe('createdAtFrom / createdAtTo', () => {
      /** Debts created at 00:00:00.000Z and 23:59:59.999Z of the 3rd, 4th and 5th; today is the 10th. */
      beforeEach(async () => {
        for (const day of ['03', '04', '05']) {
          w.clock.set(new Date(`2031-05-${day}T00:00:00.000Z`));
          await create(draft(), `d${day}-start`);
          w.clock.set(new Date(`2031-05-${day}T23:59:59.999Z`));
          await create(draft(), `d${day}-end`);
        }
        w.clock.set(T0);
      });

      it('a single date covers the whole UTC day, both ends inclusive', async () => {
        expect(await listed({ createdAtFrom: '2031-05-04', createdAtTo: '2031-05-04' })).to.deep.equal(['d04-end', 'd04-start']);
      });

      it('from alone runs to today; to alone has no lower bound', async () => {
        expect(await listed({ createdAtFrom: '2031-05-04' })).to.deep.equal(['d05-end', 'd05-start', 'd04-end', 'd04-start']);
        expect(await listed({ createdAtTo: '2031-05-04' })).to.deep.equal(['d04-end', 'd04-start', 'd03-end', 'd03-start']);
      });

      it('a date-time stands for its UTC day; a createdAtTo at exactly midnight excludes its day', async () => {
        expect(await listed({ createdAtFrom: '2031-05-04T12:00:00+05:00', createdAtTo: '2031-05-05T00:00:00Z' })).to.deep.equal(['d04-end', 'd04-start']);
        expect(await listed({ createdAtFrom: '2031-05-03T22:00:00-03:00', createdAtTo: '2031-05-05T00:00:00.001Z' })).to.deep.equal([
          'd05-end',
          'd05-start',
          'd04-end',
          'd04-start',
        ]);
      });

      it('a future createdAtFrom alone finds nothing', async () => {
        expect(await list({ createdAtFrom: '2031-05-11' })).to.deep.equal({ items: [], total: 0, capped: false });
      });

      it('refuses a bad format naming the parameter, and from after to with the exact message', async () => {
        await expectInvalidField(list({ createdAtFrom: '05/04/2031' }), 'createdAtFrom');
        await expectInvalidField(list({ createdAtTo: '2031-05-04T10:00' }), 'createdAtTo');
        const error = await expectInvalidField(list({ createdAtFrom: '2031-05-05', createdAtTo: '2031-05-04' }), 'createdAtFrom');
        expect(error.message).to.equal('createdAtFrom must be earlier than or equal to createdAtTo');
      });
    });

    it('filters by minAmount and maxAmount, inclusive; min above max is 400 on minAmount', async () => {
      await create(draft({ amountCents: 999 }), 'a-999');
      await create(draft({ amountCents: 1_000 }), 'a-1000');
      await create(draft({ amountCents: 2_000 }), 'a-2000');
      await create(draft({ amountCents: 2_001 }), 'a-2001');
      expect(await listed({ minAmountCents: 1_000 })).to.deep.equal(['a-2001', 'a-2000', 'a-1000']);
      expect(await listed({ maxAmountCents: 2_000 })).to.deep.equal(['a-2000', 'a-1000', 'a-999']);
      expect(await listed({ minAmountCents: 1_000, maxAmountCents: 2_000 })).to.deep.equal(['a-2000', 'a-1000']);
      expect(await listed({ minAmountCents: 2_000, maxAmountCents: 2_000 })).to.deep.equal(['a-2000']);
      await expectInvalidField(list({ minAmountCents: 2_001, maxAmountCents: 2_000 }), 'minAmount');
    });

    it('filters by externalClientId (trimmed); an unknown one finds nothing', async () => {
      await addContact('ext-bob');
      await create(draft(), 'ana-1');
      await create(draft({ debtor: { externalClientId: 'ext-bob' } }), 'bob-1');
      await create(draft(), 'ana-2');
      expect(await listed({ externalClientId: 'ext-ana' })).to.deep.equal(['ana-2', 'ana-1']);
      expect(await listed({ externalClientId: ' ext-bob ' })).to.deep.equal(['bob-1']);
      expect(await list({ externalClientId: 'ext-nobody' })).to.deep.equal({ items: [], total: 0, capped: false });
    });

    it('filters by batchId', async () => {
      await create(draft(), 'single');
      const one = await app.commands.createDebtBatch.execute([{ externalRequestId: 'b1-1', draft: draft() }, { externalRequestId: 'b1-2', draft: draft() }], scope);
      await app.commands.createDebtBatch.execute([{ externalRequestId: 'b2-1', draft: draft() }], scope);
      expect(await listed({ batchId: one.batchId })).to.deep.equal(['b1-2', 'b1-1']);
      expect(await listed({ batchId: 'bat_unknown' })).to.deep.equal([]);
    });

    it('combines filters', async () => {
      await addContact('ext-bob');
      await create(draft({ amountCents: 5_000 }), 'match');
      await create(draft({ amountCents: 50 }), 'too-small');
      await create(draft({ amountCents: 5_000, debtor: { externalClientId: 'ext-bob' } }), 'other-debtor');
      await create(draft({ amountCents: 5_000, dueDate: '2031-05-01' }), 'overdue');
      expect(await listed({ externalClientId: 'ext-ana', minAmountCents: 1_000, status: 'PENDING', createdAtFrom: '2031-05-10' })).to.deep.equal(['match']);
    });

    it('pages with page and limit; total counts every match', async () => {
      for (let i = 1; i <= 5; i++) await create(draft(), `p-${i}`);
      expect(keys((await list({}, { page: 1, limit: 2 })).items)).to.deep.equal(['p-5', 'p-4']);
      expect(keys((await list({}, { page: 3, limit: 2 })).items)).to.deep.equal(['p-1']);
      expect(await list({}, { page: 4, limit: 2 })).to.deep.equal({ items: [], total: 5, capped: false });
    });

    it("never lists another company's debts", async () => {
      const { scopes } = await w.newTenant({ companies: ['A', 'B'] });
      await addContact('ext-ana', scopes[0]);
      await create(draft(), 'a-only', scopes[0]);
      expect(await listed({}, scopes[1])).to.deep.equal([]);
      expect(await listed({ externalClientId: 'ext-ana' }, scopes[1])).to.deep.equal([]);
    });
  });

  describe('MarkOverdueDebts', () => {
    it("persists OVERDUE per organization on that organization's clock", async () => {
      // Organization A is frozen on June 1st, B at the last millisecond of May 20th; C follows
      // the world clock (May 10th). Each has debts due May 9th and May 20th.
      const tenants = [];
      for (const frozen of [new Date('2031-06-01T00:00:00.000Z'), new Date('2031-05-20T23:59:59.999Z'), null]) {
        const s = (await w.newTenant()).scope;
        await addContact('ext-ana', s);
        await create(draft({ dueDate: '2031-05-09' }), 'due-09', s);
        await create(draft({ dueDate: '2031-05-20' }), 'due-20', s);
        await w.repos.tenancy.setFrozenNow(s.organizationId, frozen);
        tenants.push({ s, frozen });
      }
      w.clock.set(new Date('2031-05-10T12:00:00.000Z'));
      const { marked } = await app.jobs.markOverdueDebts.execute();
      const [a, b, c] = tenants;
      const statusOf = async (key: string, s: TenantScope) => (await stored(key, s))!;
      // The default tenant of beforeEach has no debts; A marks 2, B 1, C 1.
      expect(marked).to.equal(4);
      expect(await statusOf('due-09', a!.s)).to.deep.include({ status: 'OVERDUE', updatedAt: a!.frozen });
      expect(await statusOf('due-20', a!.s)).to.deep.include({ status: 'OVERDUE', updatedAt: a!.frozen });
      expect(await statusOf('due-09', b!.s)).to.deep.include({ status: 'OVERDUE', updatedAt: b!.frozen });
      expect(await statusOf('due-20', b!.s)).to.deep.include({ status: 'PENDING', updatedAt: T0 });
      expect(await statusOf('due-09', c!.s)).to.deep.include({ status: 'OVERDUE', updatedAt: new Date('2031-05-10T12:00:00.000Z') });
      expect(await statusOf('due-20', c!.s)).to.deep.include({ status: 'PENDING', updatedAt: T0 });
    });

    it('marks only PENDING debts past due, and nothing the second time', async () => {
      // Paid in part while still PENDING (an OVERDUE debt is only paid in full), then past due.
      const now = w.clock.now();
      w.clock.set(new Date('2031-04-30T12:00:00.000Z'));
      await create(draft({ dueDate: '2031-05-01' }), 'partly-late');
      await pay('partly-late', 1);
      w.clock.set(now);
      await create(draft({ dueDate: '2031-05-01' }), 'pending-late');
      await create(draft({ dueDate: '2031-05-01' }), 'paid-late');
      await pay('paid-late');
      await create(draft({ dueDate: '2031-05-01' }), 'cancelled-late');
      await app.commands.cancelDebt.execute('cancelled-late', scope);
      await create(draft({ dueDate: '2031-05-10' }), 'due-today');
      expect(await app.jobs.markOverdueDebts.execute()).to.deep.equal({ marked: 1 });
      const statuses = await Promise.all(['pending-late', 'partly-late', 'paid-late', 'cancelled-late', 'due-today'].map(async (k) => (await stored(k))!.status));
      expect(statuses).to.deep.equal(['OVERDUE', 'PARTIALLY_PAID', 'PAID', 'CANCELLED', 'PENDING']);
      expect(await app.jobs.markOverdueDebts.execute()).to.deep.equal({ marked: 0 });
    });

    it('follows a clock moved past the due date', async () => {
      await create(draft({ dueDate: '2031-05-10' }), 'due-today');
      expect(await app.jobs.markOverdueDebts.execute()).to.deep.equal({ marked: 0 });
      w.clock.advance(DAY_MS);
      expect(await app.jobs.markOverdueDebts.execute()).to.deep.equal({ marked: 1 });
      expect((await stored('due-today'))!.status).to.equal('OVERDUE');
    });
  });
});
