import crypto from 'node:crypto';
import { expect } from 'chai';
import fc from 'fast-check';
import { FixedClock } from '../../../adapters/clock/fixed-clock';
import { memoryInfrastructure } from '../../../cmd/shared/infrastructure';
import { type Application, buildApplication } from '../../../internal/application';
import {
  contactCodeFromId,
  contactIdOf,
  foldForSearch,
  normalizePhones,
  type PhoneInput,
  phoneDigits,
} from '../../../internal/contacts/contact';
import { ConflictError, DomainError, InvalidRequestError, NotFoundError } from '../../../internal/shared/errors';
import type { TenantScope } from '../../../internal/shared/tenant-scope';

const T0 = new Date('2030-03-01T12:00:00.000Z');

/** A rejected promise's error, or a failure when it resolved. */
async function rejectionOf(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error('expected the promise to reject');
}

function expectFieldError(error: DomainError, field: string): void {
  expect(error).to.be.instanceOf(InvalidRequestError);
  expect(error.code).to.equal('INVALID_REQUEST');
  expect((error as InvalidRequestError).details.map((d) => d.field)).to.include(field);
}

interface World {
  app: Application;
  clock: FixedClock;
  /** A fresh organization with one company, as a TenantScope built from the repositories. */
  newScope(): Promise<TenantScope>;
}

/** Everything in memory, time held still at T0. */
function world(): World {
  const clock = new FixedClock(T0);
  const infra = memoryInfrastructure({ clock });
  const app = buildApplication(infra.ports);
  return {
    app,
    clock,
    async newScope() {
      const suffix = crypto.randomBytes(4).toString('hex');
      const created = await app.commands.createClient.execute({
        organization: `Org ${suffix}`,
        username: `user_${suffix}`,
        password: `pw-${suffix}-secret`,
        companies: [],
        settings: {},
      });
      const { tenancy, credentials } = infra.ports.repos;
      const organization = await tenancy.findOrganization(created.organizationId);
      const company = await tenancy.findCompanyByCode(created.companies[0]!.companyCode);
      const user = await credentials.findClientUserByUsername(created.clientUsername);
      return {
        organizationId: organization!.id,
        organizationName: organization!.name,
        clientUserId: user!.id,
        company: company!,
        clock,
        requestId: null,
      };
    },
  };
}

const ana = { externalClientId: 'ext-ana', name: 'Ana Pérez', email: 'ana@example.com' };

describe('contact domain functions', () => {
  describe('normalizePhones', () => {
    it('defaults primary to false and description to the type', () => {
      expect(normalizePhones([{ number: '5512345678', type: 'MOBILE' }])).to.deep.equal([
        { number: '5512345678', type: 'MOBILE', primary: false, description: 'MOBILE' },
      ]);
    });

    it('keeps a sent primary and description, and trims the number', () => {
      expect(normalizePhones([{ number: '  +52 55 1234  ', type: 'WORK', primary: true, description: 'Office' }])).to.deep.equal([
        { number: '+52 55 1234', type: 'WORK', primary: true, description: 'Office' },
      ]);
    });

    it('keeps an empty description as sent (only a missing one defaults)', () => {
      expect(normalizePhones([{ number: '1', type: 'OTHER', description: '' }])[0]!.description).to.equal('');
    });

    it('keeps the order of the list', () => {
      const phones: PhoneInput[] = [
        { number: '1', type: 'MAIN' },
        { number: '2', type: 'RELATIVE', primary: true },
        { number: '3', type: 'OTHER', primary: false },
      ];
      expect(normalizePhones(phones).map((p) => [p.number, p.primary])).to.deep.equal([
        ['1', false],
        ['2', true],
        ['3', false],
      ]);
    });

    it('accepts an empty list', () => {
      expect(normalizePhones([])).to.deep.equal([]);
    });

    it('rejects more than one primary, naming the field (phones by default)', () => {
      const phones: PhoneInput[] = [
        { number: '1', type: 'MAIN', primary: true },
        { number: '2', type: 'MAIN', primary: true },
      ];
      expect(() => normalizePhones(phones)).to.throw(InvalidRequestError).with.property('details').deep.equal([
        { field: 'phones', issue: 'at most one phone can be primary' },
      ]);
      try {
        normalizePhones(phones, 'contactData.phones');
        expect.fail('should throw');
      } catch (error) {
        expectFieldError(error as DomainError, 'contactData.phones');
      }
    });
  });

  describe('contactCodeFromId and contactIdOf', () => {
    it('strips the con_ prefix, or takes the bare code', () => {
      expect(contactCodeFromId('con_Ab12')).to.equal('Ab12');
      expect(contactCodeFromId('Ab12')).to.equal('Ab12');
    });

    it('round-trips with contactIdOf', () => {
      expect(contactIdOf({ code: 'XyZ789' })).to.equal('con_XyZ789');
      expect(contactCodeFromId(contactIdOf({ code: 'XyZ789' }))).to.equal('XyZ789');
    });

    it('returns null for anything that is not an alphanumeric code', () => {
      for (const id of ['', 'con_', 'con_a-b', 'con_a b', 'prd_1', 'con_con_x', 'ñandu', 'x'.repeat(65), '../etc']) {
        expect(contactCodeFromId(id), id).to.equal(null);
      }
      expect(contactCodeFromId('x'.repeat(64))).to.equal('x'.repeat(64));
    });

    it('strips the prefix only once and is case-sensitive about it', () => {
      expect(contactCodeFromId('CON_abc')).to.equal(null);
      expect(contactCodeFromId('conabc')).to.equal('conabc');
    });
  });

  describe('phoneDigits', () => {
    it('keeps only the digits', () => {
      expect(phoneDigits('+52 (55) 1234-5678')).to.equal('525512345678');
      expect(phoneDigits('55.1234.5678 ext 9')).to.equal('5512345678' + '9');
      expect(phoneDigits('no digits')).to.equal('');
    });

    it('gives the same digits for differently formatted numbers', () => {
      expect(phoneDigits('+52-55-1234')).to.equal(phoneDigits('+52 55 1234'));
    });

    it('is idempotent and yields only ASCII digits (property)', () => {
      fc.assert(
        fc.property(fc.string(), (s) => {
          const d = phoneDigits(s);
          return /^[0-9]*$/.test(d) && phoneDigits(d) === d;
        }),
      );
    });
  });

  describe('foldForSearch', () => {
    it('lower-cases and removes accents', () => {
      expect(foldForSearch('José ÁLVAREZ')).to.equal('jose alvarez');
      expect(foldForSearch('Ñandú Müller')).to.equal('nandu muller');
      expect(foldForSearch('plain')).to.equal('plain');
    });

    it('folds precomposed and decomposed forms alike', () => {
      expect(foldForSearch('e\u0301')).to.equal(foldForSearch('\u00e9'));
    });

    it('is idempotent (property)', () => {
      fc.assert(fc.property(fc.string(), (s) => foldForSearch(foldForSearch(s)) === foldForSearch(s)));
    });

    it('keeps a folded substring a substring (what the partial name filter relies on)', () => {
      expect(foldForSearch('María José López').includes(foldForSearch('JOSÉ L'))).to.equal(true);
    });
  });
});

describe('contact use cases (memory infrastructure)', () => {
  describe('CreateContact', () => {
    it('stores the contact with a con_ code, trimmed name, normalized phones and the scope clock', async () => {
      const { app, newScope } = world();
      const scope = await newScope();
      const contact = await app.commands.createContact.execute(
        { ...ana, name: '  Ana Pérez  ', phones: [{ number: '5512345678', type: 'MAIN' }] },
        scope,
      );
      expect(contactIdOf(contact)).to.match(/^con_[A-Za-z0-9]{20}$/);
      expect(contact).to.include({ organizationId: scope.organizationId, externalClientId: 'ext-ana', name: 'Ana Pérez', active: true });
      expect(contact.phones).to.deep.equal([{ number: '5512345678', type: 'MAIN', primary: false, description: 'MAIN' }]);
      expect(contact.createdAt.toISOString()).to.equal(T0.toISOString());
      expect(contact.updatedAt.toISOString()).to.equal(T0.toISOString());
    });

    it('gives every contact a distinct code', async () => {
      const { app, newScope } = world();
      const scope = await newScope();
      const a = await app.commands.createContact.execute(ana, scope);
      const b = await app.commands.createContact.execute({ ...ana, externalClientId: 'ext-b' }, scope);
      expect(a.code).to.not.equal(b.code);
    });

    it('throws ConflictError (RESOURCE_CONFLICT) for an externalClientId the organization has', async () => {
      const { app, newScope } = world();
      const scope = await newScope();
      await app.commands.createContact.execute(ana, scope);
      const error = await rejectionOf(app.commands.createContact.execute({ ...ana, name: 'Other' }, scope));
      expect(error).to.be.instanceOf(ConflictError);
      expect(error.code).to.equal('RESOURCE_CONFLICT');
      expect(error.message).to.contain('ext-ana');
      const page = await app.queries.listContacts.execute({}, { page: 1, limit: 50 }, scope);
      expect(page.total).to.equal(1);
    });

    it('allows the same externalClientId in another organization', async () => {
      const { app, newScope } = world();
      const first = await newScope();
      const second = await newScope();
      const a = await app.commands.createContact.execute(ana, first);
      const b = await app.commands.createContact.execute(ana, second);
      expect(b.organizationId).to.not.equal(a.organizationId);
    });

    it('rejects two primary phones with field phones and stores nothing', async () => {
      const { app, newScope } = world();
      const scope = await newScope();
      const phones: PhoneInput[] = [
        { number: '1', type: 'MAIN', primary: true },
        { number: '2', type: 'WORK', primary: true },
      ];
      expectFieldError(await rejectionOf(app.commands.createContact.execute({ ...ana, phones }, scope)), 'phones');
      expect((await app.queries.listContacts.execute({}, { page: 1, limit: 50 }, scope)).total).to.equal(0);
    });

    it('works with a scope resolved by AuthenticateRequest', async () => {
      const { app, clock } = world();
      const password = 'a-long-password';
      const created = await app.commands.createClient.execute({
        organization: 'Org via auth',
        username: 'auth_user',
        password,
        companies: [],
        settings: {},
      });
      const session = await app.commands.login.execute({ loginApiKey: created.loginApiKey, clientUsername: 'auth_user', password });
      const scope = await app.commands.authenticateRequest.execute({
        apiKey: created.apiKey,
        accessToken: session.accessToken,
        companyCode: undefined,
        requestId: 'req_unit',
      });
      expect(scope.organizationId).to.equal(created.organizationId);
      const contact = await app.commands.createContact.execute(ana, scope);
      expect(contact.createdAt.getTime()).to.equal(clock.now().getTime());
      expect((await app.queries.getContact.execute(contactIdOf(contact), scope)).id).to.equal(contact.id);
    });
  });

  describe('GetContact', () => {
    it('finds a contact by id with or without the prefix', async () => {
      const { app, newScope } = world();
      const scope = await newScope();
      const contact = await app.commands.createContact.execute(ana, scope);
      expect((await app.queries.getContact.execute(contactIdOf(contact), scope)).id).to.equal(contact.id);
      expect((await app.queries.getContact.execute(contact.code, scope)).id).to.equal(contact.id);
    });

    it('throws NotFoundError for an unknown, malformed or foreign id', async () => {
      const { app, newScope } = world();
      const owner = await newScope();
      const other = await newScope();
      const contact = await app.commands.createContact.execute(ana, owner);
      for (const [id, scope] of [
        ['con_unknown', owner],
        ['con_a-b', owner],
        [contactIdOf(contact), other],
      ] as const) {
        const error = await rejectionOf(app.queries.getContact.execute(id, scope));
        expect(error, id).to.be.instanceOf(NotFoundError);
        expect(error.code).to.equal('RESOURCE_NOT_FOUND');
      }
    });
  });

  describe('UpdateContact', () => {
    it('throws NotFoundError for an unknown id and for another organization', async () => {
      const { app, newScope } = world();
      const owner = await newScope();
      const other = await newScope();
      const contact = await app.commands.createContact.execute(ana, owner);
      for (const [id, scope] of [
        ['con_unknown', owner],
        ['not-a-code!', owner],
        [contactIdOf(contact), other],
      ] as const) {
        const error = await rejectionOf(app.commands.updateContact.execute(id, { name: 'X' }, scope));
        expect(error, id).to.be.instanceOf(NotFoundError);
      }
      expect((await app.queries.getContact.execute(contact.code, owner)).name).to.equal('Ana Pérez');
    });

    it('changes only the given fields, trims the name, moves updatedAt and keeps createdAt', async () => {
      const { app, clock, newScope } = world();
      const scope = await newScope();
      const contact = await app.commands.createContact.execute({ ...ana, phones: [{ number: '1', type: 'MAIN' }] }, scope);
      clock.advance(60_000);
      const updated = await app.commands.updateContact.execute(contact.code, { name: '  Ana María ' }, scope);
      expect(updated).to.include({ name: 'Ana María', email: 'ana@example.com', externalClientId: 'ext-ana' });
      expect(updated.phones).to.deep.equal(contact.phones);
      expect(updated.createdAt.getTime()).to.equal(T0.getTime());
      expect(updated.updatedAt.getTime()).to.equal(T0.getTime() + 60_000);
    });

    it('replaces the whole phone list, normalized', async () => {
      const { app, newScope } = world();
      const scope = await newScope();
      const contact = await app.commands.createContact.execute(
        {
          ...ana,
          phones: [
            { number: '1', type: 'MAIN', primary: true },
            { number: '2', type: 'WORK' },
          ],
        },
        scope,
      );
      const updated = await app.commands.updateContact.execute(contactIdOf(contact), { phones: [{ number: ' 3 ', type: 'OTHER' }] }, scope);
      expect(updated.phones).to.deep.equal([{ number: '3', type: 'OTHER', primary: false, description: 'OTHER' }]);
      const byOldPhone = await app.queries.listContacts.execute({ phone: '1' }, { page: 1, limit: 50 }, scope);
      expect(byOldPhone.items).to.deep.equal([]);
    });

    it('rejects two primary phones with field phones and keeps the old list', async () => {
      const { app, newScope } = world();
      const scope = await newScope();
      const contact = await app.commands.createContact.execute({ ...ana, phones: [{ number: '1', type: 'MAIN' }] }, scope);
      const phones: PhoneInput[] = [
        { number: '2', type: 'MAIN', primary: true },
        { number: '3', type: 'MAIN', primary: true },
      ];
      expectFieldError(await rejectionOf(app.commands.updateContact.execute(contact.code, { phones }, scope)), 'phones');
      expect((await app.queries.getContact.execute(contact.code, scope)).phones).to.deep.equal(contact.phones);
    });
  });

  describe('ListContacts', () => {
    async function seeded() {
      const w = world();
      const scope = await w.newScope();
      const create = w.app.commands.createContact;
      const jose = await create.execute(
        { externalClientId: 'ext-jose', name: 'José Álvarez', email: 'Jose@Example.com', phones: [{ number: '+52 55 1234', type: 'MAIN' }] },
        scope,
      );
      const maria = await create.execute({ externalClientId: 'ext-maria', name: 'María López', email: 'maria@example.com' }, scope);
      const list = (input: Parameters<typeof w.app.queries.listContacts.execute>[0], page = { page: 1, limit: 50 }) =>
        w.app.queries.listContacts.execute(input, page, scope);
      return { ...w, scope, jose, maria, list };
    }

    it('throws InvalidRequestError with field identifier when identifier and externalClientId differ', async () => {
      const { list } = await seeded();
      const error = await rejectionOf(list({ identifier: 'ext-jose', externalClientId: 'ext-maria' }));
      expectFieldError(error, 'identifier');
    });

    it('accepts identifier equal to externalClientId, and identifier alone', async () => {
      const { list, maria } = await seeded();
      expect((await list({ identifier: 'ext-maria', externalClientId: 'ext-maria' })).items.map((c) => c.id)).to.deep.equal([maria.id]);
      expect((await list({ identifier: 'ext-maria' })).items.map((c) => c.id)).to.deep.equal([maria.id]);
    });

    it('lists newest first with total and capped false', async () => {
      const { list, jose, maria } = await seeded();
      const page = await list({});
      expect(page.items.map((c) => c.id)).to.deep.equal([maria.id, jose.id]);
      expect(page.total).to.equal(2);
      expect(page.capped).to.equal(false);
    });

    it('pages by offset', async () => {
      const { list, jose } = await seeded();
      const second = await list({}, { page: 2, limit: 1 });
      expect(second.items.map((c) => c.id)).to.deep.equal([jose.id]);
      expect(second.total).to.equal(2);
    });

    it('filters by folded name, exact email ignoring case, phone digits and contact code', async () => {
      const { list, jose, maria } = await seeded();
      expect((await list({ name: 'ALVAREZ' })).items.map((c) => c.id)).to.deep.equal([jose.id]);
      expect((await list({ email: 'jose@example.COM' })).items.map((c) => c.id)).to.deep.equal([jose.id]);
      expect((await list({ phone: '52-55-1234' })).items.map((c) => c.id)).to.deep.equal([jose.id]);
      expect((await list({ contactCode: contactIdOf(maria) })).items.map((c) => c.id)).to.deep.equal([maria.id]);
      expect((await list({ contactCode: maria.code })).items.map((c) => c.id)).to.deep.equal([maria.id]);
    });

    it('rejects a phone without digits (field phone) and finds nothing for a malformed contact code', async () => {
      const { list } = await seeded();
      let error: unknown;
      await list({ phone: 'abc' }).catch((e) => (error = e));
      expect(error).to.be.instanceOf(InvalidRequestError).with.property('details').deep.equal([{ field: 'phone', issue: 'must contain digits' }]);
      expect(await list({ contactCode: 'con_a-b' })).to.deep.equal({ items: [], total: 0, capped: false });
    });

    it("never returns another organization's contacts", async () => {
      const { app, newScope } = await seeded();
      const stranger = await newScope();
      const page = await app.queries.listContacts.execute({ externalClientId: 'ext-jose' }, { page: 1, limit: 50 }, stranger);
      expect(page).to.deep.equal({ items: [], total: 0, capped: false });
    });
  });
});
