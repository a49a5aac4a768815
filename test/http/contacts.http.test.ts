import { expect } from 'chai';
import type { Response } from 'supertest';
import { describeEachDatabase, type Tenant } from '../support/harness';

/** `YYYY-MM-DDTHH:mm:ss.sssZ` (spec convention 3). */
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const CONTACT_ID = /^con_[A-Za-z0-9]+$/;
const REQUEST_ID = /^req_[A-Za-z0-9]+$/;
const CONTACT_KEYS = ['active', 'contactId', 'createdAt', 'email', 'externalClientId', 'name', 'phones', 'updatedAt'];

function contactBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { externalClientId: 'client-1', name: 'Ana Pérez', email: 'ana@example.com', ...overrides };
}

/** A 400 INVALID_REQUEST whose details name `field`. */
function expectInvalid(res: Response, field: string): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(400);
  expect(res.body.error.code).to.equal('INVALID_REQUEST');
  expect(res.body.error.details, JSON.stringify(res.body)).to.be.an('array');
  expect(res.body.error.details.map((d: { field: string }) => d.field)).to.include(field);
  expect(res.body.requestId).to.match(REQUEST_ID);
}

function expectNotFound(res: Response): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(404);
  expect(res.body.error.code).to.equal('RESOURCE_NOT_FOUND');
}

function idsOf(res: Response): string[] {
  return res.body.data.map((c: { contactId: string }) => c.contactId);
}

describeEachDatabase('contacts', ({ api }) => {
  const http = () => api().http;

  async function create(tenant: Tenant, overrides: Record<string, unknown> = {}) {
    const res = await http().post('/contacts').set(tenant.headers).send(contactBody(overrides));
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.data;
  }

  function list(tenant: Tenant, query: Record<string, string | number> = {}) {
    return http().get('/contacts').query(query).set(tenant.headers);
  }

  function patch(tenant: Tenant, id: string, body: unknown) {
    return http().patch(`/contacts/${id}`).set(tenant.headers).send(body as object);
  }

  async function freezeClock(tenant: Tenant, now: string) {
    const res = await http().put('/test-helpers/clock').set(tenant.headers).send({ now });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
  }

  describe('POST /contacts', () => {
    it('creates a contact and answers 201 with the full contact shape', async () => {
      const tenant = await api().newTenant();
      const res = await http()
        .post('/contacts')
        .set(tenant.headers)
        .send(contactBody({ phones: [{ number: '+52 55 1234 5678', type: 'MOBILE' }] }));
      expect(res.status).to.equal(201);
      expect(res.body.requestId).to.match(REQUEST_ID);
      expect(res.headers['x-request-id']).to.equal(res.body.requestId);
      const contact = res.body.data;
      expect(Object.keys(contact).sort()).to.deep.equal(CONTACT_KEYS);
      expect(contact.contactId).to.match(CONTACT_ID);
      expect(contact).to.include({ externalClientId: 'client-1', name: 'Ana Pérez', email: 'ana@example.com', active: true });
      expect(contact.phones).to.deep.equal([{ number: '+52 55 1234 5678', type: 'MOBILE', primary: false, description: 'MOBILE' }]);
      expect(contact.createdAt).to.match(ISO_MS);
      expect(contact.updatedAt).to.equal(contact.createdAt);
    });

    it('keeps a sent description and primary flag', async () => {
      const tenant = await api().newTenant();
      const contact = await create(tenant, {
        phones: [
          { number: '5512345678', type: 'WORK', primary: true, description: 'Office' },
          { number: '5587654321', type: 'RELATIVE', primary: false },
        ],
      });
      expect(contact.phones).to.deep.equal([
        { number: '5512345678', type: 'WORK', primary: true, description: 'Office' },
        { number: '5587654321', type: 'RELATIVE', primary: false, description: 'RELATIVE' },
      ]);
    });

    it('creates a contact without phones with an empty list', async () => {
      const tenant = await api().newTenant();
      const contact = await create(tenant);
      expect(contact.phones).to.deep.equal([]);
    });

    it('stamps createdAt with the frozen clock instant', async () => {
      const tenant = await api().newTenant();
      await freezeClock(tenant, '2030-01-02T03:04:05.678Z');
      const contact = await create(tenant);
      expect(contact.createdAt).to.equal('2030-01-02T03:04:05.678Z');
      expect(contact.updatedAt).to.equal('2030-01-02T03:04:05.678Z');
    });

    it('rejects a body missing externalClientId, name or email with 400 naming the field', async () => {
      const tenant = await api().newTenant();
      for (const field of ['externalClientId', 'name', 'email']) {
        const body = contactBody();
        delete body[field];
        expectInvalid(await http().post('/contacts').set(tenant.headers).send(body), field);
      }
      expect((await list(tenant)).body.meta.total).to.equal(0);
    });

    it('rejects a blank externalClientId and one over 100 characters', async () => {
      const tenant = await api().newTenant();
      expectInvalid(await http().post('/contacts').set(tenant.headers).send(contactBody({ externalClientId: '   ' })), 'externalClientId');
      expectInvalid(
        await http().post('/contacts').set(tenant.headers).send(contactBody({ externalClientId: 'x'.repeat(101) })),
        'externalClientId',
      );
      expect((await create(tenant, { externalClientId: 'x'.repeat(100) })).externalClientId).to.have.length(100);
    });

    it('rejects a blank name and one over 200 characters', async () => {
      const tenant = await api().newTenant();
      expectInvalid(await http().post('/contacts').set(tenant.headers).send(contactBody({ name: '' })), 'name');
      expectInvalid(await http().post('/contacts').set(tenant.headers).send(contactBody({ name: 'n'.repeat(201) })), 'name');
    });

    it('accepts and finds a 200-character name whose search form is longer (Hangul decomposes)', async () => {
      const tenant = await api().newTenant();
      const name = '한'.repeat(199) + 'Ñ';
      const contact = await create(tenant, { name });
      expect(contact.name).to.equal(name);
      expect(idsOf(await list(tenant, { name: '한한n' }))).to.deep.equal([contact.contactId]);
    });

    it('rejects an invalid email with 400 field email', async () => {
      const tenant = await api().newTenant();
      expectInvalid(await http().post('/contacts').set(tenant.headers).send(contactBody({ email: 'not-an-email' })), 'email');
      expectInvalid(await http().post('/contacts').set(tenant.headers).send(contactBody({ email: null })), 'email');
    });

    it('rejects a phone type outside the enum (which is exact) with 400 field phones[i].type', async () => {
      const tenant = await api().newTenant();
      const withPhones = (phones: unknown[]) => http().post('/contacts').set(tenant.headers).send(contactBody({ phones }));
      expectInvalid(await withPhones([{ number: '5512345678', type: 'HOME' }]), 'phones[0].type');
      expectInvalid(await withPhones([{ number: '5512345678', type: 'MAIN' }, { number: '5587654321', type: 'mobile' }]), 'phones[1].type');
    });

    it('rejects a phone without type, without number, or whose number has no digit', async () => {
      const tenant = await api().newTenant();
      const withPhones = (phones: unknown[]) => http().post('/contacts').set(tenant.headers).send(contactBody({ phones }));
      expectInvalid(await withPhones([{ number: '5512345678' }]), 'phones[0].type');
      expectInvalid(await withPhones([{ type: 'MAIN' }]), 'phones[0].number');
      expectInvalid(await withPhones([{ number: 'call me', type: 'MAIN' }]), 'phones[0].number');
    });

    it('rejects a non-boolean primary ("true" and 1) with 400 field phones[0].primary', async () => {
      const tenant = await api().newTenant();
      for (const primary of ['true', 1]) {
        const res = await http()
          .post('/contacts')
          .set(tenant.headers)
          .send(contactBody({ phones: [{ number: '5512345678', type: 'MAIN', primary }] }));
        expectInvalid(res, 'phones[0].primary');
      }
    });

    it('rejects a non-string description', async () => {
      const tenant = await api().newTenant();
      const res = await http()
        .post('/contacts')
        .set(tenant.headers)
        .send(contactBody({ phones: [{ number: '5512345678', type: 'MAIN', description: 7 }] }));
      expectInvalid(res, 'phones[0].description');
    });

    it('rejects two primary phones with 400 field phones and stores nothing', async () => {
      const tenant = await api().newTenant();
      const res = await http()
        .post('/contacts')
        .set(tenant.headers)
        .send(
          contactBody({
            phones: [
              { number: '5512345678', type: 'MAIN', primary: true },
              { number: '5587654321', type: 'MOBILE', primary: true },
            ],
          }),
        );
      expectInvalid(res, 'phones');
      const listed = await list(tenant);
      expect(listed.body.meta.total).to.equal(0);
    });

    it('rejects phones that is not an array', async () => {
      const tenant = await api().newTenant();
      expectInvalid(await http().post('/contacts').set(tenant.headers).send(contactBody({ phones: { number: '1' } })), 'phones');
    });

    it('answers 409 RESOURCE_CONFLICT for an externalClientId the organization already has', async () => {
      const tenant = await api().newTenant();
      await create(tenant);
      const res = await http().post('/contacts').set(tenant.headers).send(contactBody({ name: 'Other', email: 'other@example.com' }));
      expect(res.status).to.equal(409);
      expect(res.body.error.code).to.equal('RESOURCE_CONFLICT');
      expect(res.body.requestId).to.match(REQUEST_ID);
      expect((await list(tenant)).body.meta.total).to.equal(1);
    });

    it('lets exactly one of concurrent creates with the same externalClientId win; the others get 409', async () => {
      const tenant = await api().newTenant();
      const body = contactBody({ phones: [{ number: '5512345678', type: 'MAIN' }] });
      const results = await Promise.all(Array.from({ length: 5 }, () => http().post('/contacts').set(tenant.headers).send(body)));
      expect(results.map((r) => r.status).sort()).to.deep.equal([201, 409, 409, 409, 409]);
      for (const r of results.filter((r) => r.status === 409)) expect(r.body.error.code).to.equal('RESOURCE_CONFLICT');
      const listed = await list(tenant, { phone: '5512345678' });
      expect(listed.body.meta.total).to.equal(1);
    });

    it('answers each of a burst of creates on its own (group commit): new keys 201 once each, a repeated key 409, one event per contact', async () => {
      const tenant = await api().newTenant();
      const keys = ['burst-1', 'burst-2', 'burst-dup', 'burst-3', 'burst-dup', 'burst-4'];
      const results = await Promise.all(keys.map((externalClientId) => http().post('/contacts').set(tenant.headers).send(contactBody({ externalClientId }))));
      expect(results.map((r) => r.status).sort()).to.deep.equal([201, 201, 201, 201, 201, 409]);
      results.forEach((r, i) => {
        if (r.status === 201) expect(r.body.data.externalClientId).to.equal(keys[i]);
        else expect(r.body.error.code).to.equal('RESOURCE_CONFLICT');
      });
      expect(new Set(results.filter((r) => r.status === 201).map((r) => r.body.data.contactId)).size).to.equal(5);
      expect((await list(tenant)).body.meta.total).to.equal(5);
      const events = await http().get('/events').query({ type: 'contact.created', limit: 50 }).set(tenant.headers);
      expect(events.status).to.equal(200);
      expect(events.body.data.map((e: { data: { object: { externalClientId: string } } }) => e.data.object.externalClientId).sort()).to.deep.equal(['burst-1', 'burst-2', 'burst-3', 'burst-4', 'burst-dup']);
    });

    it('allows the same externalClientId in another organization', async () => {
      const first = await api().newTenant();
      const second = await api().newTenant();
      const a = await create(first);
      const b = await create(second);
      expect(b.externalClientId).to.equal(a.externalClientId);
      expect(b.contactId).to.not.equal(a.contactId);
    });

    it('treats externalClientId as exact: case variants are different contacts', async () => {
      const tenant = await api().newTenant();
      await create(tenant, { externalClientId: 'abc' });
      await create(tenant, { externalClientId: 'ABC' });
      expect((await list(tenant)).body.meta.total).to.equal(2);
    });

    it('ignores undeclared fields', async () => {
      const tenant = await api().newTenant();
      const res = await http()
        .post('/contacts')
        .set(tenant.headers)
        .send(contactBody({ metadata: { a: 1 }, active: false, contactId: 'con_forged', foo: 'bar' }));
      expect(res.status).to.equal(201);
      expect(Object.keys(res.body.data).sort()).to.deep.equal(CONTACT_KEYS);
      expect(res.body.data.active).to.equal(true);
      expect(res.body.data.contactId).to.not.equal('con_forged');
    });

    it('answers 401 without credentials', async () => {
      const res = await http().post('/contacts').send(contactBody());
      expect(res.status).to.equal(401);
      expect(res.body.error.code).to.equal('AUTHENTICATION_FAILED');
    });
  });

  describe('GET /contacts/{id}', () => {
    it('retrieves a contact by its id, with or without the con_ prefix', async () => {
      const tenant = await api().newTenant();
      const created = await create(tenant, { phones: [{ number: '5512345678', type: 'MAIN', primary: true }] });
      const res = await http().get(`/contacts/${created.contactId}`).set(tenant.headers);
      expect(res.status).to.equal(200);
      expect(res.body.requestId).to.match(REQUEST_ID);
      expect(res.body.data).to.deep.equal(created);
      const bare = await http().get(`/contacts/${created.contactId.slice('con_'.length)}`).set(tenant.headers);
      expect(bare.status).to.equal(200);
      expect(bare.body.data).to.deep.equal(created);
    });

    it('answers 404 for an unknown or malformed id', async () => {
      const tenant = await api().newTenant();
      await create(tenant);
      for (const id of ['con_doesnotexist000000', 'doesnotexist', 'con_', 'con_a-b', 'prd_1']) {
        expectNotFound(await http().get(`/contacts/${encodeURIComponent(id)}`).set(tenant.headers));
      }
    });

    it("answers 404 for another organization's contact", async () => {
      const owner = await api().newTenant();
      const other = await api().newTenant();
      const created = await create(owner);
      expectNotFound(await http().get(`/contacts/${created.contactId}`).set(other.headers));
    });
  });

  describe('GET /contacts', () => {
    it('lists with default page 1, limit 50, hasMore false and capped false', async () => {
      const tenant = await api().newTenant();
      const empty = await list(tenant);
      expect(empty.status).to.equal(200);
      expect(empty.body.data).to.deep.equal([]);
      expect(empty.body.meta).to.deep.equal({ page: 1, limit: 50, total: 0, hasMore: false, capped: false });
      const created = await create(tenant);
      const res = await list(tenant);
      expect(res.status).to.equal(200);
      expect(res.body.requestId).to.match(REQUEST_ID);
      expect(res.body.meta).to.deep.equal({ page: 1, limit: 50, total: 1, hasMore: false, capped: false });
      expect(res.body.data).to.deep.equal([created]);
    });

    it('lists newest first', async () => {
      const tenant = await api().newTenant();
      const ids: string[] = [];
      for (const ext of ['first', 'second', 'third']) ids.push((await create(tenant, { externalClientId: ext })).contactId);
      expect(idsOf(await list(tenant))).to.deep.equal([...ids].reverse());
    });

    it('pages with hasMore', async () => {
      const tenant = await api().newTenant();
      const ids: string[] = [];
      for (const ext of ['c1', 'c2', 'c3']) ids.push((await create(tenant, { externalClientId: ext })).contactId);
      const first = await list(tenant, { limit: 2 });
      expect(first.body.meta).to.deep.equal({ page: 1, limit: 2, total: 3, hasMore: true, capped: false });
      expect(idsOf(first)).to.deep.equal([ids[2], ids[1]]);
      const second = await list(tenant, { limit: 2, page: 2 });
      expect(second.body.meta).to.deep.equal({ page: 2, limit: 2, total: 3, hasMore: false, capped: false });
      expect(idsOf(second)).to.deep.equal([ids[0]]);
      const beyond = await list(tenant, { limit: 2, page: 3 });
      expect(beyond.body.data).to.deep.equal([]);
      expect(beyond.body.meta).to.include({ total: 3, hasMore: false });
    });

    it('accepts limit 500', async () => {
      const tenant = await api().newTenant();
      const res = await list(tenant, { limit: 500 });
      expect(res.status).to.equal(200);
      expect(res.body.meta.limit).to.equal(500);
    });

    it('rejects page < 1, limit outside 1..500 and non-integers with 400 naming the parameter', async () => {
      const tenant = await api().newTenant();
      const cases: [string, string][] = [
        ['page', '0'],
        ['page', '-1'],
        ['page', 'abc'],
        ['page', '1.5'],
        ['limit', '0'],
        ['limit', '501'],
        ['limit', 'abc'],
      ];
      for (const [param, value] of cases) expectInvalid(await list(tenant, { [param]: value }), param);
    });

    it('stops counting at 10,000 matches and then says capped: true', async () => {
      const tenant = await api().newTenant();
      // 10,001 contacts through the API would take minutes: seed the rows the repository reads.
      const at = Date.parse('2030-01-01T00:00:00.000Z');
      const rows = Array.from({ length: 10_001 }, (_, i) => ({
        organization_id: tenant.organizationId,
        code: `cap${tenant.organizationId}n${i}`,
        external_client_id: `cap-${i}`,
        name: `Capped ${i}`,
        name_search: `capped ${i}`,
        email: `c${i}@example.com`,
        phones: '[]',
        active: true,
        created_at: at,
        updated_at: at,
      }));
      await api().infra.db!.batchInsert('contacts', rows, 500);
      // ...and the organization's contact tally, as the repository's insert keeps it.
      await api().infra.db!('contact_tallies').insert({ organization_id: tenant.organizationId, shard: 0, live: rows.length });
      // Unfiltered, the total is the tally's; filtered, a count that stops after 10,001 matches.
      const all = await list(tenant, { limit: 2 });
      expect(all.body.meta).to.deep.equal({ page: 1, limit: 2, total: 10_000, hasMore: true, capped: true });
      expect(all.body.data.map((c: { externalClientId: string }) => c.externalClientId)).to.deep.equal(['cap-10000', 'cap-9999']);
      const broad = await list(tenant, { name: 'capped', limit: 2 });
      expect(broad.body.meta).to.deep.equal({ page: 1, limit: 2, total: 10_000, hasMore: true, capped: true });
      const narrow = await list(tenant, { name: 'capped 1000' });
      expect(narrow.body.meta).to.deep.equal({ page: 1, limit: 50, total: 2, hasMore: false, capped: false });
    });

    it("does not list another organization's contacts", async () => {
      const owner = await api().newTenant();
      const other = await api().newTenant();
      await create(owner);
      const mine = await create(other, { externalClientId: 'mine' });
      const res = await list(other);
      expect(idsOf(res)).to.deep.equal([mine.contactId]);
      expect(res.body.meta.total).to.equal(1);
    });

    describe('filters', () => {
      async function seed(tenant: Tenant) {
        const jose = await create(tenant, {
          externalClientId: 'ext-jose',
          name: 'José Álvarez',
          email: 'Jose.Alvarez@Example.com',
          phones: [
            { number: '+52 (55) 1234-5678', type: 'MOBILE' },
            { number: '81 2222 3333', type: 'WORK' },
          ],
        });
        const maria = await create(tenant, {
          externalClientId: 'ext-maria',
          name: 'María López',
          email: 'maria@example.com',
          phones: [{ number: '5599998888', type: 'MAIN' }],
        });
        const joseph = await create(tenant, {
          externalClientId: 'ext-jose-2',
          name: 'Joseph Smith',
          email: 'joseph@example.com',
        });
        return { jose, maria, joseph };
      }

      it('name: partial, case-insensitive', async () => {
        const tenant = await api().newTenant();
        const { jose, joseph } = await seed(tenant);
        expect(idsOf(await list(tenant, { name: 'JOS' }))).to.deep.equal([joseph.contactId, jose.contactId]);
        expect(idsOf(await list(tenant, { name: 'smi' }))).to.deep.equal([joseph.contactId]);
        expect((await list(tenant, { name: 'nobody' })).body.data).to.deep.equal([]);
      });

      it('name: accent-insensitive both ways', async () => {
        const tenant = await api().newTenant();
        const { jose, maria } = await seed(tenant);
        expect(idsOf(await list(tenant, { name: 'alvarez' }))).to.deep.equal([jose.contactId]);
        expect(idsOf(await list(tenant, { name: 'JOSÉ Á' }))).to.deep.equal([jose.contactId]);
        expect(idsOf(await list(tenant, { name: 'lópez' }))).to.deep.equal([maria.contactId]);
        expect(idsOf(await list(tenant, { name: 'Lopez' }))).to.deep.equal([maria.contactId]);
      });

      it('name: LIKE wildcards are taken literally', async () => {
        const tenant = await api().newTenant();
        await seed(tenant);
        const percent = await create(tenant, { externalClientId: 'pct', name: '100% Real_Name' });
        expect(idsOf(await list(tenant, { name: '%' }))).to.deep.equal([percent.contactId]);
        expect(idsOf(await list(tenant, { name: '_' }))).to.deep.equal([percent.contactId]);
        expect(idsOf(await list(tenant, { name: '0% r' }))).to.deep.equal([percent.contactId]);
      });

      it('email: exact and case-insensitive', async () => {
        const tenant = await api().newTenant();
        const { jose } = await seed(tenant);
        expect(idsOf(await list(tenant, { email: 'jose.alvarez@example.com' }))).to.deep.equal([jose.contactId]);
        expect(idsOf(await list(tenant, { email: 'JOSE.ALVAREZ@EXAMPLE.COM' }))).to.deep.equal([jose.contactId]);
        expect((await list(tenant, { email: 'jose.alvarez@example' })).body.data).to.deep.equal([]);
        expect((await list(tenant, { email: 'example.com' })).body.data).to.deep.equal([]);
      });

      it('phone: compared by digits, on any of the phones', async () => {
        const tenant = await api().newTenant();
        const { jose, maria } = await seed(tenant);
        expect(idsOf(await list(tenant, { phone: '+52-55-1234-5678' }))).to.deep.equal([jose.contactId]);
        expect(idsOf(await list(tenant, { phone: '525512345678' }))).to.deep.equal([jose.contactId]);
        expect(idsOf(await list(tenant, { phone: '(81) 2222-3333' }))).to.deep.equal([jose.contactId]);
        expect(idsOf(await list(tenant, { phone: '55 9999 8888' }))).to.deep.equal([maria.contactId]);
        expect((await list(tenant, { phone: '5500000000' })).body.data).to.deep.equal([]);
      });

      it('phone: a local number finds the number stored with its country code (suffix of digits)', async () => {
        const tenant = await api().newTenant();
        const { jose } = await seed(tenant);
        expect(idsOf(await list(tenant, { phone: '55 1234 5678' }))).to.deep.equal([jose.contactId]);
        expect(idsOf(await list(tenant, { phone: '1234-5678' }))).to.deep.equal([jose.contactId]);
        // Not a prefix or an infix: the query's digits must end the stored number.
        expect((await list(tenant, { phone: '52551234' })).body.data).to.deep.equal([]);
      });

      it('phone: a value without digits is 400 with details[].field phone', async () => {
        const tenant = await api().newTenant();
        expectInvalid(await list(tenant, { phone: 'call me' }), 'phone');
      });

      it('externalClientId is trimmed on create, and filters trim it too', async () => {
        const tenant = await api().newTenant();
        const created = await api().http.post('/contacts').set(tenant.headers).send({ externalClientId: '  ext-trim  ', name: 'Trim', email: 'trim@example.com' });
        expect(created.status).to.equal(201);
        expect(created.body.data.externalClientId).to.equal('ext-trim');
        const again = await api().http.post('/contacts').set(tenant.headers).send({ externalClientId: 'ext-trim ', name: 'Trim', email: 'trim@example.com' });
        expect(again.status).to.equal(409);
        expect(again.body.error.code).to.equal('RESOURCE_CONFLICT');
        expect(idsOf(await list(tenant, { externalClientId: ' ext-trim' }))).to.deep.equal([created.body.data.contactId]);
      });

      it('identifier: matches the externalClientId', async () => {
        const tenant = await api().newTenant();
        const { maria } = await seed(tenant);
        expect(idsOf(await list(tenant, { identifier: 'ext-maria' }))).to.deep.equal([maria.contactId]);
        expect((await list(tenant, { identifier: 'ext-nobody' })).body.data).to.deep.equal([]);
      });

      it('externalClientId: exact', async () => {
        const tenant = await api().newTenant();
        const { jose } = await seed(tenant);
        expect(idsOf(await list(tenant, { externalClientId: 'ext-jose' }))).to.deep.equal([jose.contactId]);
        expect((await list(tenant, { externalClientId: 'ext-jo' })).body.data).to.deep.equal([]);
        expect((await list(tenant, { externalClientId: 'EXT-JOSE' })).body.data).to.deep.equal([]);
      });

      it('contactCode: with or without the con_ prefix', async () => {
        const tenant = await api().newTenant();
        const { maria } = await seed(tenant);
        expect(idsOf(await list(tenant, { contactCode: maria.contactId }))).to.deep.equal([maria.contactId]);
        expect(idsOf(await list(tenant, { contactCode: maria.contactId.slice(4) }))).to.deep.equal([maria.contactId]);
        const none = await list(tenant, { contactCode: 'con_unknown' });
        expect(none.status).to.equal(200);
        expect(none.body.data).to.deep.equal([]);
      });

      it('combines filters (all must match)', async () => {
        const tenant = await api().newTenant();
        const { jose, joseph } = await seed(tenant);
        expect(idsOf(await list(tenant, { name: 'jos', email: 'joseph@example.com' }))).to.deep.equal([joseph.contactId]);
        expect(idsOf(await list(tenant, { name: 'jos', phone: '8122223333' }))).to.deep.equal([jose.contactId]);
        expect(
          idsOf(await list(tenant, { externalClientId: 'ext-jose', identifier: 'ext-jose', contactCode: jose.contactId, name: 'álv' })),
        ).to.deep.equal([jose.contactId]);
        const none = await list(tenant, { name: 'maría', email: 'joseph@example.com' });
        expect(none.body.data).to.deep.equal([]);
        expect(none.body.meta).to.deep.equal({ page: 1, limit: 50, total: 0, hasMore: false, capped: false });
      });

      it('counts filtered matches in meta.total', async () => {
        const tenant = await api().newTenant();
        await seed(tenant);
        const res = await list(tenant, { name: 'jos', limit: 1 });
        expect(res.body.meta).to.deep.equal({ page: 1, limit: 1, total: 2, hasMore: true, capped: false });
      });

      it('identifier different from externalClientId → 400 field identifier', async () => {
        const tenant = await api().newTenant();
        await seed(tenant);
        expectInvalid(await list(tenant, { identifier: 'ext-jose', externalClientId: 'ext-maria' }), 'identifier');
      });

      it('identifier equal to externalClientId is accepted', async () => {
        const tenant = await api().newTenant();
        const { maria } = await seed(tenant);
        const res = await list(tenant, { identifier: 'ext-maria', externalClientId: 'ext-maria' });
        expect(res.status).to.equal(200);
        expect(idsOf(res)).to.deep.equal([maria.contactId]);
      });
    });
  });

  describe('PATCH /contacts/{id}', () => {
    it('updates the name and keeps the other fields', async () => {
      const tenant = await api().newTenant();
      const created = await create(tenant, { phones: [{ number: '5512345678', type: 'MAIN' }] });
      const res = await patch(tenant, created.contactId, { name: 'Ana María' });
      expect(res.status).to.equal(200);
      expect(res.body.requestId).to.match(REQUEST_ID);
      expect(res.body.data).to.deep.equal({ ...created, name: 'Ana María', updatedAt: res.body.data.updatedAt });
      const got = await http().get(`/contacts/${created.contactId}`).set(tenant.headers);
      expect(got.body.data).to.deep.equal(res.body.data);
    });

    it('updates the email', async () => {
      const tenant = await api().newTenant();
      const created = await create(tenant);
      const res = await patch(tenant, created.contactId, { email: 'new@example.com' });
      expect(res.status).to.equal(200);
      expect(res.body.data.email).to.equal('new@example.com');
      expect(res.body.data.name).to.equal(created.name);
      expect(idsOf(await list(tenant, { email: 'NEW@example.com' }))).to.deep.equal([created.contactId]);
    });

    it('updates through the bare code too', async () => {
      const tenant = await api().newTenant();
      const created = await create(tenant);
      const res = await patch(tenant, created.contactId.slice(4), { name: 'Bare' });
      expect(res.status).to.equal(200);
      expect(res.body.data).to.include({ contactId: created.contactId, name: 'Bare' });
    });

    it('makes the new name searchable and the old one not', async () => {
      const tenant = await api().newTenant();
      const created = await create(tenant, { name: 'Ana Pérez' });
      await patch(tenant, created.contactId, { name: 'Óscar Núñez' });
      expect(idsOf(await list(tenant, { name: 'nunez' }))).to.deep.equal([created.contactId]);
      expect((await list(tenant, { name: 'perez' })).body.data).to.deep.equal([]);
    });

    it('replaces the whole phone list and re-indexes the phone filter', async () => {
      const tenant = await api().newTenant();
      const created = await create(tenant, {
        phones: [
          { number: '5511111111', type: 'MAIN', primary: true },
          { number: '5522222222', type: 'WORK', description: 'Office' },
        ],
      });
      const res = await patch(tenant, created.contactId, { phones: [{ number: '55 3333 3333', type: 'OTHER' }] });
      expect(res.status).to.equal(200);
      expect(res.body.data.phones).to.deep.equal([{ number: '55 3333 3333', type: 'OTHER', primary: false, description: 'OTHER' }]);
      expect(res.body.data.email).to.equal(created.email);
      expect((await list(tenant, { phone: '5511111111' })).body.data).to.deep.equal([]);
      expect((await list(tenant, { phone: '5522222222' })).body.data).to.deep.equal([]);
      expect(idsOf(await list(tenant, { phone: '5533333333' }))).to.deep.equal([created.contactId]);
    });

    it('keeps the phones when they are omitted', async () => {
      const tenant = await api().newTenant();
      const created = await create(tenant, { phones: [{ number: '5511111111', type: 'MAIN' }] });
      const res = await patch(tenant, created.contactId, { name: 'Still has phone' });
      expect(res.body.data.phones).to.deep.equal(created.phones);
      expect(idsOf(await list(tenant, { phone: '5511111111' }))).to.deep.equal([created.contactId]);
    });

    it('moves updatedAt to the current instant and leaves createdAt', async () => {
      const tenant = await api().newTenant();
      await freezeClock(tenant, '2031-05-01T10:00:00.000Z');
      const created = await create(tenant);
      await freezeClock(tenant, '2031-05-02T11:30:15.250Z');
      const res = await patch(tenant, created.contactId, { name: 'Later' });
      expect(res.status).to.equal(200);
      expect(res.body.data.createdAt).to.equal('2031-05-01T10:00:00.000Z');
      expect(res.body.data.updatedAt).to.equal('2031-05-02T11:30:15.250Z');
      const got = await http().get(`/contacts/${created.contactId}`).set(tenant.headers);
      expect(got.body.data).to.include({ createdAt: '2031-05-01T10:00:00.000Z', updatedAt: '2031-05-02T11:30:15.250Z' });
    });

    it('rejects an empty body with 400', async () => {
      const tenant = await api().newTenant();
      const created = await create(tenant);
      expectInvalid(await patch(tenant, created.contactId, {}), 'body');
    });

    it('rejects a body holding only companyCode (context, not a change)', async () => {
      const tenant = await api().newTenant();
      const created = await create(tenant);
      expectInvalid(await patch(tenant, created.contactId, { companyCode: tenant.companyCodes[0] }), 'body');
    });

    it('rejects externalClientId with 400 field externalClientId and changes nothing', async () => {
      const tenant = await api().newTenant();
      const created = await create(tenant);
      expectInvalid(await patch(tenant, created.contactId, { name: 'X', externalClientId: 'changed' }), 'externalClientId');
      const got = await http().get(`/contacts/${created.contactId}`).set(tenant.headers);
      expect(got.body.data).to.deep.equal(created);
    });

    it('rejects any other field with 400 naming it', async () => {
      const tenant = await api().newTenant();
      const created = await create(tenant);
      for (const field of ['foo', 'active', 'contactId', 'metadata', 'createdAt']) {
        expectInvalid(await patch(tenant, created.contactId, { name: 'X', [field]: 'value' }), field);
      }
      const got = await http().get(`/contacts/${created.contactId}`).set(tenant.headers);
      expect(got.body.data).to.deep.equal(created);
    });

    it('rejects email null with 400 field email', async () => {
      const tenant = await api().newTenant();
      const created = await create(tenant);
      expectInvalid(await patch(tenant, created.contactId, { email: null }), 'email');
    });

    it('rejects an invalid email and a blank name', async () => {
      const tenant = await api().newTenant();
      const created = await create(tenant);
      expectInvalid(await patch(tenant, created.contactId, { email: 'nope' }), 'email');
      expectInvalid(await patch(tenant, created.contactId, { name: '  ' }), 'name');
      expectInvalid(await patch(tenant, created.contactId, { name: null }), 'name');
    });

    it('rejects phones [] with 400 field phones', async () => {
      const tenant = await api().newTenant();
      const created = await create(tenant, { phones: [{ number: '5511111111', type: 'MAIN' }] });
      expectInvalid(await patch(tenant, created.contactId, { phones: [] }), 'phones');
      const got = await http().get(`/contacts/${created.contactId}`).set(tenant.headers);
      expect(got.body.data.phones).to.deep.equal(created.phones);
    });

    it('validates phones like POST (type enum, strict primary, one primary)', async () => {
      const tenant = await api().newTenant();
      const created = await create(tenant);
      expectInvalid(await patch(tenant, created.contactId, { phones: [{ number: '1', type: 'FAX' }] }), 'phones[0].type');
      expectInvalid(
        await patch(tenant, created.contactId, { phones: [{ number: '1', type: 'MAIN', primary: 'true' }] }),
        'phones[0].primary',
      );
      expectInvalid(
        await patch(tenant, created.contactId, {
          phones: [
            { number: '1', type: 'MAIN', primary: true },
            { number: '2', type: 'MAIN', primary: true },
          ],
        }),
        'phones',
      );
    });

    it('accepts companyCode in the body as context', async () => {
      const tenant = await api().newTenant();
      const created = await create(tenant);
      const res = await patch(tenant, created.contactId, { name: 'With context', companyCode: tenant.companyCodes[0] });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data.name).to.equal('With context');
      expect(res.body.data).to.not.have.property('companyCode');
    });

    it('answers 404 for an unknown id', async () => {
      const tenant = await api().newTenant();
      expectNotFound(await patch(tenant, 'con_unknown00000000000', { name: 'X' }));
      expectNotFound(await patch(tenant, 'not-a-code', { name: 'X' }));
    });

    it("answers 404 for another organization's contact and leaves it unchanged", async () => {
      const owner = await api().newTenant();
      const other = await api().newTenant();
      const created = await create(owner);
      expectNotFound(await patch(other, created.contactId, { name: 'Hijacked' }));
      const got = await http().get(`/contacts/${created.contactId}`).set(owner.headers);
      expect(got.body.data.name).to.equal(created.name);
    });
  });

  describe('multi-company client', () => {
    it('must send companyCode: missing → 400 field companyCode on every contact route', async () => {
      const tenant = await api().newTenant({ companies: ['A', 'B'] });
      expectInvalid(await http().post('/contacts').set(tenant.headers).send(contactBody()), 'companyCode');
      expectInvalid(await list(tenant), 'companyCode');
      const created = await create(tenant, { companyCode: tenant.companyCodes[0] });
      expectInvalid(await http().get(`/contacts/${created.contactId}`).set(tenant.headers), 'companyCode');
      expectInvalid(await patch(tenant, created.contactId, { name: 'X' }), 'companyCode');
    });

    it("rejects an unknown or another organization's companyCode with 400 field companyCode", async () => {
      const tenant = await api().newTenant({ companies: ['A', 'B'] });
      const stranger = await api().newTenant({ companies: ['C'] });
      for (const companyCode of ['NOPE-123', stranger.companyCodes[0]!]) {
        expectInvalid(await http().post('/contacts').set(tenant.headers).send(contactBody({ companyCode })), 'companyCode');
      }
    });

    it("shares contacts across the organization's companies", async () => {
      const tenant = await api().newTenant({ companies: ['A', 'B'] });
      const [a, b] = tenant.companyCodes as [string, string];
      const created = await create(tenant, { companyCode: a });
      expect(created).to.not.have.property('companyCode');

      const got = await http().get(`/contacts/${created.contactId}`).query({ companyCode: b }).set(tenant.headers);
      expect(got.status).to.equal(200);
      expect(got.body.data).to.deep.equal(created);

      expect(idsOf(await list(tenant, { companyCode: b }))).to.deep.equal([created.contactId]);

      const duplicate = await http().post('/contacts').set(tenant.headers).send(contactBody({ companyCode: b }));
      expect(duplicate.status).to.equal(409);
      expect(duplicate.body.error.code).to.equal('RESOURCE_CONFLICT');

      const patched = await patch(tenant, created.contactId, { name: 'Via B', companyCode: b });
      expect(patched.status).to.equal(200);
      const viaA = await http().get(`/contacts/${created.contactId}`).query({ companyCode: a }).set(tenant.headers);
      expect(viaA.body.data.name).to.equal('Via B');
    });
  });
});
