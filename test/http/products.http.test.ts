import { expect } from 'chai';
import type supertest from 'supertest';
import { describeEachDatabase, type Tenant } from '../support/harness';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const PRODUCT_KEYS = ['active', 'createdAt', 'externalProductId', 'name', 'productId', 'updatedAt'];

interface ProductBody {
  productId: string;
  name: string;
  externalProductId: string | null;
  active: boolean;
  createdAt: string | null;
  updatedAt: string | null;
}

/** `prd_12` → `12`. */
const numberOf = (productId: string) => productId.replace(/^prd_/, '');

function expectError(res: supertest.Response, status: number, code: string, field?: string): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(status);
  expect(res.body.error.code).to.equal(code);
  expect(res.body.error.message).to.be.a('string');
  expect(res.body.requestId).to.match(/^req_[A-Za-z0-9]+$/);
  if (field === undefined) {
    // Non-validation failures carry no details.
    if (status !== 400) expect(res.body.error).to.not.have.property('details');
  } else {
    const fields = (res.body.error.details as { field: string }[]).map((d) => d.field);
    expect(fields).to.include(field);
  }
}

function expectProductShape(data: ProductBody): void {
  expect(Object.keys(data).sort()).to.deep.equal(PRODUCT_KEYS);
  expect(data.productId).to.match(/^prd_[1-9]\d*$/);
}

describeEachDatabase('products', ({ api }) => {
  const post = (t: Tenant, body: unknown) => api().http.post('/products').set(t.headers).send(body as object);
  const get = (t: Tenant, id: string, query: Record<string, string> = {}) =>
    api().http.get(`/products/${id}`).set(t.headers).query(query);
  const patch = (t: Tenant, id: string, body: unknown) => api().http.patch(`/products/${id}`).set(t.headers).send(body as object);
  const del = (t: Tenant, id: string, query: Record<string, string> = {}) =>
    api().http.delete(`/products/${id}`).set(t.headers).query(query);
  const list = (t: Tenant, query: Record<string, string | number> = {}) => api().http.get('/products').set(t.headers).query(query);
  const freezeClock = async (t: Tenant, now: string) => {
    const res = await api().http.put('/test-helpers/clock').set(t.headers).send({ now });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
  };

  async function create(t: Tenant, body: Record<string, unknown>): Promise<ProductBody> {
    const res = await post(t, body);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.data;
  }

  describe('POST /products', () => {
    it('creates an active product: 201 with prd_<n>, trimmed values and timestamps', async () => {
      const t = await api().newTenant();
      await freezeClock(t, '2031-03-04T05:06:07.089Z');
      const res = await post(t, { name: '  Gym membership  ', externalProductId: '  ext-gym-1 ' });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.requestId).to.match(/^req_[A-Za-z0-9]+$/);
      const data: ProductBody = res.body.data;
      expectProductShape(data);
      expect(data).to.deep.include({
        name: 'Gym membership',
        externalProductId: 'ext-gym-1',
        active: true,
        createdAt: '2031-03-04T05:06:07.089Z',
        updatedAt: '2031-03-04T05:06:07.089Z',
      });
    });

    it('defaults externalProductId to null and uses the real clock when not frozen', async () => {
      const t = await api().newTenant();
      const before = Date.now();
      const data = await create(t, { name: 'Plain' });
      expectProductShape(data);
      expect(data.externalProductId).to.equal(null);
      expect(data.active).to.equal(true);
      expect(data.createdAt).to.match(ISO_MS);
      expect(data.updatedAt).to.equal(data.createdAt);
      expect(Date.parse(data.createdAt!)).to.be.within(before - 1000, Date.now() + 1000);
    });

    it('rejects a missing, blank or non-string name: 400 field name', async () => {
      const t = await api().newTenant();
      for (const body of [{ externalProductId: 'x1' }, { name: '' }, { name: '   ' }, { name: '\t\n' }, { name: 123 }, { name: null }]) {
        expectError(await post(t, body), 400, 'INVALID_REQUEST', 'name');
      }
      expect((await list(t)).body.meta.total).to.equal(0);
    });

    it("rejects each of ' \" \\ ; in externalProductId: 400 field externalProductId", async () => {
      const t = await api().newTenant();
      for (const forbidden of ["'", '"', '\\', ';']) {
        const res = await post(t, { name: 'Forbidden', externalProductId: `ab${forbidden}cd` });
        expectError(res, 400, 'INVALID_REQUEST', 'externalProductId');
      }
      // Nothing was stored.
      expect((await list(t, { name: 'Forbidden' })).body.meta.total).to.equal(0);
    });

    it('rejects a non-boolean active ("true", 1): 400 field active', async () => {
      const t = await api().newTenant();
      expectError(await post(t, { name: 'Strict', active: 'true' }), 400, 'INVALID_REQUEST', 'active');
      expectError(await post(t, { name: 'Strict', active: 1 }), 400, 'INVALID_REQUEST', 'active');
      expect((await list(t)).body.meta.total).to.equal(0);
    });

    it('ignores undeclared body fields', async () => {
      const t = await api().newTenant();
      const data = await create(t, { name: 'Extra', color: 'blue' });
      expectProductShape(data);
      expect(data.name).to.equal('Extra');
    });
  });

  describe('POST /products create-or-return', () => {
    it('returns the stored active product for the same name, ignoring the other body values', async () => {
      const t = await api().newTenant();
      const first = await create(t, { name: 'Yoga', externalProductId: 'yoga-1' });
      const res = await post(t, { name: '  Yoga ', active: false });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.data).to.deep.equal(first);
      expect((await get(t, first.productId)).status).to.equal(200);
    });

    it('returns the stored product when the same externalProductId is sent again', async () => {
      const t = await api().newTenant();
      const first = await create(t, { name: 'Pilates', externalProductId: 'pil-1' });
      const res = await post(t, { name: 'Pilates', externalProductId: ' pil-1 ' });
      expect(res.status).to.equal(201);
      expect(res.body.data).to.deep.equal(first);
    });

    it('returns the stored product unchanged when it has no externalProductId and one is sent', async () => {
      const t = await api().newTenant();
      const first = await create(t, { name: 'Spinning' });
      const res = await post(t, { name: 'Spinning', externalProductId: 'spin-1' });
      expect(res.status).to.equal(201);
      expect(res.body.data).to.deep.equal(first);
      expect(res.body.data.externalProductId).to.equal(null);
    });

    it('keeps the stored createdAt when the same name is posted later', async () => {
      const t = await api().newTenant();
      await freezeClock(t, '2031-01-01T00:00:00.000Z');
      const first = await create(t, { name: 'Boxing' });
      await freezeClock(t, '2031-06-01T00:00:00.000Z');
      const again = await create(t, { name: 'Boxing' });
      expect(again.createdAt).to.equal('2031-01-01T00:00:00.000Z');
      expect(again).to.deep.equal(first);
    });

    it('answers 409 when the name exists with a different externalProductId', async () => {
      const t = await api().newTenant();
      await create(t, { name: 'Swim', externalProductId: 'swim-1' });
      expectError(await post(t, { name: 'Swim', externalProductId: 'swim-2' }), 409, 'RESOURCE_CONFLICT');
    });

    it('answers 409 when the externalProductId belongs to another product', async () => {
      const t = await api().newTenant();
      await create(t, { name: 'Tennis', externalProductId: 'shared-1' });
      expectError(await post(t, { name: 'Padel', externalProductId: 'shared-1' }), 409, 'RESOURCE_CONFLICT');
      expect((await list(t, { name: 'Padel' })).body.meta.total).to.equal(0);
    });

    it('answers 409 when the externalProductId belongs to an existing product without ext id under the name', async () => {
      const t = await api().newTenant();
      await create(t, { name: 'Owner', externalProductId: 'own-1' });
      await create(t, { name: 'Other' });
      expectError(await post(t, { name: 'Other', externalProductId: 'own-1' }), 409, 'RESOURCE_CONFLICT');
    });

    it('answers 409 when the externalProductId belongs to an inactive product', async () => {
      const t = await api().newTenant();
      const gone = await create(t, { name: 'Gone', externalProductId: 'gone-1' });
      expect((await del(t, gone.productId)).status).to.equal(200);
      expectError(await post(t, { name: 'New', externalProductId: 'gone-1' }), 409, 'RESOURCE_CONFLICT');
    });

    it('answers 409 for the name of an inactive product', async () => {
      const t = await api().newTenant();
      const p = await create(t, { name: 'Retired' });
      expect((await patch(t, p.productId, { active: false })).status).to.equal(200);
      expectError(await post(t, { name: 'Retired' }), 409, 'RESOURCE_CONFLICT');
    });
  });

  describe('POST /products with active:false', () => {
    it('stores it inactive with null timestamps', async () => {
      const t = await api().newTenant();
      const res = await post(t, { name: 'Dormant', externalProductId: 'dor-1', active: false });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expectProductShape(res.body.data);
      expect(res.body.data).to.deep.include({
        name: 'Dormant',
        externalProductId: 'dor-1',
        active: false,
        createdAt: null,
        updatedAt: null,
      });
    });

    it('is then unreachable: GET 404 and not listed', async () => {
      const t = await api().newTenant();
      const p = await create(t, { name: 'Dormant', active: false });
      expectError(await get(t, p.productId), 404, 'RESOURCE_NOT_FOUND');
      const listed = await list(t);
      expect(listed.body.data).to.deep.equal([]);
      expect(listed.body.meta.total).to.equal(0);
    });

    it('keeps its name taken: POST the same name → 409', async () => {
      const t = await api().newTenant();
      await create(t, { name: 'Dormant', active: false });
      expectError(await post(t, { name: 'Dormant' }), 409, 'RESOURCE_CONFLICT');
    });

    it('with active:true explicitly is a normal active product', async () => {
      const t = await api().newTenant();
      const p = await create(t, { name: 'Awake', active: true });
      expect(p.active).to.equal(true);
      expect(p.createdAt).to.match(ISO_MS);
    });
  });

  describe('GET /products/{id}', () => {
    it('accepts prd_<n>', async () => {
      const t = await api().newTenant();
      const p = await create(t, { name: 'ById' });
      const res = await get(t, p.productId);
      expect(res.status).to.equal(200);
      expectProductShape(res.body.data);
      expect(res.body.data).to.deep.equal(p);
    });

    it('accepts the bare number', async () => {
      const t = await api().newTenant();
      const p = await create(t, { name: 'ByNumber' });
      const res = await get(t, numberOf(p.productId));
      expect(res.status).to.equal(200);
      expect(res.body.data).to.deep.equal(p);
    });

    it('answers 404 RESOURCE_NOT_FOUND for other prefixes and non-numeric ids', async () => {
      const t = await api().newTenant();
      const n = numberOf((await create(t, { name: 'Target' })).productId);
      for (const id of ['abc', 'prd_x', `con_${n}`, 'prd_0', '0', `PRD_${n}`, `prd_${n}x`, `prd_-${n}`, '99999999', 'prd_2848035817', 'prd_999999999999999']) {
        const res = await get(t, id);
        expect(res.status, id).to.equal(404);
        expectError(res, 404, 'RESOURCE_NOT_FOUND');
      }
    });

    it('answers 401 AUTHENTICATION_FAILED without credentials', async () => {
      const t = await api().newTenant();
      const p = await create(t, { name: 'Guarded' });
      expectError(await api().http.get(`/products/${p.productId}`), 401, 'AUTHENTICATION_FAILED');
    });
  });

  describe('GET /products', () => {
    it('lists active products sorted by productId descending (not by name or createdAt)', async () => {
      const t = await api().newTenant();
      await freezeClock(t, '2031-05-01T00:00:00.000Z');
      const a = await create(t, { name: 'Alpha' });
      await freezeClock(t, '2031-01-01T00:00:00.000Z');
      const b = await create(t, { name: 'Zeta' });
      await freezeClock(t, '2031-03-01T00:00:00.000Z');
      const c = await create(t, { name: 'Mid' });
      const res = await list(t);
      expect(res.status).to.equal(200);
      expect(res.body.requestId).to.match(/^req_[A-Za-z0-9]+$/);
      expect(res.body.data).to.deep.equal([c, b, a]);
      const ids = res.body.data.map((p: ProductBody) => Number(numberOf(p.productId)));
      expect(ids).to.deep.equal([...ids].sort((x, y) => y - x));
    });

    it('uses meta page 1, limit 50 by default, without capped', async () => {
      const t = await api().newTenant();
      await create(t, { name: 'Only' });
      const res = await list(t);
      expect(res.body.meta).to.deep.equal({ page: 1, limit: 50, total: 1, hasMore: false });
      expect(res.body.meta).to.not.have.property('capped');
    });

    it('leaves out inactive products (deleted, patched inactive, created inactive)', async () => {
      const t = await api().newTenant();
      const kept = await create(t, { name: 'Kept' });
      const deleted = await create(t, { name: 'Deleted' });
      const patched = await create(t, { name: 'Patched' });
      await create(t, { name: 'Born inactive', active: false });
      expect((await del(t, deleted.productId)).status).to.equal(200);
      expect((await patch(t, patched.productId, { active: false })).status).to.equal(200);
      const res = await list(t);
      expect(res.body.data).to.deep.equal([kept]);
      expect(res.body.meta.total).to.equal(1);
    });

    it('pages with limit and reports hasMore', async () => {
      const t = await api().newTenant();
      const a = await create(t, { name: 'P1' });
      const b = await create(t, { name: 'P2' });
      const c = await create(t, { name: 'P3' });
      const first = await list(t, { limit: 2 });
      expect(first.body.data).to.deep.equal([c, b]);
      expect(first.body.meta).to.deep.equal({ page: 1, limit: 2, total: 3, hasMore: true });
      const second = await list(t, { limit: 2, page: 2 });
      expect(second.body.data).to.deep.equal([a]);
      expect(second.body.meta).to.deep.equal({ page: 2, limit: 2, total: 3, hasMore: false });
      const beyond = await list(t, { limit: 2, page: 3 });
      expect(beyond.body.data).to.deep.equal([]);
      expect(beyond.body.meta).to.deep.equal({ page: 3, limit: 2, total: 3, hasMore: false });
    });

    it('validates page: >= 1 integer, else 400 field page', async () => {
      const t = await api().newTenant();
      for (const page of [0, -1, 'abc', 1.5]) {
        expectError(await list(t, { page }), 400, 'INVALID_REQUEST', 'page');
      }
      expect((await list(t, { page: 7 })).body.meta.page).to.equal(7);
    });

    it('validates limit: 1 to 500 integer, else 400 field limit', async () => {
      const t = await api().newTenant();
      for (const limit of [0, 501, 'abc', 2.5]) {
        expectError(await list(t, { limit }), 400, 'INVALID_REQUEST', 'limit');
      }
      for (const limit of [1, 500]) {
        const res = await list(t, { limit });
        expect(res.status).to.equal(200);
        expect(res.body.meta.limit).to.equal(limit);
      }
    });

    it('filters by exact name (no substring match)', async () => {
      const t = await api().newTenant();
      const gym = await create(t, { name: 'Gym' });
      await create(t, { name: 'Gym Plus' });
      await create(t, { name: 'My Gym' });
      const res = await list(t, { name: 'Gym' });
      expect(res.body.data).to.deep.equal([gym]);
      expect(res.body.meta.total).to.equal(1);
      expect((await list(t, { name: 'Gy' })).body.data).to.deep.equal([]);
    });

    it('name filter does not find an inactive product', async () => {
      const t = await api().newTenant();
      await create(t, { name: 'Hidden', active: false });
      const res = await list(t, { name: 'Hidden' });
      expect(res.status).to.equal(200);
      expect(res.body.data).to.deep.equal([]);
    });

    it('active=true lists the active products', async () => {
      const t = await api().newTenant();
      const a = await create(t, { name: 'On' });
      await create(t, { name: 'Off', active: false });
      const res = await list(t, { active: 'true' });
      expect(res.status).to.equal(200);
      expect(res.body.data).to.deep.equal([a]);
    });

    it('active=false lists nothing (inactive products are unreachable)', async () => {
      const t = await api().newTenant();
      await create(t, { name: 'On' });
      await create(t, { name: 'Off', active: false });
      const res = await list(t, { active: 'false' });
      expect(res.status).to.equal(200);
      expect(res.body.data).to.deep.equal([]);
      expect(res.body.meta).to.deep.equal({ page: 1, limit: 50, total: 0, hasMore: false });
    });

    it('rejects active other than true/false (yes, 1, TRUE): 400 field active', async () => {
      const t = await api().newTenant();
      for (const active of ['yes', '1', 'TRUE']) {
        expectError(await list(t, { active }), 400, 'INVALID_REQUEST', 'active');
      }
    });

  });

  describe('PATCH /products/{id}', () => {
    it('renames (trimmed) and returns the product', async () => {
      const t = await api().newTenant();
      const p = await create(t, { name: 'Old', externalProductId: 'keep-1' });
      const res = await patch(t, p.productId, { name: '  New  ' });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expectProductShape(res.body.data);
      expect(res.body.data).to.deep.equal({ ...p, name: 'New' });
      expect((await get(t, p.productId)).body.data.name).to.equal('New');
      expect((await list(t, { name: 'Old' })).body.data).to.deep.equal([]);
    });

    it('accepts the bare number in the path', async () => {
      const t = await api().newTenant();
      const p = await create(t, { name: 'Bare' });
      const res = await patch(t, numberOf(p.productId), { name: 'Bare 2' });
      expect(res.status).to.equal(200);
      expect(res.body.data.productId).to.equal(p.productId);
      expect(res.body.data.name).to.equal('Bare 2');
    });

    it('frees the old name for a new product after a rename', async () => {
      const t = await api().newTenant();
      const p = await create(t, { name: 'Reused' });
      expect((await patch(t, p.productId, { name: 'Renamed' })).status).to.equal(200);
      const again = await create(t, { name: 'Reused' });
      expect(again.productId).to.not.equal(p.productId);
    });

    it('does not change updatedAt (spec known limitation)', async () => {
      const t = await api().newTenant();
      await freezeClock(t, '2031-01-01T10:00:00.000Z');
      const p = await create(t, { name: 'Stamped' });
      await freezeClock(t, '2031-02-01T10:00:00.000Z');
      const res = await patch(t, p.productId, { name: 'Stamped 2' });
      expect(res.status).to.equal(200);
      expect(res.body.data.createdAt).to.equal('2031-01-01T10:00:00.000Z');
      expect(res.body.data.updatedAt).to.equal('2031-01-01T10:00:00.000Z');
      expect((await get(t, p.productId)).body.data.updatedAt).to.equal('2031-01-01T10:00:00.000Z');
    });

    it('answers 409 when the name is used by another active product', async () => {
      const t = await api().newTenant();
      await create(t, { name: 'Taken' });
      const p = await create(t, { name: 'Mine' });
      expectError(await patch(t, p.productId, { name: 'Taken' }), 409, 'RESOURCE_CONFLICT');
      expect((await get(t, p.productId)).body.data.name).to.equal('Mine');
    });

    it('answers 409 when the name is used by another inactive product', async () => {
      const t = await api().newTenant();
      await create(t, { name: 'Ghost', active: false });
      const p = await create(t, { name: 'Mine' });
      expectError(await patch(t, p.productId, { name: ' Ghost ' }), 409, 'RESOURCE_CONFLICT');
    });

    it('accepts its own current name as a no-op', async () => {
      const t = await api().newTenant();
      const p = await create(t, { name: 'Same' });
      const res = await patch(t, p.productId, { name: ' Same ' });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data).to.deep.equal(p);
    });

    it('active:false deactivates: 200 with active false, then GET 404 and not listed', async () => {
      const t = await api().newTenant();
      const p = await create(t, { name: 'Off' });
      const res = await patch(t, p.productId, { active: false });
      expect(res.status).to.equal(200);
      expect(res.body.data).to.deep.include({ productId: p.productId, name: 'Off', active: false });
      expectError(await get(t, p.productId), 404, 'RESOURCE_NOT_FOUND');
      expect((await list(t)).body.data).to.deep.equal([]);
    });

    it('renames and deactivates in one request', async () => {
      const t = await api().newTenant();
      const p = await create(t, { name: 'Both' });
      const res = await patch(t, p.productId, { name: 'Both 2', active: false });
      expect(res.status).to.equal(200);
      expect(res.body.data).to.deep.include({ name: 'Both 2', active: false });
      expectError(await post(t, { name: 'Both 2' }), 409, 'RESOURCE_CONFLICT');
    });

    it('active:true on an active product changes nothing', async () => {
      const t = await api().newTenant();
      const p = await create(t, { name: 'Still' });
      const res = await patch(t, p.productId, { active: true });
      expect(res.status).to.equal(200);
      expect(res.body.data).to.deep.equal(p);
    });

    it('active:true on an inactive product → 404 (no reactivation)', async () => {
      const t = await api().newTenant();
      const p = await create(t, { name: 'Dead' });
      expect((await del(t, p.productId)).status).to.equal(200);
      expectError(await patch(t, p.productId, { active: true }), 404, 'RESOURCE_NOT_FOUND');
      expectError(await get(t, p.productId), 404, 'RESOURCE_NOT_FOUND');
    });

    it('renaming an inactive product → 404', async () => {
      const t = await api().newTenant();
      const p = await create(t, { name: 'Dead', active: false });
      expectError(await patch(t, p.productId, { name: 'Alive' }), 404, 'RESOURCE_NOT_FOUND');
    });

    it('empty body → 400', async () => {
      const t = await api().newTenant();
      const p = await create(t, { name: 'Empty' });
      const res = await patch(t, p.productId, {});
      expectError(res, 400, 'INVALID_REQUEST', 'body');
    });

    it('externalProductId → 400 naming the field', async () => {
      const t = await api().newTenant();
      const p = await create(t, { name: 'Fixed', externalProductId: 'fx-1' });
      expectError(await patch(t, p.productId, { externalProductId: 'fx-2' }), 400, 'INVALID_REQUEST', 'externalProductId');
      expect((await get(t, p.productId)).body.data.externalProductId).to.equal('fx-1');
    });

    it('another unknown field beside a valid one → 400 naming it, nothing changed', async () => {
      const t = await api().newTenant();
      const p = await create(t, { name: 'Fixed' });
      expectError(await patch(t, p.productId, { name: 'Changed', productId: 'prd_1' }), 400, 'INVALID_REQUEST', 'productId');
      expect((await get(t, p.productId)).body.data.name).to.equal('Fixed');
    });

    it('name 123 → 400 field name', async () => {
      const t = await api().newTenant();
      const p = await create(t, { name: 'Typed' });
      expectError(await patch(t, p.productId, { name: 123 }), 400, 'INVALID_REQUEST', 'name');
    });

    it('blank name → 400 field name', async () => {
      const t = await api().newTenant();
      const p = await create(t, { name: 'Typed' });
      expectError(await patch(t, p.productId, { name: '   ' }), 400, 'INVALID_REQUEST', 'name');
    });

    it('active "false" → 400 field active', async () => {
      const t = await api().newTenant();
      const p = await create(t, { name: 'Typed' });
      expectError(await patch(t, p.productId, { active: 'false' }), 400, 'INVALID_REQUEST', 'active');
      expect((await get(t, p.productId)).status).to.equal(200);
    });

    it('unknown ids → 404', async () => {
      const t = await api().newTenant();
      const p = await create(t, { name: 'Target' });
      expectError(await patch(t, `con_${numberOf(p.productId)}`, { name: 'X' }), 404, 'RESOURCE_NOT_FOUND');
      expectError(await patch(t, 'abc', { name: 'X' }), 404, 'RESOURCE_NOT_FOUND');
    });

  });

  describe('DELETE /products/{id}', () => {
    it('soft-deletes: 200 with the product and active false', async () => {
      const t = await api().newTenant();
      const p = await create(t, { name: 'Doomed', externalProductId: 'doom-1' });
      const res = await del(t, p.productId);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expectProductShape(res.body.data);
      expect(res.body.data).to.deep.include({ productId: p.productId, name: 'Doomed', externalProductId: 'doom-1', active: false });
      expectError(await get(t, p.productId), 404, 'RESOURCE_NOT_FOUND');
    });

    it('accepts the bare number in the path', async () => {
      const t = await api().newTenant();
      const p = await create(t, { name: 'Doomed' });
      const res = await del(t, numberOf(p.productId));
      expect(res.status).to.equal(200);
      expect(res.body.data.productId).to.equal(p.productId);
      expect(res.body.data.active).to.equal(false);
    });

    it('a second DELETE → 404', async () => {
      const t = await api().newTenant();
      const p = await create(t, { name: 'Twice' });
      expect((await del(t, p.productId)).status).to.equal(200);
      expectError(await del(t, p.productId), 404, 'RESOURCE_NOT_FOUND');
    });

    it('DELETE of a product created inactive → 404', async () => {
      const t = await api().newTenant();
      const p = await create(t, { name: 'Born dead', active: false });
      expectError(await del(t, p.productId), 404, 'RESOURCE_NOT_FOUND');
    });

    it('keeps the name taken afterwards: POST same name → 409, PATCH to it → 409', async () => {
      const t = await api().newTenant();
      const p = await create(t, { name: 'Legacy' });
      const other = await create(t, { name: 'Other' });
      expect((await del(t, p.productId)).status).to.equal(200);
      expectError(await post(t, { name: 'Legacy' }), 409, 'RESOURCE_CONFLICT');
      expectError(await patch(t, other.productId, { name: 'Legacy' }), 409, 'RESOURCE_CONFLICT');
    });

    it('unknown ids → 404', async () => {
      const t = await api().newTenant();
      const p = await create(t, { name: 'Target' });
      expectError(await del(t, `con_${numberOf(p.productId)}`), 404, 'RESOURCE_NOT_FOUND');
      expectError(await del(t, 'prd_0'), 404, 'RESOURCE_NOT_FOUND');
      expect((await get(t, p.productId)).status).to.equal(200);
    });

  });

  describe('tenants', () => {
    it("another tenant's product is invisible: GET/PATCH/DELETE 404 and not listed; it stays intact", async () => {
      const owner = await api().newTenant();
      const stranger = await api().newTenant();
      const p = await create(owner, { name: 'Private' });
      expectError(await get(stranger, p.productId), 404, 'RESOURCE_NOT_FOUND');
      expectError(await get(stranger, numberOf(p.productId)), 404, 'RESOURCE_NOT_FOUND');
      expectError(await patch(stranger, p.productId, { name: 'Hijacked' }), 404, 'RESOURCE_NOT_FOUND');
      expectError(await del(stranger, p.productId), 404, 'RESOURCE_NOT_FOUND');
      const listed = await list(stranger);
      expect(listed.status).to.equal(200);
      expect(listed.body.data).to.deep.equal([]);
      expect(listed.body.meta).to.deep.equal({ page: 1, limit: 50, total: 0, hasMore: false });
      expect((await get(owner, p.productId)).body.data).to.deep.equal(p);
    });

    it('the same name can be used by two tenants', async () => {
      const one = await api().newTenant();
      const two = await api().newTenant();
      const a = await create(one, { name: 'Common', externalProductId: 'common-1' });
      const b = await create(two, { name: 'Common', externalProductId: 'common-1' });
      expect(a.productId).to.not.equal(b.productId);
    });
  });

  describe('companies', () => {
    it('a multi-company client must send companyCode: 400 field companyCode', async () => {
      const t = await api().newTenant({ companies: ['A', 'B'] });
      expectError(await post(t, { name: 'NoCompany' }), 400, 'INVALID_REQUEST', 'companyCode');
      expectError(await list(t), 400, 'INVALID_REQUEST', 'companyCode');
    });

    it('the same name can exist in two companies of the client', async () => {
      const t = await api().newTenant({ companies: ['A', 'B'] });
      const [a, b] = t.companyCodes as [string, string];
      const inA = await create(t, { name: 'Shared', externalProductId: 'sh-1', companyCode: a });
      const inB = await create(t, { name: 'Shared', externalProductId: 'sh-1', companyCode: b });
      expect(inA.productId).to.not.equal(inB.productId);
      expectProductShape(inA);
      expect(inA).to.not.have.property('companyCode');
      expect((await get(t, inA.productId, { companyCode: a })).body.data).to.deep.equal(inA);
      expect((await get(t, inB.productId, { companyCode: b })).body.data).to.deep.equal(inB);
    });

    it("a product of company A is 404 with companyCode B (GET, PATCH, DELETE)", async () => {
      const t = await api().newTenant({ companies: ['A', 'B'] });
      const [a, b] = t.companyCodes as [string, string];
      const p = await create(t, { name: 'OnlyA', companyCode: a });
      expectError(await get(t, p.productId, { companyCode: b }), 404, 'RESOURCE_NOT_FOUND');
      expectError(await patch(t, p.productId, { name: 'Moved', companyCode: b }), 404, 'RESOURCE_NOT_FOUND');
      expectError(await del(t, p.productId, { companyCode: b }), 404, 'RESOURCE_NOT_FOUND');
      expect((await get(t, p.productId, { companyCode: a })).body.data).to.deep.equal(p);
    });

    it('lists per company', async () => {
      const t = await api().newTenant({ companies: ['A', 'B'] });
      const [a, b] = t.companyCodes as [string, string];
      const inA = await create(t, { name: 'ListA', companyCode: a });
      const inB = await create(t, { name: 'ListB', companyCode: b });
      expect((await list(t, { companyCode: a })).body.data).to.deep.equal([inA]);
      expect((await list(t, { companyCode: b })).body.data).to.deep.equal([inB]);
    });

    it('PATCH and DELETE with companyCode act in that company only', async () => {
      const t = await api().newTenant({ companies: ['A', 'B'] });
      const [a, b] = t.companyCodes as [string, string];
      const inA = await create(t, { name: 'Twin', companyCode: a });
      const inB = await create(t, { name: 'Twin', companyCode: b });
      const renamed = await patch(t, inA.productId, { name: 'Twin A', companyCode: a });
      expect(renamed.status, JSON.stringify(renamed.body)).to.equal(200);
      expect(renamed.body.data.name).to.equal('Twin A');
      expect((await del(t, inB.productId, { companyCode: b })).status).to.equal(200);
      expect((await get(t, inA.productId, { companyCode: a })).body.data.name).to.equal('Twin A');
      expectError(await get(t, inB.productId, { companyCode: b }), 404, 'RESOURCE_NOT_FOUND');
    });

    it('PATCH with only companyCode is an empty body → 400', async () => {
      const t = await api().newTenant({ companies: ['A', 'B'] });
      const [a] = t.companyCodes as [string, string];
      const p = await create(t, { name: 'Ctx', companyCode: a });
      expectError(await patch(t, p.productId, { companyCode: a }), 400, 'INVALID_REQUEST');
    });

    it('an inactive name in company A does not block company B', async () => {
      const t = await api().newTenant({ companies: ['A', 'B'] });
      const [a, b] = t.companyCodes as [string, string];
      await create(t, { name: 'Sleepy', active: false, companyCode: a });
      const inB = await create(t, { name: 'Sleepy', companyCode: b });
      expect(inB.active).to.equal(true);
    });
  });

  describe('concurrency', () => {
    it('10 concurrent POSTs of the same new name all answer 201 with the same productId', async () => {
      const t = await api().newTenant();
      const responses = await Promise.all(
        Array.from({ length: 10 }, () => post(t, { name: 'Rush', externalProductId: 'rush-1' })),
      );
      for (const res of responses) expect(res.status, JSON.stringify(res.body)).to.equal(201);
      const ids = new Set(responses.map((res) => res.body.data.productId));
      expect(ids.size).to.equal(1);
      const listed = await list(t, { name: 'Rush' });
      expect(listed.body.meta.total).to.equal(1);
      expect(listed.body.data[0].productId).to.equal([...ids][0]);
    });

    it('10 concurrent POSTs of the same new name without externalProductId agree too', async () => {
      const t = await api().newTenant();
      const responses = await Promise.all(Array.from({ length: 10 }, () => post(t, { name: 'Rush' })));
      for (const res of responses) expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(new Set(responses.map((res) => res.body.data.productId)).size).to.equal(1);
    });
  });
});
