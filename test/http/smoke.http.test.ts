import { expect } from 'chai';
import { describeEachDatabase } from '../support/harness';

describeEachDatabase('smoke', ({ api }) => {
  it('creates and reads a contact', async () => {
    const tenant = await api().newTenant();
    const res = await api().http.post('/contacts').set(tenant.headers).send({ externalClientId: 'c1', name: 'Ana', email: 'a@b.co' });
    expect(res.status).to.equal(201);
    const got = await api().http.get(`/contacts/${res.body.data.contactId}`).set(tenant.headers);
    expect(got.body.data.externalClientId).to.equal('c1');
  });
});
