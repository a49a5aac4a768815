import { expect } from 'chai';
import { describeEachDatabase } from '../support/harness';

/** Every list of the facade (decisions.md section 5: `page` >= 1, `limit` 1 to 500). */
const LISTS = ['/debts', '/debts?status=OVERDUE', '/contacts', '/products', '/payment-links', '/subscriptions', '/events', '/webhook-endpoints'];
const LAST_EXACT_PAGE = Number.MAX_SAFE_INTEGER;

describeEachDatabase('paging bounds of every list', ({ api }) => {
  const http = () => api().http;

  for (const path of LISTS) {
    const sep = path.includes('?') ? '&' : '?';

    it(`${path}: the last exact page number (2^53 - 1) is an empty page with the real total, never a 500`, async () => {
      const t = await api().newTenant();
      await http().post('/contacts').set(t.headers).send({ externalClientId: 'paging-1', name: 'Paging', email: 'paging@example.com' }).expect(201);
      const first = await http().get(`${path}${sep}limit=500`).set(t.headers);
      expect(first.status, JSON.stringify(first.body)).to.equal(200);
      const res = await http().get(`${path}${sep}limit=500&page=${LAST_EXACT_PAGE}`).set(t.headers);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data).to.deep.equal([]);
      expect(res.body.meta).to.include({ page: LAST_EXACT_PAGE, limit: 500, hasMore: false });
      // Lists whose total is capped may count only when the page is full; the others count.
      if (first.body.meta.capped === undefined) expect(res.body.meta.total).to.equal(first.body.meta.total);
    });

    it(`${path}: a page number past 2^53 - 1 is 400 naming page`, async () => {
      const t = await api().newTenant();
      for (const page of ['9007199254740992', '99999999999999999999', '1e300']) {
        const res = await http().get(`${path}${sep}page=${page}`).set(t.headers);
        expect(res.status, `${page}: ${JSON.stringify(res.body)}`).to.equal(400);
        expect(res.body.error.code).to.equal('INVALID_REQUEST');
        expect(res.body.error.details.map((d: { field: string }) => d.field)).to.deep.equal(['page']);
      }
    });

    it(`${path}: a page or limit that is not finite (Infinity, 1e400) is 400 naming it, not a page of nulls`, async () => {
      const t = await api().newTenant();
      for (const [name, value] of [['page', 'Infinity'], ['page', '1e400'], ['limit', 'Infinity'], ['page', '-Infinity']]) {
        const res = await http().get(`${path}${sep}${name}=${value}`).set(t.headers);
        expect(res.status, `${name}=${value}: ${JSON.stringify(res.body)}`).to.equal(400);
        expect(res.body.error.details.map((d: { field: string }) => d.field)).to.deep.equal([name]);
      }
    });
  }

  it('a body number that is not finite (JSON.parse reads 1e400 as Infinity) is 400 naming the field', async () => {
    const t = await api().newTenant();
    const body = '{"externalSubscriptionId":"inf-1","externalClientId":"x","amount":10,"intervalUnit":"month","intervalCount":1e400,"startDate":"2031-01-01","productName":"P"}';
    const res = await http().post('/subscriptions').set(t.headers).set('content-type', 'application/json').send(body);
    expect(res.status, JSON.stringify(res.body)).to.equal(400);
    expect(res.body.error.details.map((d: { field: string }) => d.field)).to.deep.equal(['intervalCount']);
  });
});
