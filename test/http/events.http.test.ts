import { expect } from 'chai';
import { expectError, expectInvalid, expectNotFound, expectOk } from '../support/http-expect';
import { describeEachDatabase, type Tenant } from '../support/harness';

/**
 * GET /events and GET /events/{id} through the API: the event object, filters, validation and
 * tenancy, and the events that changes made over HTTP write (the full list of what each use case
 * writes is proven over memory in test/unit/events and test/unit/debts/debt-events.test.ts).
 */

const EVENT_KEYS = ['eventId', 'type', 'createdAt', 'companyCode', 'data', 'requestId'];

describeEachDatabase('events', ({ api }) => {
  const http = () => api().http;
  const list = (t: Tenant, query: Record<string, unknown> = {}) => http().get('/events').set(t.headers).query(query);
  const get = (t: Tenant, id: string, query: Record<string, unknown> = {}) => http().get(`/events/${id}`).set(t.headers).query(query);
  const freeze = async (t: Tenant, now: string) => expectOk(await http().put('/test-helpers/clock').set(t.headers).send({ now }));
  const contact = async (t: Tenant, externalClientId: string, extra: Record<string, unknown> = {}) =>
    http().post('/contacts').set(t.headers).send({ externalClientId, name: `Name ${externalClientId}`, email: `${externalClientId}@example.com`, ...extra });

  it('an event is { eventId, type, createdAt, companyCode, data.object (the resource as GET shows it), requestId of the request }', async () => {
    const t = await api().newTenant();
    await freeze(t, '2031-02-03T04:05:06.789Z');
    const res = await contact(t, 'ana');
    const created = expectOk(res, 201);
    const [event] = expectOk<Record<string, any>[]>(await list(t));
    expect(event).to.have.keys(...EVENT_KEYS);
    expect(event).to.deep.include({ type: 'contact.created', createdAt: '2031-02-03T04:05:06.789Z', companyCode: t.companyCodes[0], requestId: res.body.requestId });
    expect(event.eventId).to.match(/^evt_[A-Za-z0-9]{24}$/);
    expect(event.data).to.deep.equal({ object: expectOk(await http().get(`/contacts/${created.contactId}`).set(t.headers)) });
    const detail = expectOk(await get(t, event.eventId));
    expect(detail).to.deep.equal({ ...event, deliveries: [] });
  });

  it('lists newest first with page meta; filters by type, resourceId and createdAt (exact instants, plain dates cover their UTC day)', async () => {
    const t = await api().newTenant();
    await freeze(t, '2031-03-01T10:00:00.000Z');
    const ana = expectOk(await contact(t, 'ana'), 201);
    await freeze(t, '2031-03-02T10:00:00.000Z');
    expectOk(await http().patch(`/contacts/${ana.contactId}`).set(t.headers).send({ name: 'Ana B' }));
    await freeze(t, '2031-03-03T10:00:00.000Z');
    expectOk(await contact(t, 'bob'), 201);

    const all = await list(t);
    expect(expectOk(all).map((e: { type: string }) => e.type)).to.deep.equal(['contact.created', 'contact.updated', 'contact.created']);
    expect(all.body.meta).to.deep.equal({ page: 1, limit: 50, total: 3, hasMore: false });
    const paged = await list(t, { limit: 1, page: 2 });
    expect(expectOk(paged).map((e: { type: string }) => e.type)).to.deep.equal(['contact.updated']);
    expect(paged.body.meta).to.deep.equal({ page: 2, limit: 1, total: 3, hasMore: true });
    // The total on every path: a full page (the tally, or a count of a filter's matches), a page
    // that is not full, and a page past the end.
    const meta = async (q: Record<string, unknown>) => (await list(t, q)).body.meta;
    expect(await meta({ limit: 2 })).to.deep.equal({ page: 1, limit: 2, total: 3, hasMore: true });
    expect(await meta({ limit: 2, page: 5 })).to.deep.equal({ page: 5, limit: 2, total: 3, hasMore: false });
    expect(await meta({ type: 'contact.created', limit: 1 })).to.deep.equal({ page: 1, limit: 1, total: 2, hasMore: true });
    expect(await meta({ type: 'contact.created', limit: 1, page: 3 })).to.deep.equal({ page: 3, limit: 1, total: 2, hasMore: false });
    expect(await meta({ type: 'contact.created', limit: 5 })).to.deep.equal({ page: 1, limit: 5, total: 2, hasMore: false });

    const ofAna = expectOk(await list(t, { resourceId: ana.contactId }));
    expect(ofAna.map((e: { type: string }) => e.type)).to.deep.equal(['contact.updated', 'contact.created']);
    expect(expectOk(await list(t, { type: 'contact.updated' })).map((e: { data: { object: { name: string } } }) => e.data.object.name)).to.deep.equal(['Ana B']);
    const created = (q: Record<string, string>) => list(t, q).then((r) => expectOk(r).map((e: { createdAt: string }) => e.createdAt));
    expect(await created({ createdAtFrom: '2031-03-02' })).to.deep.equal(['2031-03-03T10:00:00.000Z', '2031-03-02T10:00:00.000Z']);
    expect(await created({ createdAtTo: '2031-03-02' })).to.deep.equal(['2031-03-02T10:00:00.000Z', '2031-03-01T10:00:00.000Z']);
    expect(await created({ createdAtFrom: '2031-03-02T10:00:00.001Z', createdAtTo: '2031-03-03T10:00:00Z' })).to.deep.equal(['2031-03-03T10:00:00.000Z']);
    expect(await created({ createdAtFrom: '2031-03-02T11:00:00+01:00', createdAtTo: '2031-03-02T10:00:00Z' })).to.deep.equal(['2031-03-02T10:00:00.000Z']);
    expect(await created({ type: 'debt.paid' })).to.deep.equal([]);
    expect(await created({ resourceId: 'con_nobody' })).to.deep.equal([]);
  });

  it('400 naming the parameter: unknown type, bad dates, from after to, resourceId too long, page and limit', async () => {
    const t = await api().newTenant();
    expectInvalid(await list(t, { type: 'debt.exploded' }), 'type');
    expectInvalid(await list(t, { createdAtFrom: 'yesterday' }), 'createdAtFrom');
    expectInvalid(await list(t, { createdAtTo: '2031-02-30' }), 'createdAtTo');
    expectInvalid(await list(t, { createdAtFrom: '2031-03-02', createdAtTo: '2031-03-01' }), 'createdAtFrom');
    expectInvalid(await list(t, { resourceId: 'x'.repeat(201) }), 'resourceId');
    expectInvalid(await list(t, { page: 0 }), 'page');
    expectInvalid(await list(t, { limit: 0 }), 'limit');
    expectInvalid(await list(t, { limit: 501 }), 'limit');
    expectError(await http().get('/events'), 401, 'AUTHENTICATION_FAILED');
  });

  it("another organization's or company's event is 404 and never listed", async () => {
    const t = await api().newTenant({ companies: ['A', 'B'] });
    const [a, b] = t.companyCodes as [string, string];
    const stranger = await api().newTenant();
    expectOk(await http().post('/products').set(t.headers).send({ name: 'Only in A', companyCode: a }), 201);
    const [event] = expectOk<Record<string, any>[]>(await list(t, { companyCode: a }));
    expect(event.companyCode).to.equal(a);
    expectNotFound(await get(t, event.eventId, { companyCode: b }));
    expect(expectOk(await list(t, { companyCode: b }))).to.deep.equal([]);
    expectNotFound(await get(stranger, event.eventId));
    expect(expectOk(await list(stranger))).to.deep.equal([]);
    expectNotFound(await get(t, 'evt_doesNotExist', { companyCode: a }));
    expectNotFound(await get(t, 'not-an-event', { companyCode: a }));
    expectError(await list(t), 400, 'INVALID_REQUEST', 'companyCode');
  });

  it('changes over HTTP write their events: products, payment links, subscriptions', async () => {
    const t = await api().newTenant();
    const product = expectOk(await http().post('/products').set(t.headers).send({ name: 'Gym' }), 201);
    expectOk(await http().patch(`/products/${product.productId}`).set(t.headers).send({ name: 'Gym plus' }));
    expectOk(await http().delete(`/products/${product.productId}`).set(t.headers));
    const link = expectOk(await http().post('/payment-links').set(t.headers).send({ amount: 50, description: 'Invoice', expiresAt: '2099-01-01T00:00:00Z' }), 201);
    expectOk(await http().post(`/payment-links/${link.paymentLinkId}/cancel`).set(t.headers));
    const sub = expectOk(
      await http()
        .post('/subscriptions')
        .set(t.headers)
        .send({ externalSubscriptionId: 'plan-1', contactData: { externalClientId: 'sue', name: 'Sue', email: 'sue@example.com' }, amount: 10, intervalUnit: 'month', intervalCount: 1, startDate: '2099-01-01', productName: 'Plan', totalCycles: 2 }),
      201,
    );
    await api().drainJobs();
    expectOk(await http().post(`/subscriptions/${sub.subscriptionId}/pause`).set(t.headers));
    const events = expectOk(await list(t)).reverse() as { type: string; data: { object: Record<string, unknown> } }[];
    expect(events.map((e) => e.type)).to.deep.equal([
      'product.created',
      'product.updated',
      'product.deleted',
      'payment_link.created',
      'debt.created',
      'payment_link.cancelled',
      'debt.cancelled',
      'contact.created',
      'product.created',
      'subscription.created',
      'debt.created',
      'debt.created',
      'subscription.cycles_generated',
      'subscription.paused',
      'debt.cancelled',
      'debt.cancelled',
    ]);
    expect(events[3]!.data.object).to.deep.include({ paymentLinkId: link.paymentLinkId, status: 'ACTIVE' });
    expect(events[13]!.data.object).to.deep.include({ subscriptionId: sub.subscriptionId, status: 'PAUSED' });
  });
});
