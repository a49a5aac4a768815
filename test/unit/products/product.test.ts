import { expect } from 'chai';
import { FixedClock } from '../../../adapters/clock/fixed-clock';
import { memoryInfrastructure } from '../../../cmd/shared/infrastructure';
import { type Application, buildApplication } from '../../../internal/application';
import { CreateProduct } from '../../../internal/products/commands/create-product';
import {
  normalizeExternalProductId,
  normalizeProductName,
  type Product,
  productIdOf,
  productNumberFromId,
} from '../../../internal/products/product';
import { ConflictError, InvalidRequestError, NotFoundError } from '../../../internal/shared/errors';
import type { TenantScope } from '../../../internal/shared/tenant-scope';
import type { ProductRepository } from '../../../ports/product-repository';
import type { UnitOfWork } from '../../../ports/unit-of-work';

const T0 = new Date('2031-03-04T05:06:07.089Z');

/** The error a promise rejects with; fails the test when it resolves. */
async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the promise to reject');
}

function expectInvalidField(error: unknown, field: string): void {
  expect(error).to.be.instanceOf(InvalidRequestError);
  const invalid = error as InvalidRequestError;
  expect(invalid.code).to.equal('INVALID_REQUEST');
  expect(invalid.details.map((d) => d.field)).to.deep.equal([field]);
}

function catching(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('products: domain helpers', () => {
  describe('productNumberFromId', () => {
    it('reads prd_<n> and the bare number', () => {
      expect(productNumberFromId('prd_12')).to.equal(12);
      expect(productNumberFromId('12')).to.equal(12);
      expect(productNumberFromId('prd_1')).to.equal(1);
      expect(productNumberFromId('prd_999999999999999')).to.equal(999_999_999_999_999);
    });

    it('round-trips productIdOf', () => {
      expect(productIdOf({ id: 42 })).to.equal('prd_42');
      expect(productNumberFromId(productIdOf({ id: 42 }))).to.equal(42);
    });

    for (const id of ['abc', 'prd_x', 'con_1', 'prd_0', '0', 'PRD_1', 'prd_1x', ' prd_1', 'prd_1 ', '', 'prd_', '-1', '1.5', '012', 'prd_012', 'prd_prd_1', '1e3']) {
      it(`names no product for ${JSON.stringify(id)}`, () => {
        expect(productNumberFromId(id)).to.equal(null);
      });
    }

    it('names no product for numbers beyond 15 digits (no precision loss)', () => {
      expect(productNumberFromId('9999999999999999')).to.equal(null);
      expect(productNumberFromId('prd_12345678901234567890')).to.equal(null);
    });
  });

  describe('normalizeProductName', () => {
    it('trims', () => {
      expect(normalizeProductName('  Gym \t')).to.equal('Gym');
      expect(normalizeProductName('Gym Plus')).to.equal('Gym Plus');
    });

    it('rejects blank names with field name', () => {
      for (const name of ['', '   ', '\n\t']) expectInvalidField(catching(() => normalizeProductName(name)), 'name');
    });

    it('names the given field', () => {
      expectInvalidField(catching(() => normalizeProductName(' ', 'productName')), 'productName');
    });
  });

  describe('normalizeExternalProductId', () => {
    it('trims', () => {
      expect(normalizeExternalProductId('  ext-1 ')).to.equal('ext-1');
    });

    for (const forbidden of ["'", '"', '\\', ';']) {
      it(`rejects ${JSON.stringify(forbidden)} with field externalProductId`, () => {
        expectInvalidField(catching(() => normalizeExternalProductId(`ab${forbidden}cd`)), 'externalProductId');
        expectInvalidField(catching(() => normalizeExternalProductId(` ${forbidden} `)), 'externalProductId');
      });
    }

    it('rejects blank values', () => {
      expectInvalidField(catching(() => normalizeExternalProductId('   ')), 'externalProductId');
    });

    it('names the given field', () => {
      expectInvalidField(catching(() => normalizeExternalProductId('a;b', 'product.externalProductId')), 'product.externalProductId');
    });

    it('accepts other punctuation', () => {
      expect(normalizeExternalProductId('SKU-1_a.b/c:d#e')).to.equal('SKU-1_a.b/c:d#e');
    });
  });
});

describe('products: use cases (memory)', () => {
  let clock: FixedClock;
  let app: Application;
  let products: ProductRepository;
  let infra: ReturnType<typeof memoryInfrastructure>;
  /** Company A of the client; `scopeB` is its second company. */
  let scope: TenantScope;
  let scopeB: TenantScope;

  beforeEach(async () => {
    clock = new FixedClock(T0);
    infra = memoryInfrastructure({ clock });
    app = buildApplication(infra.ports);
    products = infra.ports.repos.products;
    const created = await app.commands.createClient.execute({
      organization: 'Org Unit',
      username: 'unit_user',
      password: 'unit-password-123',
      companies: ['UNIT-A', 'UNIT-B'],
      settings: {},
    });
    const { tenancy, credentials } = infra.ports.repos;
    const user = (await credentials.findClientUserByUsername(created.clientUsername))!;
    const scopeFor = async (code: string): Promise<TenantScope> => ({
      organizationId: created.organizationId,
      organizationName: 'Org Unit',
      clientUserId: user.id,
      company: (await tenancy.findCompanyByCode(code))!,
      clock,
      requestId: null,
    });
    scope = await scopeFor('UNIT-A');
    scopeB = await scopeFor('UNIT-B');
  });

  const create = (input: { name: string; externalProductId?: string | null; active?: boolean }, s = scope) =>
    app.commands.createProduct.execute(input, s);
  const stored = (product: Product) => products.findById(product.companyId, product.id);

  describe('CreateProduct', () => {
    it('creates an active product in the scope company, stamped with the scope clock', async () => {
      const p = await create({ name: '  Gym ', externalProductId: ' gym-1 ' });
      expect(p).to.deep.include({
        organizationId: scope.organizationId,
        companyId: scope.company.id,
        name: 'Gym',
        externalProductId: 'gym-1',
        active: true,
      });
      expect(p.id).to.be.a('number').and.to.be.greaterThan(0);
      expect(p.createdAt?.toISOString()).to.equal(T0.toISOString());
      expect(p.updatedAt?.toISOString()).to.equal(T0.toISOString());
      expect(await stored(p)).to.deep.equal(p);
    });

    it('defaults externalProductId to null (absent or null)', async () => {
      expect((await create({ name: 'A' })).externalProductId).to.equal(null);
      expect((await create({ name: 'B', externalProductId: null })).externalProductId).to.equal(null);
    });

    it('uses the scope clock, not the process clock', async () => {
      const frozen = new Date('2040-01-01T00:00:00.000Z');
      const p = await create({ name: 'Frozen' }, { ...scope, clock: { now: () => frozen } });
      expect(p.createdAt?.toISOString()).to.equal(frozen.toISOString());
    });

    it('created with active:false is inactive with null timestamps', async () => {
      const p = await create({ name: 'Dormant', active: false });
      expect(p.active).to.equal(false);
      expect(p.createdAt).to.equal(null);
      expect(p.updatedAt).to.equal(null);
      expect((await stored(p))!.active).to.equal(false);
    });

    it('rejects a blank name (field name) and a forbidden externalProductId (field externalProductId)', async () => {
      expectInvalidField(await rejection(create({ name: '  ' })), 'name');
      expectInvalidField(await rejection(create({ name: 'X', externalProductId: 'a"b' })), 'externalProductId');
      expect((await products.listActive(scope.company.id, {}, { page: 1, limit: 50 })).total).to.equal(0);
    });

    it('returns the stored active product for the same (trimmed) name, ignoring other values', async () => {
      const first = await create({ name: 'Yoga', externalProductId: 'yoga-1' });
      clock.advance(60_000);
      const again = await create({ name: ' Yoga  ', active: false });
      expect(again).to.deep.equal(first);
      expect((await stored(first))!.active).to.equal(true);
    });

    it('returns the stored product when the same externalProductId is sent again', async () => {
      const first = await create({ name: 'Pilates', externalProductId: 'pil-1' });
      expect(await create({ name: 'Pilates', externalProductId: 'pil-1' })).to.deep.equal(first);
    });

    it('returns the stored product unchanged when it has no externalProductId and one is sent', async () => {
      const first = await create({ name: 'Spin' });
      const again = await create({ name: 'Spin', externalProductId: 'spin-1' });
      expect(again).to.deep.equal(first);
      expect((await stored(first))!.externalProductId).to.equal(null);
      expect(await products.findByExternalProductId(scope.company.id, 'spin-1')).to.equal(null);
    });

    it('conflicts when the stored externalProductId differs from the one sent', async () => {
      await create({ name: 'Swim', externalProductId: 'swim-1' });
      expect(await rejection(create({ name: 'Swim', externalProductId: 'swim-2' }))).to.be.instanceOf(ConflictError);
    });

    it('conflicts when the externalProductId belongs to another product (new name)', async () => {
      await create({ name: 'Tennis', externalProductId: 'shared' });
      expect(await rejection(create({ name: 'Padel', externalProductId: 'shared' }))).to.be.instanceOf(ConflictError);
      expect(await products.findByName(scope.company.id, 'Padel')).to.equal(null);
    });

    it('conflicts when the externalProductId belongs to another product (existing name without one)', async () => {
      await create({ name: 'Owner', externalProductId: 'own-1' });
      await create({ name: 'Other' });
      expect(await rejection(create({ name: 'Other', externalProductId: 'own-1' }))).to.be.instanceOf(ConflictError);
    });

    it('conflicts for the name of an inactive product', async () => {
      await create({ name: 'Retired', active: false });
      const error = await rejection(create({ name: 'Retired' }));
      expect(error).to.be.instanceOf(ConflictError);
      expect((error as ConflictError).code).to.equal('RESOURCE_CONFLICT');
    });

    it('scopes names and externalProductIds per company', async () => {
      const inA = await create({ name: 'Shared', externalProductId: 'sh-1' }, scope);
      const inB = await create({ name: 'Shared', externalProductId: 'sh-1' }, scopeB);
      expect(inB.id).to.not.equal(inA.id);
      expect(inB.companyId).to.equal(scopeB.company.id);
      await create({ name: 'Inactive in A', active: false }, scope);
      expect((await create({ name: 'Inactive in A' }, scopeB)).active).to.equal(true);
    });

    it('concurrent creations of the same new name resolve to one product', async () => {
      const results = await Promise.all(Array.from({ length: 10 }, () => create({ name: 'Rush', externalProductId: 'rush-1' })));
      expect(new Set(results.map((p) => p.id)).size).to.equal(1);
      expect((await products.listActive(scope.company.id, {}, { page: 1, limit: 50 })).total).to.equal(1);
    });

    /** CreateProduct over the test's ports, its reads of the name and key holders counted. */
    function counted(uow = infra.ports.uow) {
      const reads = { n: 0 };
      const holders: ProductRepository = Object.assign(Object.create(products) as ProductRepository, {
        findNameAndKeyHolders: (...args: Parameters<ProductRepository['findNameAndKeyHolders']>) => {
          reads.n++;
          return products.findNameAndKeyHolders(...args);
        },
      });
      return { reads, useCase: new CreateProduct({ uow, repos: { ...infra.ports.repos, products: holders } }) };
    }

    it('a new product costs no read; a taken name is read after the insert conflicts, and answers the stored product', async () => {
      const { reads, useCase } = counted();
      const created = await useCase.execute({ name: 'Race' }, scope);
      expect(reads.n, 'a new name').to.equal(0);
      expect(await useCase.execute({ name: ' Race ' }, scope)).to.deep.equal(created);
      expect(reads.n, 'a taken name').to.equal(1);
      expect((await products.listActive(scope.company.id, {}, { page: 1, limit: 50 })).total).to.equal(1);
    });

    it('creates once more when the product that held the name is gone by the time it is read', async () => {
      let conflicts = 0;
      // The first insert conflicts, as if a product with the name existed and was deleted just after.
      const racing: UnitOfWork = {
        ...infra.ports.uow,
        runGrouped: (key, work) => (conflicts++ === 0 ? Promise.reject(new ConflictError('Product already exists')) : infra.ports.uow.runGrouped(key, work)),
      };
      const { reads, useCase } = counted(racing);
      const result = await useCase.execute({ name: 'Phoenix' }, scope);
      expect([conflicts, reads.n]).to.deep.equal([2, 1]);
      expect(await stored(result)).to.deep.equal(result);
    });
  });

  describe('UpdateProduct', () => {
    const update = (id: string, input: { name?: string; active?: boolean }, s = scope) =>
      app.commands.updateProduct.execute(id, input, s);

    it('renames (trimmed) and leaves updatedAt as it was', async () => {
      const p = await create({ name: 'Old', externalProductId: 'x-1' });
      clock.advance(86_400_000);
      const renamed = await update(productIdOf(p), { name: '  New ' });
      expect(renamed).to.deep.equal({ ...p, name: 'New' });
      expect(renamed.updatedAt?.toISOString()).to.equal(T0.toISOString());
      expect(await stored(p)).to.deep.equal(renamed);
    });

    it('accepts the bare number', async () => {
      const p = await create({ name: 'Bare' });
      expect((await update(String(p.id), { name: 'Bare 2' })).name).to.equal('Bare 2');
    });

    it('its own name is a no-op', async () => {
      const p = await create({ name: 'Same' });
      expect(await update(productIdOf(p), { name: ' Same ' })).to.deep.equal(p);
    });

    it('conflicts when the name is used by another product, active or inactive', async () => {
      await create({ name: 'Active one' });
      await create({ name: 'Inactive one', active: false });
      const p = await create({ name: 'Mine' });
      expect(await rejection(update(productIdOf(p), { name: 'Active one' }))).to.be.instanceOf(ConflictError);
      expect(await rejection(update(productIdOf(p), { name: 'Inactive one' }))).to.be.instanceOf(ConflictError);
      expect((await stored(p))!.name).to.equal('Mine');
    });

    it('allows a name used only in another company', async () => {
      await create({ name: 'Elsewhere' }, scopeB);
      const p = await create({ name: 'Mine' });
      expect((await update(productIdOf(p), { name: 'Elsewhere' })).name).to.equal('Elsewhere');
    });

    it('rejects a blank name with field name', async () => {
      const p = await create({ name: 'Mine' });
      expectInvalidField(await rejection(update(productIdOf(p), { name: '   ' })), 'name');
    });

    it('active:false deactivates; the product is then unreachable', async () => {
      const p = await create({ name: 'Off' });
      const result = await update(productIdOf(p), { active: false });
      expect(result).to.deep.equal({ ...p, active: false });
      expect((await stored(p))!.active).to.equal(false);
      expect(await rejection(app.queries.getProduct.execute(productIdOf(p), scope))).to.be.instanceOf(NotFoundError);
      expect(await rejection(update(productIdOf(p), { active: false }))).to.be.instanceOf(NotFoundError);
    });

    it('renames and deactivates together', async () => {
      const p = await create({ name: 'Both' });
      const result = await update(productIdOf(p), { name: 'Both 2', active: false });
      expect(result).to.deep.include({ name: 'Both 2', active: false });
      expect(await stored(p)).to.deep.include({ name: 'Both 2', active: false });
    });

    it('active:true changes nothing on an active product', async () => {
      const p = await create({ name: 'Still' });
      expect(await update(productIdOf(p), { active: true })).to.deep.equal(p);
    });

    it('an inactive product is not found (no reactivation, no rename)', async () => {
      const p = await create({ name: 'Dead', active: false });
      const error = await rejection(update(productIdOf(p), { active: true }));
      expect(error).to.be.instanceOf(NotFoundError);
      expect((error as NotFoundError).code).to.equal('RESOURCE_NOT_FOUND');
      expect(await rejection(update(productIdOf(p), { name: 'Alive' }))).to.be.instanceOf(NotFoundError);
      expect(await stored(p)).to.deep.include({ name: 'Dead', active: false });
    });

    it('ids of other shapes, unknown ids and other companies are not found', async () => {
      const p = await create({ name: 'Target' });
      for (const id of [`con_${p.id}`, 'abc', 'prd_0', String(p.id + 1000)]) {
        expect(await rejection(update(id, { name: 'X' })), id).to.be.instanceOf(NotFoundError);
      }
      expect(await rejection(update(productIdOf(p), { name: 'X' }, scopeB))).to.be.instanceOf(NotFoundError);
      expect((await stored(p))!.name).to.equal('Target');
    });
  });

  describe('DeleteProduct', () => {
    const remove = (id: string, s = scope) => app.commands.deleteProduct.execute(id, s);

    it('soft-deletes and returns the product with active false', async () => {
      const p = await create({ name: 'Doomed', externalProductId: 'doom-1' });
      expect(await remove(productIdOf(p))).to.deep.equal({ ...p, active: false });
      expect(await stored(p)).to.deep.equal({ ...p, active: false });
    });

    it('accepts the bare number', async () => {
      const p = await create({ name: 'Doomed' });
      expect((await remove(String(p.id))).active).to.equal(false);
    });

    it('a second delete is not found', async () => {
      const p = await create({ name: 'Twice' });
      await remove(productIdOf(p));
      expect(await rejection(remove(productIdOf(p)))).to.be.instanceOf(NotFoundError);
    });

    it('a product created inactive is not found', async () => {
      const p = await create({ name: 'Born dead', active: false });
      expect(await rejection(remove(productIdOf(p)))).to.be.instanceOf(NotFoundError);
    });

    it('keeps the name and externalProductId taken', async () => {
      const p = await create({ name: 'Legacy', externalProductId: 'leg-1' });
      const other = await create({ name: 'Other' });
      await remove(productIdOf(p));
      expect(await rejection(create({ name: 'Legacy' }))).to.be.instanceOf(ConflictError);
      expect(await rejection(create({ name: 'New', externalProductId: 'leg-1' }))).to.be.instanceOf(ConflictError);
      expect(await rejection(app.commands.updateProduct.execute(productIdOf(other), { name: 'Legacy' }, scope))).to.be.instanceOf(
        ConflictError,
      );
    });

    it("another company's product is not found and stays active", async () => {
      const p = await create({ name: 'Mine' });
      expect(await rejection(remove(productIdOf(p), scopeB))).to.be.instanceOf(NotFoundError);
      expect((await stored(p))!.active).to.equal(true);
    });
  });

  describe('GetProduct and ListProducts', () => {
    const page = { page: 1, limit: 50 };

    it('GetProduct finds active products by prd_<n> or <n> in the scope company only', async () => {
      const p = await create({ name: 'Found' });
      expect(await app.queries.getProduct.execute(productIdOf(p), scope)).to.deep.equal(p);
      expect(await app.queries.getProduct.execute(String(p.id), scope)).to.deep.equal(p);
      expect(await rejection(app.queries.getProduct.execute(productIdOf(p), scopeB))).to.be.instanceOf(NotFoundError);
    });

    it('ListProducts lists active products by id descending, filters by exact name, and active=false finds nothing', async () => {
      const a = await create({ name: 'Zeta' });
      const b = await create({ name: 'Alpha' });
      await create({ name: 'Gone', active: false });
      await create({ name: 'Other company' }, scopeB);
      const all = await app.queries.listProducts.execute({}, page, scope);
      expect(all.items.map((p) => p.id)).to.deep.equal([b.id, a.id]);
      expect(all.total).to.equal(2);
      expect((await app.queries.listProducts.execute({ name: 'Zeta' }, page, scope)).items).to.deep.equal([a]);
      expect((await app.queries.listProducts.execute({ name: 'Zet' }, page, scope)).items).to.deep.equal([]);
      expect((await app.queries.listProducts.execute({ active: true }, page, scope)).total).to.equal(2);
      expect(await app.queries.listProducts.execute({ active: false }, page, scope)).to.deep.equal({ items: [], total: 0, capped: false });
    });
  });
});
