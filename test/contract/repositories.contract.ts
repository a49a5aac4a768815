/**
 * The repository contract: one suite, run against every persistence adapter (memory, SQLite,
 * MySQL) through the ports only. Entry files: repositories.<adapter>.test.ts. This file is not a
 * spec itself (it does not match test/**\/*.test.ts).
 *
 * Isolation: every test creates its own organization, companies and keys; nothing is truncated.
 */
import { expect } from 'chai';
import {
  apiKey, at, codes, companyInput, type DebtFixture, expectConflict, hash, HOUR, ids, labels, linkViewOf, newContact, newDebt,
  listedOf, newLink, newProduct, newTenant, PAGE, phone, rejectionOf, requestIds, sortById, T1, T2, type TenantFixture, uid, viewOf,
} from './fixtures';
import type { Contact } from '../../internal/contacts/contact';
import type { Debt } from '../../internal/debts/debt';
import type { PaymentLink } from '../../internal/payment-links/payment-link';
import type { Product } from '../../internal/products/product';
import { ConflictError } from '../../internal/shared/errors';
import type { Company } from '../../internal/tenancy/company';
import type { Organization } from '../../internal/tenancy/organization';
import type { ContactFilter, NewContact } from '../../ports/contact-repository';
import type { DebtFilter, DebtView, NewDebt } from '../../ports/debt-repository';
import type { NewPaymentLink, PaymentLinkChanges, PaymentLinkFilter } from '../../ports/payment-link-repository';
import type { NewProduct } from '../../ports/product-repository';
import type { Repositories, UnitOfWork } from '../../ports/unit-of-work';
import { contend, type Contention, expectWaited } from './contention';

import { describeDirectDebitContract } from './direct-debit.contract';
import { describeEventLogContract } from './event-log.contract';
import { describeHostedPagesContract } from './hosted-pages.contract';
import { describeOperationsContract } from './operations.contract';
import { describePaymentInstructionsContract } from './payment-instructions.contract';
import { describeRemindersContract } from './reminders.contract';
import { describeSubscriptionsContract } from './subscriptions.contract';
import { describeWebhooksContract } from './webhooks.contract';

/** What a part of the contract suite gets: the adapter under test, outside and inside transactions. */
export interface ContractContext {
  repos(): Repositories;
  uow(): UnitOfWork;
  /** How two of the adapter's units of work meet (for contend(), the concurrency cases). */
  contention(): Contention;
}

/** Parts of the contract kept in files of their own (one per port area), run in every adapter's suite. */
const CONTRACT_PARTS: ((ctx: ContractContext) => void)[] = [
  describeEventLogContract,
  describeDirectDebitContract,
  describeWebhooksContract,
  describeHostedPagesContract,
  describeOperationsContract,
  describePaymentInstructionsContract,
  describeSubscriptionsContract,
  describeRemindersContract,
];

export interface RepositoryHarness {
  /** Repositories outside any transaction. */
  repos: Repositories;
  uow: UnitOfWork;
  /** Takes a refresh token's family away, as rows written before families existed (migration 20261126100000) are. */
  dropRefreshTokenFamily(tokenHash: string): Promise<void>;
  /** A second unit of work cannot start while another is open (memory, SQLite). */
  singleWriter?: boolean;
  /** How many of the store's transactions wait for a row lock right now, when the database can tell (see contention.ts). */
  lockWaits?(): Promise<number>;
  close(): Promise<void>;
}

/** Opens the adapter over a fresh store; null when its server is absent (the suite skips). */
export type OpenRepositoryHarness = () => Promise<RepositoryHarness | null>;

// ---------------------------------------------------------------------------------------------

export function describeRepositoryContract(adapterName: string, openHarness: OpenRepositoryHarness): void {
  describe(`repository contract [${adapterName}]`, function () {
    this.timeout(20_000);
    let harness: RepositoryHarness | null = null;
    const repos = (): Repositories => harness!.repos;
    const uow = (): UnitOfWork => harness!.uow;
    const contention = (): Contention => ({
      singleWriter: harness!.singleWriter ?? false,
      ...(harness!.lockWaits ? { lockWaits: () => harness!.lockWaits!() } : {}),
    });

    before(async function () {
      harness = await openHarness();
      if (!harness) this.skip();
    });
    after(async () => {
      await harness?.close();
    });

    describe('TenancyRepository: organizations and companies', () => {
      it('round-trips an organization, createdAt to the millisecond in UTC', async () => {
        const name = `Org ${uid()}`;
        const inserted = await repos().tenancy.insertOrganization(name, T1);
        expect(inserted).to.deep.equal({ id: inserted.id, name, frozenNow: null, rateLimit: null, createdAt: T1 });
        expect(inserted.id).to.be.a('number');
        expect(await repos().tenancy.findOrganization(inserted.id)).to.deep.equal(inserted);
        expect(await repos().tenancy.findOrganizationByName(name)).to.deep.equal(inserted);
      });

      it('stores and clears the frozen clock of an organization', async () => {
        const { organization } = await newTenant(repos());
        await repos().tenancy.setFrozenNow(organization.id, T2);
        expect((await repos().tenancy.findOrganization(organization.id))!.frozenNow).to.deep.equal(T2);
        await repos().tenancy.setFrozenNow(organization.id, null);
        expect((await repos().tenancy.findOrganization(organization.id))!.frozenNow).to.equal(null);
      });

      it('returns null for an unknown organization id or name', async () => {
        expect(await repos().tenancy.findOrganization(2_000_000_000)).to.equal(null);
        expect(await repos().tenancy.findOrganizationByName(`Nobody ${uid()}`)).to.equal(null);
      });

      it('rejects a duplicate organization name with ConflictError', async () => {
        const name = `Org ${uid()}`;
        await repos().tenancy.insertOrganization(name, T1);
        await expectConflict(repos().tenancy.insertOrganization(name, T2));
      });

      it('counts organizations', async () => {
        const before = await repos().tenancy.countOrganizations();
        await repos().tenancy.insertOrganization(`Org ${uid()}`, T1);
        expect(await repos().tenancy.countOrganizations()).to.equal(before + 1);
      });

      it('round-trips a company with its settings (booleans, currency, portal URL)', async () => {
        const { organization } = await newTenant(repos());
        const code = `RT-${uid()}`.toUpperCase();
        const input = companyInput(organization.id, code, {
          name: 'Compañía Ñandú',
          defaultCurrency: 'MXN',
          directDebitEnabled: true,
          directDebitModality: false,
          privateLinks: true,
          portalUrl: 'https://portal.example.com/pay?x=1',
        });
        const inserted = await repos().tenancy.insertCompany(input);
        expect(inserted).to.deep.equal({ ...input, id: inserted.id });
        expect(await repos().tenancy.findCompanyByCode(code)).to.deep.equal(inserted);
      });

      it('updates only the company settings it is given', async () => {
        const { company } = await newTenant(repos());
        const updated = await repos().tenancy.updateCompanySettings(company.id, { privateLinks: true, defaultCurrency: 'USD' });
        expect(updated).to.deep.equal({ ...company, privateLinks: true, defaultCurrency: 'USD' });
        expect(await repos().tenancy.findCompanyByCode(company.code)).to.deep.equal(updated);
        expect(await repos().tenancy.updateCompanySettings(company.id, {})).to.deep.equal(updated);
      });

      it('rejects a company code taken by any organization with ConflictError', async () => {
        const a = await newTenant(repos());
        const b = await newTenant(repos());
        await expectConflict(repos().tenancy.insertCompany(companyInput(b.organization.id, a.company.code)));
        expect(await repos().tenancy.findCompanyByCode(a.company.code)).to.deep.equal(a.company);
      });

      it('returns null for an unknown company code', async () => {
        expect(await repos().tenancy.findCompanyByCode(`NONE-${uid()}`.toUpperCase())).to.equal(null);
      });

      it('finds a company by its internal id, as stored and as its settings now read; null for an unknown id', async () => {
        const { company } = await newTenant(repos(), { companies: 2 });
        expect(await repos().tenancy.findCompany(company.id)).to.deep.equal(company);
        const updated = await repos().tenancy.updateCompanySettings(company.id, { directDebitEnabled: true, portalUrl: 'https://pay.example.com' });
        expect(await repos().tenancy.findCompany(company.id)).to.deep.equal(updated);
        expect(await repos().tenancy.findCompany(2_000_000_000)).to.equal(null);
      });

      it('finds a company with its organization in one read, the sandbox clock and rate limit as they now read; null for an unknown id', async () => {
        const { organization, company } = await newTenant(repos(), { companies: 2 });
        expect(await repos().tenancy.findCompanyWithOrganization(company.id)).to.deep.equal({ company, organization });
        await repos().tenancy.setFrozenNow(organization.id, T2);
        await repos().tenancy.setRateLimit(organization.id, { capacity: 7, refillPerSecond: 3 });
        const updated = await repos().tenancy.updateCompanySettings(company.id, { privateLinks: true });
        expect(await repos().tenancy.findCompanyWithOrganization(company.id)).to.deep.equal({
          company: updated,
          organization: { ...organization, frozenNow: T2, rateLimit: { capacity: 7, refillPerSecond: 3 } },
        });
        expect(await repos().tenancy.findCompanyWithOrganization(2_000_000_000)).to.equal(null);
      });
    });

    describe('CredentialRepository: client users and API keys', () => {
      it('round-trips a client user', async () => {
        const { organization, company } = await newTenant(repos());
        const input = { organizationId: organization.id, username: `u_${uid()}`, passwordHash: 'scrypt$abc$def', disabled: false, createdAt: T2 };
        const inserted = await repos().credentials.insertClientUser(input, [company.id]);
        expect(inserted).to.deep.equal({ ...input, id: inserted.id });
        expect(await repos().credentials.findClientUserByUsername(input.username)).to.deep.equal(inserted);
        expect(await repos().credentials.findClientUser(inserted.id)).to.deep.equal(inserted);
      });

      it('rejects a username taken in any organization with ConflictError', async () => {
        const a = await newTenant(repos());
        const b = await newTenant(repos());
        await expectConflict(
          repos().credentials.insertClientUser(
            { organizationId: b.organization.id, username: a.user.username, passwordHash: 'x', disabled: false, createdAt: T1 },
            [b.company.id],
          ),
        );
        expect(await repos().credentials.findClientUserByUsername(a.user.username)).to.deep.equal(a.user);
      });

      it('returns null for an unknown username or user id', async () => {
        expect(await repos().credentials.findClientUserByUsername(`nobody_${uid()}`)).to.equal(null);
        expect(await repos().credentials.findClientUser(2_000_000_000)).to.equal(null);
      });

      it('disables and re-enables a client user', async () => {
        const { user } = await newTenant(repos());
        await repos().credentials.setClientUserDisabled(user.id, true);
        expect((await repos().credentials.findClientUser(user.id))!.disabled).to.equal(true);
        await repos().credentials.setClientUserDisabled(user.id, false);
        expect((await repos().credentials.findClientUser(user.id))!.disabled).to.equal(false);
      });

      it('finds a live API key by hash, kind and environment only', async () => {
        const { user } = await newTenant(repos());
        const key = apiKey(user, 'facade');
        await repos().credentials.insertApiKey(key);
        expect(await repos().credentials.findApiKey(key.keyHash, 'facade', 'development')).to.deep.equal(key);
        expect(await repos().credentials.findApiKey(key.keyHash, 'login', 'development')).to.equal(null);
        expect(await repos().credentials.findApiKey(key.keyHash, 'facade', 'production')).to.equal(null);
        expect(await repos().credentials.findApiKey(hash(), 'facade', 'development')).to.equal(null);
      });

      it('revokes the live keys of a kind and environment and says how many', async () => {
        const { user } = await newTenant(repos());
        const facadeDev = apiKey(user, 'facade');
        const loginDev = apiKey(user, 'login');
        const facadeStaging = apiKey(user, 'facade', 'staging');
        for (const key of [facadeDev, loginDev, facadeStaging]) await repos().credentials.insertApiKey(key);

        expect(await repos().credentials.revokeApiKeys(user.id, 'facade', 'development', T2)).to.equal(1);
        expect(await repos().credentials.findApiKey(facadeDev.keyHash, 'facade', 'development')).to.equal(null);
        expect(await repos().credentials.findApiKey(loginDev.keyHash, 'login', 'development')).to.deep.equal(loginDev);
        expect(await repos().credentials.findApiKey(facadeStaging.keyHash, 'facade', 'staging')).to.deep.equal(facadeStaging);

        expect(await repos().credentials.revokeApiKeys(user.id, null, null, T2)).to.equal(2);
        expect(await repos().credentials.revokeApiKeys(user.id, null, null, T2)).to.equal(0);
      });

      it('lists a client with its companies and live keys', async () => {
        const { organization, companies, user } = await newTenant(repos(), { companies: 2 });
        const facade = apiKey(user, 'facade');
        const login = apiKey(user, 'login');
        const revoked = apiKey(user, 'facade', 'staging');
        for (const key of [facade, login, revoked]) await repos().credentials.insertApiKey(key);
        await repos().credentials.revokeApiKeys(user.id, 'facade', 'staging', T2);

        const mine = (await repos().credentials.listClients()).filter((c) => c.organizationId === organization.id);
        expect(mine).to.deep.equal([
          {
            organizationId: organization.id,
            organizationName: organization.name,
            clientUsername: user.username,
            disabled: false,
            companies: companies.map((c) => c.code).sort(),
            apiKeys: [
              { kind: 'facade', appEnv: 'development', prefix: facade.prefix, createdAt: T1 },
              { kind: 'login', appEnv: 'development', prefix: login.prefix, createdAt: T1 },
            ],
          },
        ]);
      });
    });

    describe('CredentialRepository: findFacadeCredentials', () => {
      async function facadeSetup() {
        const tenant = await newTenant(repos(), { companies: 2 });
        const facade = apiKey(tenant.user, 'facade');
        const login = apiKey(tenant.user, 'login');
        await repos().credentials.insertApiKey(facade);
        await repos().credentials.insertApiKey(login);
        return { ...tenant, facade, login };
      }

      it('resolves the organization, the user and every company the user may act for', async () => {
        const { organization, companies, user, facade } = await facadeSetup();
        const found = await repos().credentials.findFacadeCredentials(facade.keyHash, 'development', user.id);
        expect(found).to.not.equal(null);
        expect(found!.organization).to.deep.equal(organization);
        expect({ ...found!.clientUser, passwordHash: undefined }).to.deep.equal({ ...user, passwordHash: undefined });
        expect(found!.companies).to.deep.equal(companies);
        expect(found!.apiKeyPrefix).to.equal(facade.prefix);
      });

      it('lists only the companies granted to that user', async () => {
        const { organization, companies, facade } = await facadeSetup();
        const second = await repos().credentials.insertClientUser(
          { organizationId: organization.id, username: `u_${uid()}`, passwordHash: 'x', disabled: false, createdAt: T1 },
          [companies[1]!.id],
        );
        const found = await repos().credentials.findFacadeCredentials(facade.keyHash, 'development', second.id);
        expect(found!.clientUser.id).to.equal(second.id);
        expect(found!.companies).to.deep.equal([companies[1]]);
      });

      it('is null for a login key', async () => {
        const { user, login } = await facadeSetup();
        expect(await repos().credentials.findFacadeCredentials(login.keyHash, 'development', user.id)).to.equal(null);
      });

      it('is null for a key of another environment', async () => {
        const { user, facade } = await facadeSetup();
        expect(await repos().credentials.findFacadeCredentials(facade.keyHash, 'staging', user.id)).to.equal(null);
        expect(await repos().credentials.findFacadeCredentials(facade.keyHash, 'production', user.id)).to.equal(null);
      });

      it('is null for a revoked key', async () => {
        const { user, facade } = await facadeSetup();
        await repos().credentials.revokeApiKeys(user.id, 'facade', 'development', T2);
        expect(await repos().credentials.findFacadeCredentials(facade.keyHash, 'development', user.id)).to.equal(null);
      });

      it('is null for a disabled user', async () => {
        const { user, facade } = await facadeSetup();
        await repos().credentials.setClientUserDisabled(user.id, true);
        expect(await repos().credentials.findFacadeCredentials(facade.keyHash, 'development', user.id)).to.equal(null);
      });

      it('is null for a user of another organization', async () => {
        const { facade } = await facadeSetup();
        const other = await newTenant(repos());
        expect(await repos().credentials.findFacadeCredentials(facade.keyHash, 'development', other.user.id)).to.equal(null);
      });

      it('is null for an unknown key or user', async () => {
        const { user, facade } = await facadeSetup();
        expect(await repos().credentials.findFacadeCredentials(hash(), 'development', user.id)).to.equal(null);
        expect(await repos().credentials.findFacadeCredentials(facade.keyHash, 'development', 2_000_000_000)).to.equal(null);
      });
    });

    describe('RefreshTokenRepository', () => {
      const future = () => new Date(Date.now() + 24 * HOUR);
      /** A token of a new family of the user (what a login issues). */
      const issue = async (userId: number, expiresAt: Date = future(), familyId?: number) => {
        const token = hash();
        const family = familyId ?? (await repos().refreshTokens.startRefreshTokenFamily(userId, new Date()));
        await repos().refreshTokens.insertRefreshToken(userId, token, expiresAt, family);
        return { token, family };
      };
      const consume = (token: string, organizationId: number, now = new Date()) => repos().refreshTokens.consumeRefreshToken(token, organizationId, now);

      it('consumes a refresh token once; presented again it is a replay of its family', async () => {
        const { user } = await newTenant(repos());
        const { token, family } = await issue(user.id);
        expect(await consume(token, user.organizationId)).to.deep.equal({ outcome: 'consumed', clientUserId: user.id, familyId: family });
        expect(await consume(token, user.organizationId)).to.deep.equal({ outcome: 'replayed', clientUserId: user.id, familyId: family });
      });

      it('does not consume a token at or after its expiry; a used one is a replay even then', async () => {
        const { user } = await newTenant(repos());
        const expiring = await issue(user.id, T2);
        const stillValid = await issue(user.id, T2);
        expect(await consume(expiring.token, user.organizationId, T2)).to.equal(null);
        expect(await consume(stillValid.token, user.organizationId, new Date(T2.getTime() - 1))).to.deep.include({ outcome: 'consumed' });
        expect(await consume(stillValid.token, user.organizationId, new Date(T2.getTime() + HOUR))).to.deep.include({ outcome: 'replayed', familyId: stillValid.family });
      });

      it('leaves a token alone when presented for another organization', async () => {
        const a = await newTenant(repos());
        const b = await newTenant(repos());
        const { token } = await issue(a.user.id);
        expect(await consume(token, b.user.organizationId)).to.equal(null);
        expect(await consume(token, a.user.organizationId)).to.deep.include({ outcome: 'consumed', clientUserId: a.user.id });
      });

      it('returns null for an unknown token', async () => {
        expect(await consume(hash(), 1)).to.equal(null);
      });

      it('gives exactly one of two concurrent consumes the token; the other is a replay of the same family', async () => {
        const { user } = await newTenant(repos());
        for (let round = 0; round < 5; round++) {
          const { token, family } = await issue(user.id);
          const results = await Promise.all([consume(token, user.organizationId), consume(token, user.organizationId)]);
          expect(results.map((r) => r?.outcome).sort(), `round ${round}: ${JSON.stringify(results)}`).to.deep.equal(['consumed', 'replayed']);
          for (const r of results) expect(r).to.deep.include({ clientUserId: user.id, familyId: family });
        }
      });

      it('revokes a family: none of its tokens is accepted, tokens of other families are', async () => {
        const { user } = await newTenant(repos());
        const first = await issue(user.id);
        const rotated = await issue(user.id, future(), first.family);
        const sibling = await issue(user.id, future(), first.family);
        const otherLogin = await issue(user.id);
        expect(await consume(first.token, user.organizationId)).to.deep.include({ outcome: 'consumed' });
        expect(await repos().refreshTokens.revokeRefreshTokenFamily(first.family, new Date())).to.equal(true);
        expect(await repos().refreshTokens.revokeRefreshTokenFamily(first.family, new Date()), 'again: nothing changes').to.equal(false);
        expect(await consume(rotated.token, user.organizationId)).to.equal(null);
        expect(await consume(sibling.token, user.organizationId)).to.equal(null);
        // A token inserted into the family after its revocation (a refresh racing the reuse) is refused as well.
        const late = await issue(user.id, future(), first.family);
        expect(await consume(late.token, user.organizationId)).to.equal(null);
        expect(await consume(first.token, user.organizationId)).to.deep.include({ outcome: 'replayed', familyId: first.family });
        expect(await consume(otherLogin.token, user.organizationId)).to.deep.include({ outcome: 'consumed', familyId: otherLogin.family });
      });

      it('gives a token without a family (issued before families existed) a new family as it is consumed', async () => {
        const { user } = await newTenant(repos());
        const legacy = hash();
        // What the previous code wrote: no family. Through the adapter's own storage, as the migration left such rows.
        const family = await repos().refreshTokens.startRefreshTokenFamily(user.id, new Date());
        await repos().refreshTokens.insertRefreshToken(user.id, legacy, future(), family);
        await harness!.dropRefreshTokenFamily(legacy);
        const used = await consume(legacy, user.organizationId);
        expect(used).to.deep.include({ outcome: 'consumed', clientUserId: user.id });
        expect(used!.familyId).to.be.a('number').and.not.equal(family);
        expect(await consume(legacy, user.organizationId)).to.deep.equal(used && { ...used, outcome: 'replayed' });
      });

      it("revokes a user's live tokens and families and no one else's", async () => {
        const a = await newTenant(repos());
        const b = await newTenant(repos());
        const a1 = await issue(a.user.id);
        const a2 = await issue(a.user.id);
        const b1 = await issue(b.user.id);
        await repos().refreshTokens.revokeRefreshTokens(a.user.id, new Date());
        expect(await consume(a1.token, a.user.organizationId)).to.deep.include({ outcome: 'replayed' });
        expect(await consume(a2.token, a.user.organizationId)).to.deep.include({ outcome: 'replayed' });
        // A token issued into a revoked family later is refused too.
        expect(await consume((await issue(a.user.id, future(), a1.family)).token, a.user.organizationId)).to.equal(null);
        expect(await consume(b1.token, b.user.organizationId)).to.deep.include({ outcome: 'consumed', clientUserId: b.user.id });
      });

      it('purges the tokens expired before the cutoff, used or not, and only those; a used token stays until its expiry', async () => {
        // Instants in 2001 so no token of another test (all expire in the future) is in range.
        const { user } = await newTenant(repos());
        const cutoff = at('2001-06-01T00:00:00.000Z');
        const expired = await issue(user.id, at('2001-01-01T00:00:00.000Z')); // expired before the cutoff → purged
        const usedExpired = await issue(user.id, at('2001-03-01T00:00:00.000Z')); // used, then expired before the cutoff → purged
        const usedBefore = await issue(user.id, at('2002-01-01T00:00:00.000Z')); // used before the cutoff, expires later → kept
        const expiresAtCutoff = await issue(user.id, cutoff); // expiry equal to the cutoff → kept
        const live = await issue(user.id, at('2002-01-01T00:00:00.000Z')); // unused, expires later → kept
        expect(await consume(usedExpired.token, user.organizationId, at('2001-02-01T00:00:00.000Z'))).to.deep.include({ outcome: 'consumed' });
        expect(await consume(usedBefore.token, user.organizationId, at('2001-02-01T00:00:00.000Z'))).to.deep.include({ outcome: 'consumed' });

        expect(await repos().refreshTokens.purgeRefreshTokens(cutoff)).to.equal(2);
        expect(await repos().refreshTokens.purgeRefreshTokens(cutoff)).to.equal(0);
        expect(await consume(expired.token, user.organizationId, at('2000-12-01T00:00:00.000Z'))).to.equal(null);
        // The used token is still recognized as a replay; the live one can still be used.
        expect(await consume(usedBefore.token, user.organizationId, at('2001-06-02T00:00:00.000Z'))).to.deep.include({ outcome: 'replayed', familyId: usedBefore.family });
        expect(await consume(live.token, user.organizationId, at('2001-06-02T00:00:00.000Z'))).to.deep.include({ outcome: 'consumed' });
        // A later cutoff reaches the three kept ones.
        expect(await repos().refreshTokens.purgeRefreshTokens(at('2002-02-01T00:00:00.000Z'))).to.equal(3);
        void expiresAtCutoff;
      });
    });

    describe('ContactRepository', () => {
      it('round-trips a contact: phones as JSON, booleans, UTC milliseconds', async () => {
        const { organization } = await newTenant(repos());
        const input = newContact(organization.id, {
          name: 'José Ñúñez "Pepe" O\'Brien',
          email: 'Jose.Nunez+tag@Example.com',
          phones: [
            phone('+52 (55) 1234-5678', { type: 'MOBILE', primary: true, description: 'Móvil de José 📱' }),
            phone('55 0000 1111', { type: 'WORK', primary: false, description: 'WORK' }),
          ],
          createdAt: T1,
        });
        const inserted = await repos().contacts.insert(input);
        expect(inserted).to.deep.equal({ ...input, id: inserted.id, active: true, updatedAt: T1 });
        expect(inserted.id).to.be.a('number');
        expect(await repos().contacts.findByCode(organization.id, input.code)).to.deep.equal(inserted);
        expect(await repos().contacts.findByExternalClientId(organization.id, input.externalClientId)).to.deep.equal(inserted);
      });

      it('round-trips a contact without phones', async () => {
        const { organization } = await newTenant(repos());
        const inserted = await repos().contacts.insert(newContact(organization.id, { phones: [] }));
        expect((await repos().contacts.findByCode(organization.id, inserted.code))!.phones).to.deep.equal([]);
      });

      it('updates name, email and phones and stamps updatedAt', async () => {
        const { organization } = await newTenant(repos());
        const stored = await repos().contacts.insert(newContact(organization.id, { phones: [phone('+52 55 1111 2222')] }));
        const phones = [phone('+1 (415) 555-0100', { type: 'RELATIVE', primary: true, description: 'Mamá' })];
        const updated = await repos().contacts.update(organization.id, stored.id, { name: 'Ana Ávila', email: 'ana@example.org', phones, updatedAt: T2 });
        expect(updated).to.deep.equal({ ...stored, name: 'Ana Ávila', email: 'ana@example.org', phones, updatedAt: T2 });
        expect(await repos().contacts.findByCode(organization.id, stored.code)).to.deep.equal(updated);
        // The phone filter follows the new list.
        expect(codes((await repos().contacts.list(organization.id, { phoneDigits: '525511112222' }, PAGE)).items)).to.deep.equal([]);
        expect(codes((await repos().contacts.list(organization.id, { phoneDigits: '14155550100' }, PAGE)).items)).to.deep.equal([stored.code]);
      });

      it('keeps the fields an update omits', async () => {
        const { organization } = await newTenant(repos());
        const stored = await repos().contacts.insert(newContact(organization.id, { phones: [phone('5550001')] }));
        const updated = await repos().contacts.update(organization.id, stored.id, { name: 'Only The Name', updatedAt: T2 });
        expect(updated).to.deep.equal({ ...stored, name: 'Only The Name', updatedAt: T2 });
      });

      it("returns null for another organization's code or externalClientId", async () => {
        const a = await newTenant(repos());
        const b = await newTenant(repos());
        const contact = await repos().contacts.insert(newContact(a.organization.id));
        expect(await repos().contacts.findByCode(b.organization.id, contact.code)).to.equal(null);
        expect(await repos().contacts.findByExternalClientId(b.organization.id, contact.externalClientId)).to.equal(null);
        expect(await repos().contacts.findByCode(a.organization.id, `none${uid()}`)).to.equal(null);
      });

      it("leaves another organization's contact untouched when updated with a foreign id", async () => {
        const victim = await newTenant(repos());
        const intruder = await newTenant(repos());
        const contact = await repos().contacts.insert(newContact(victim.organization.id, { phones: [phone('+52 55 9999 0000')] }));
        const attempt = repos().contacts.update(intruder.organization.id, contact.id, { name: 'Hijacked', phones: [phone('123')], updatedAt: T2 });
        expect(await rejectionOf(attempt)).to.be.instanceOf(Error);
        expect(await repos().contacts.findByCode(victim.organization.id, contact.code)).to.deep.equal(contact);
        const byPhone = await repos().contacts.list(victim.organization.id, { phoneDigits: '525599990000' }, PAGE);
        expect(codes(byPhone.items)).to.deep.equal([contact.code]);
        expect((await repos().contacts.list(intruder.organization.id, {}, PAGE)).total).to.equal(0);
      });

      it('rejects a duplicate externalClientId in one organization with ConflictError', async () => {
        const { organization } = await newTenant(repos());
        const first = await repos().contacts.insert(newContact(organization.id, { externalClientId: 'dup-1' }));
        await expectConflict(repos().contacts.insert(newContact(organization.id, { externalClientId: 'dup-1' })));
        const listed = await repos().contacts.list(organization.id, { externalClientId: 'dup-1' }, PAGE);
        expect(codes(listed.items)).to.deep.equal([first.code]);
      });

      it('accepts the same externalClientId in another organization', async () => {
        const a = await newTenant(repos());
        const b = await newTenant(repos());
        await repos().contacts.insert(newContact(a.organization.id, { externalClientId: 'shared-1' }));
        const other = await repos().contacts.insert(newContact(b.organization.id, { externalClientId: 'shared-1' }));
        expect(await repos().contacts.findByExternalClientId(b.organization.id, 'shared-1')).to.deep.equal(other);
      });

      describe('list', () => {
        async function seed(organizationId: number, overrides: Partial<NewContact>[]): Promise<Contact[]> {
          const stored: Contact[] = [];
          for (const o of overrides) stored.push(await repos().contacts.insert(newContact(organizationId, o)));
          return stored;
        }

        it('lists newest first with total and capped false', async () => {
          const { organization } = await newTenant(repos());
          const stored = await seed(organization.id, [{}, {}, {}, {}, {}]);
          const page = await repos().contacts.list(organization.id, {}, PAGE);
          expect(codes(page.items)).to.deep.equal(codes(stored).reverse());
          expect(page.items[0]).to.deep.equal(stored[4]);
          expect(page.total).to.equal(5);
          expect(page.capped).to.equal(false);
        });

        it('pages with page and limit, past the end giving no items but the total', async () => {
          const { organization } = await newTenant(repos());
          const c = codes(await seed(organization.id, [{}, {}, {}, {}, {}])).reverse();
          const list = (page: number, limit: number) => repos().contacts.list(organization.id, {}, { page, limit });
          expect(codes((await list(1, 2)).items)).to.deep.equal([c[0], c[1]]);
          expect(codes((await list(2, 2)).items)).to.deep.equal([c[2], c[3]]);
          expect(codes((await list(3, 2)).items)).to.deep.equal([c[4]]);
          const past = await list(4, 2);
          expect(past.items).to.deep.equal([]);
          expect(past.total).to.equal(5);
          expect(codes((await list(5, 1)).items)).to.deep.equal([c[4]]);
          expect(codes((await list(1, 500)).items)).to.deep.equal(c);
          expect((await list(3, 2)).total).to.equal(5);
        });

        it("never lists another organization's contacts", async () => {
          const a = await newTenant(repos());
          const b = await newTenant(repos());
          await seed(a.organization.id, [{ name: 'Ana', email: 'ana@example.com', phones: [phone('5551234')] }]);
          for (const filter of [{}, { name: 'ana' }, { email: 'ana@example.com' }, { phoneDigits: '5551234' }]) {
            const page = await repos().contacts.list(b.organization.id, filter, PAGE);
            expect(page.items, JSON.stringify(filter)).to.deep.equal([]);
            expect(page.total).to.equal(0);
          }
        });

        it('filters by name: substring, case- and accent-insensitive', async () => {
          const { organization } = await newTenant(repos());
          const [jose, josefina, ana] = await seed(organization.id, [{ name: 'José Pérez' }, { name: 'Josefina Alba' }, { name: 'Ana JOSE' }, { name: 'Pedro' }]);
          const byName = async (name: string) => codes((await repos().contacts.list(organization.id, { name }, PAGE)).items);
          expect(await byName('jose')).to.deep.equal([ana!.code, josefina!.code, jose!.code]);
          expect(await byName('PÉREZ')).to.deep.equal([jose!.code]);
          expect(await byName('perez')).to.deep.equal([jose!.code]);
          expect(await byName('xyz')).to.deep.equal([]);
        });

        it('treats %, _ and ! in the name filter literally', async () => {
          const { organization } = await newTenant(repos());
          const [percent, , underscore, , bang] = await seed(organization.id, [
            { name: '100% Real' },
            { name: '1000 Real' },
            { name: 'a_b' },
            { name: 'axb' },
            { name: 'Hey!' },
            { name: 'Hey' },
          ]);
          const byName = async (name: string) => codes((await repos().contacts.list(organization.id, { name }, PAGE)).items);
          expect(await byName('0%')).to.deep.equal([percent!.code]);
          expect(await byName('a_b')).to.deep.equal([underscore!.code]);
          expect(await byName('y!')).to.deep.equal([bang!.code]);
        });

        it('filters by email: exact, case-insensitive', async () => {
          const { organization } = await newTenant(repos());
          const [ana] = await seed(organization.id, [{ email: 'Ana@Example.com' }, { email: 'ana@example.co' }, { email: 'bana@example.com' }]);
          const page = await repos().contacts.list(organization.id, { email: 'ana@EXAMPLE.com' }, PAGE);
          expect(codes(page.items)).to.deep.equal([ana!.code]);
          expect(page.total).to.equal(1);
          expect((await repos().contacts.list(organization.id, { email: 'ana@example' }, PAGE)).items).to.deep.equal([]);
        });

        it('filters by phone digits a number ends with, on any phone of the contact', async () => {
          const { organization } = await newTenant(repos());
          const [dashed, bare, second] = await seed(organization.id, [
            { phones: [phone('+52 55 1234 5678')] },
            { phones: [phone('55-1234-5678')] },
            { phones: [phone('111'), phone('(52) 55.1234.5678', { type: 'WORK', description: 'WORK' })] },
          ]);
          const byDigits = async (phoneDigits: string) => codes((await repos().contacts.list(organization.id, { phoneDigits }, PAGE)).items);
          expect(await byDigits('525512345678')).to.deep.equal([second!.code, dashed!.code]);
          // A local number finds the same number stored with its country code.
          expect(await byDigits('5512345678')).to.deep.equal([second!.code, bare!.code, dashed!.code]);
          expect(await byDigits('111')).to.deep.equal([second!.code]);
          // The digits must end the number: a prefix or an infix is no match.
          expect(await byDigits('5255')).to.deep.equal([]);
          expect(await byDigits('1234')).to.deep.equal([]);
        });

        it('filters by externalClientId and by code, exactly', async () => {
          const { organization } = await newTenant(repos());
          const [one, ten] = await seed(organization.id, [{ externalClientId: 'ext-1' }, { externalClientId: 'ext-10' }]);
          const list = async (filter: ContactFilter) => codes((await repos().contacts.list(organization.id, filter, PAGE)).items);
          expect(await list({ externalClientId: 'ext-1' })).to.deep.equal([one!.code]);
          expect(await list({ externalClientId: 'EXT-1' })).to.deep.equal([]);
          expect(await list({ code: ten!.code })).to.deep.equal([ten!.code]);
          expect(await list({ code: ten!.code.slice(0, -1) })).to.deep.equal([]);
        });

        it('combines filters with AND', async () => {
          const { organization } = await newTenant(repos());
          const [match] = await seed(organization.id, [
            { name: 'Ana Uno', email: 'ana@example.com', externalClientId: 'and-1', phones: [phone('5550001')] },
            { name: 'Ana Dos', email: 'other@example.com', externalClientId: 'and-2', phones: [phone('5550001')] },
            { name: 'Beto', email: 'ana@example.com', externalClientId: 'and-3', phones: [phone('5550001')] },
          ]);
          const page = await repos().contacts.list(organization.id, { name: 'ana', email: 'ANA@example.com', phoneDigits: '5550001' }, PAGE);
          expect(codes(page.items)).to.deep.equal([match!.code]);
          expect(page.total).to.equal(1);
          const none = await repos().contacts.list(organization.id, { name: 'ana', externalClientId: 'and-3' }, PAGE);
          expect(none).to.deep.equal({ items: [], total: 0, capped: false });
        });
      });
    });

    describe('ProductRepository', () => {
      it('round-trips an active product, timestamps to the millisecond', async () => {
        const { company } = await newTenant(repos());
        const input = newProduct(company, { name: 'Plan Único ñ', externalProductId: 'SKU-001', createdAt: T1 });
        const inserted = await repos().products.insert(input);
        expect(inserted).to.deep.equal({ ...input, id: inserted.id, updatedAt: T1 });
        expect(inserted.id).to.be.a('number');
        expect(await repos().products.findById(company.id, inserted.id)).to.deep.equal(inserted);
        expect(await repos().products.findByName(company.id, 'Plan Único ñ')).to.deep.equal(inserted);
        expect(await repos().products.findByExternalProductId(company.id, 'SKU-001')).to.deep.equal(inserted);
      });

      it('findNameAndKeyHolders answers the name holder and the externalProductId holder in one call', async () => {
        const { company } = await newTenant(repos());
        const [foreign] = (await newTenant(repos())).companies;
        const plan = await repos().products.insert(newProduct(company, { name: 'Plan', externalProductId: 'SKU-PLAN' }));
        const other = await repos().products.insert(newProduct(company, { name: 'Other', externalProductId: 'SKU-OTHER' }));
        await repos().products.insert(newProduct(foreign!, { name: 'Free', externalProductId: 'SKU-FREE' }));
        const holders = (name: string, key: string | null) => repos().products.findNameAndKeyHolders(company.id, name, key);
        expect(await holders('Plan', 'SKU-PLAN')).to.deep.equal({ byName: plan, byExternalProductId: plan });
        expect(await holders('Plan', 'SKU-OTHER')).to.deep.equal({ byName: plan, byExternalProductId: other });
        expect(await holders('Plan', null)).to.deep.equal({ byName: plan, byExternalProductId: null });
        expect(await holders('plan', 'SKU-NEW')).to.deep.equal({ byName: null, byExternalProductId: null });
        // Another company's name and key are not this company's.
        expect(await holders('Free', 'SKU-FREE')).to.deep.equal({ byName: null, byExternalProductId: null });
      });

      it('round-trips an inactive product created without timestamps or external id', async () => {
        const { company } = await newTenant(repos());
        const input = newProduct(company, { active: false, createdAt: null, externalProductId: null });
        const inserted = await repos().products.insert(input);
        expect(inserted).to.deep.equal({ ...input, id: inserted.id, updatedAt: null });
        expect(await repos().products.findById(company.id, inserted.id)).to.deep.equal(inserted);
      });

      it("returns null for another company's id, name or external id", async () => {
        const { companies } = await newTenant(repos(), { companies: 2 });
        const other = await newTenant(repos());
        const [mine, sibling] = companies;
        const product = await repos().products.insert(newProduct(mine!, { externalProductId: `X-${uid()}` }));
        for (const foreign of [sibling!, other.company]) {
          expect(await repos().products.findById(foreign.id, product.id)).to.equal(null);
          expect(await repos().products.findByName(foreign.id, product.name)).to.equal(null);
          expect(await repos().products.findByExternalProductId(foreign.id, product.externalProductId!)).to.equal(null);
        }
        expect(await repos().products.findById(mine!.id, 2_000_000_000)).to.equal(null);
        // Beyond what an id column holds on any store (PostgreSQL's INTEGER, MySQL's INT UNSIGNED): no product, no error.
        for (const beyond of [2_848_035_817, 4_294_967_296, 999_999_999_999_999]) {
          expect(await repos().products.findById(mine!.id, beyond), String(beyond)).to.equal(null);
        }
      });

      it('rejects a duplicate name in one company with ConflictError', async () => {
        const { company } = await newTenant(repos());
        await repos().products.insert(newProduct(company, { name: 'Widget' }));
        await expectConflict(repos().products.insert(newProduct(company, { name: 'Widget' })));
      });

      it('rejects a duplicate externalProductId in one company with ConflictError', async () => {
        const { company } = await newTenant(repos());
        const first = await repos().products.insert(newProduct(company, { externalProductId: 'SKU-9' }));
        await expectConflict(repos().products.insert(newProduct(company, { externalProductId: 'SKU-9' })));
        expect(await repos().products.findByExternalProductId(company.id, 'SKU-9')).to.deep.equal(first);
      });

      it('accepts the same name and externalProductId in another company', async () => {
        const { companies } = await newTenant(repos(), { companies: 2 });
        await repos().products.insert(newProduct(companies[0]!, { name: 'Widget', externalProductId: 'SKU-1' }));
        const other = await repos().products.insert(newProduct(companies[1]!, { name: 'Widget', externalProductId: 'SKU-1' }));
        expect(await repos().products.findByName(companies[1]!.id, 'Widget')).to.deep.equal(other);
      });

      it('accepts many products without externalProductId, and names differing only in case', async () => {
        const { company } = await newTenant(repos());
        await repos().products.insert(newProduct(company, { name: 'Widget', externalProductId: null }));
        await repos().products.insert(newProduct(company, { name: 'widget', externalProductId: null }));
        expect((await repos().products.findByName(company.id, 'widget'))!.name).to.equal('widget');
        expect((await repos().products.listActive(company.id, {}, PAGE)).total).to.equal(2);
      });

      it('renames a product, leaving updatedAt as it was', async () => {
        const { company } = await newTenant(repos());
        const product = await repos().products.insert(newProduct(company, { name: 'Old name' }));
        const renamed = await repos().products.rename(company.id, product.id, 'New name');
        expect(renamed).to.deep.equal({ ...product, name: 'New name' });
        expect(await repos().products.findByName(company.id, 'New name')).to.deep.equal(renamed);
        expect(await repos().products.findByName(company.id, 'Old name')).to.equal(null);
      });

      it('rejects a rename onto a taken name with ConflictError, keeping the old name', async () => {
        const { company } = await newTenant(repos());
        await repos().products.insert(newProduct(company, { name: 'Taken' }));
        const product = await repos().products.insert(newProduct(company, { name: 'Mine' }));
        await expectConflict(repos().products.rename(company.id, product.id, 'Taken'));
        expect((await repos().products.findById(company.id, product.id))!.name).to.equal('Mine');
      });

      it('rejects a rename onto the name of an inactive product with ConflictError', async () => {
        const { company } = await newTenant(repos());
        const inactive = await repos().products.insert(newProduct(company, { name: 'Retired' }));
        await repos().products.deactivate(company.id, inactive.id);
        const product = await repos().products.insert(newProduct(company, { name: 'Current' }));
        await expectConflict(repos().products.rename(company.id, product.id, 'Retired'));
      });

      it('accepts a rename to the name the product already has', async () => {
        const { company } = await newTenant(repos());
        const product = await repos().products.insert(newProduct(company, { name: 'Same' }));
        expect(await repos().products.rename(company.id, product.id, 'Same')).to.deep.equal(product);
      });

      it('deactivates once (true), then reports false; the product stays readable', async () => {
        const { company } = await newTenant(repos());
        const product = await repos().products.insert(newProduct(company));
        expect(await repos().products.deactivate(company.id, product.id)).to.equal(true);
        expect(await repos().products.deactivate(company.id, product.id)).to.equal(false);
        expect(await repos().products.findById(company.id, product.id)).to.deep.equal({ ...product, active: false });
        expect(await repos().products.deactivate(company.id, 2_000_000_000)).to.equal(false);
      });

      it("does not deactivate another company's product", async () => {
        const mine = await newTenant(repos());
        const other = await newTenant(repos());
        const product = await repos().products.insert(newProduct(mine.company));
        expect(await repos().products.deactivate(other.company.id, product.id)).to.equal(false);
        expect((await repos().products.findById(mine.company.id, product.id))!.active).to.equal(true);
      });

      describe('listActive', () => {
        async function seed(company: Company, overrides: Partial<NewProduct>[]): Promise<Product[]> {
          const stored: Product[] = [];
          for (const o of overrides) stored.push(await repos().products.insert(newProduct(company, o)));
          return stored;
        }

        it('lists active products only, by id descending, with total', async () => {
          const { company } = await newTenant(repos());
          const [p1, , p3, p4] = await seed(company, [{}, { active: false, createdAt: null }, {}, {}]);
          await repos().products.deactivate(company.id, p3!.id);
          const page = await repos().products.listActive(company.id, {}, PAGE);
          expect(page).to.deep.equal({ items: [p4, p1], total: 2, capped: false });
        });

        it('pages with page and limit, past the end giving no items but the total', async () => {
          const { company } = await newTenant(repos());
          const p = ids(await seed(company, [{}, {}, {}, {}, {}])).reverse();
          const list = (page: number, limit: number) => repos().products.listActive(company.id, {}, { page, limit });
          expect(ids((await list(1, 2)).items)).to.deep.equal([p[0], p[1]]);
          expect(ids((await list(2, 2)).items)).to.deep.equal([p[2], p[3]]);
          expect(ids((await list(3, 2)).items)).to.deep.equal([p[4]]);
          expect(await list(4, 2)).to.deep.equal({ items: [], total: 5, capped: false });
          expect(ids((await list(1, 500)).items)).to.deep.equal(p);
        });

        it('filters by exact name (not substring, case-sensitive), active only', async () => {
          const { company } = await newTenant(repos());
          const [widget, , retired] = await seed(company, [{ name: 'Widget' }, { name: 'Widget Pro' }, { name: 'Retired' }]);
          await repos().products.deactivate(company.id, retired!.id);
          const byName = (name: string) => repos().products.listActive(company.id, { name }, PAGE);
          expect(await byName('Widget')).to.deep.equal({ items: [widget], total: 1, capped: false });
          expect((await byName('widget')).items).to.deep.equal([]);
          expect((await byName('Widg')).items).to.deep.equal([]);
          expect(await byName('Retired')).to.deep.equal({ items: [], total: 0, capped: false });
        });

        it("never lists another company's products", async () => {
          const { companies } = await newTenant(repos(), { companies: 2 });
          await seed(companies[0]!, [{ name: 'Only here' }]);
          expect(await repos().products.listActive(companies[1]!.id, {}, PAGE)).to.deep.equal({ items: [], total: 0, capped: false });
          expect((await repos().products.listActive(companies[1]!.id, { name: 'Only here' }, PAGE)).items).to.deep.equal([]);
        });
      });
    });

    describe('ContactRepository: findByExternalClientIds', () => {
      it("returns the organization's contacts for the keys it knows, ignoring unknown keys", async () => {
        const { organization } = await newTenant(repos());
        const ana = await repos().contacts.insert(newContact(organization.id, { externalClientId: 'many-ana' }));
        const bob = await repos().contacts.insert(newContact(organization.id, { externalClientId: 'many-bob' }));
        await repos().contacts.insert(newContact(organization.id, { externalClientId: 'many-other' }));
        const found = await repos().contacts.findByExternalClientIds(organization.id, ['many-bob', 'many-ana', 'many-nobody']);
        expect(sortById(found)).to.deep.equal(sortById([ana, bob]));
      });

      it('matches exactly (case-sensitive) and never across organizations', async () => {
        const a = await newTenant(repos());
        const b = await newTenant(repos());
        await repos().contacts.insert(newContact(a.organization.id, { externalClientId: 'Case-1' }));
        expect(await repos().contacts.findByExternalClientIds(a.organization.id, ['case-1', 'CASE-1'])).to.deep.equal([]);
        expect(await repos().contacts.findByExternalClientIds(b.organization.id, ['Case-1'])).to.deep.equal([]);
      });

      it('returns nothing for no keys', async () => {
        const { organization } = await newTenant(repos());
        await repos().contacts.insert(newContact(organization.id));
        expect(await repos().contacts.findByExternalClientIds(organization.id, [])).to.deep.equal([]);
      });
    });

    describe('ProductRepository: findByIds and findByExternalProductIds', () => {
      it("returns the company's products by id, inactive ones included, ignoring unknown ids", async () => {
        const { company } = await newTenant(repos());
        const active = await repos().products.insert(newProduct(company));
        const inactive = await repos().products.insert(newProduct(company, { active: false, createdAt: null }));
        await repos().products.insert(newProduct(company));
        const found = await repos().products.findByIds(company.id, [inactive.id, active.id, 2_000_000_000, 2_848_035_817, 999_999_999_999_999]);
        expect(sortById(found)).to.deep.equal(sortById([active, inactive]));
        expect(await repos().products.findByIds(company.id, [2_848_035_817])).to.deep.equal([]);
      });

      it("returns the company's products by externalProductId, exactly, ignoring unknown ones", async () => {
        const { company } = await newTenant(repos());
        const one = await repos().products.insert(newProduct(company, { externalProductId: 'SKU-a' }));
        const two = await repos().products.insert(newProduct(company, { externalProductId: 'SKU-b', active: false, createdAt: null }));
        await repos().products.insert(newProduct(company, { externalProductId: 'SKU-c' }));
        await repos().products.insert(newProduct(company, { externalProductId: null }));
        const found = await repos().products.findByExternalProductIds(company.id, ['SKU-b', 'SKU-a', 'sku-c', 'SKU-none']);
        expect(sortById(found)).to.deep.equal(sortById([one, two]));
      });

      it("returns the company's products by name, exactly, inactive ones included, ignoring unknown names", async () => {
        const { companies } = await newTenant(repos(), { companies: 2 });
        const [company, other] = companies as [Company, Company];
        const plan = await repos().products.insert(newProduct(company, { name: 'Plan Único ñ' }));
        const old = await repos().products.insert(newProduct(company, { name: 'Old plan', active: false, createdAt: null }));
        await repos().products.insert(newProduct(company, { name: 'Plan' }));
        await repos().products.insert(newProduct(other, { name: 'Old plan' }));
        const found = await repos().products.findByNames(company.id, ['Old plan', 'Plan Único ñ', 'plan único ñ', 'Nothing']);
        expect(sortById(found)).to.deep.equal(sortById([plan, old]));
        expect(await repos().products.findByNames(company.id, [])).to.deep.equal([]);
      });

      it("never returns another company's products", async () => {
        const { companies } = await newTenant(repos(), { companies: 2 });
        const product = await repos().products.insert(newProduct(companies[0]!, { externalProductId: 'SKU-mine' }));
        expect(await repos().products.findByIds(companies[1]!.id, [product.id])).to.deep.equal([]);
        expect(await repos().products.findByExternalProductIds(companies[1]!.id, ['SKU-mine'])).to.deep.equal([]);
      });

      it('returns nothing for no ids', async () => {
        const { company } = await newTenant(repos());
        await repos().products.insert(newProduct(company, { externalProductId: 'SKU-x' }));
        expect(await repos().products.findByIds(company.id, [])).to.deep.equal([]);
        expect(await repos().products.findByExternalProductIds(company.id, [])).to.deep.equal([]);
      });
    });

    describe('TenancyRepository: listOrganizations', () => {
      it('lists every organization with its frozen clock, in creation order', async () => {
        const first = (await newTenant(repos())).organization;
        const second = (await newTenant(repos())).organization;
        await repos().tenancy.setFrozenNow(second.id, T2);
        const listed = await repos().tenancy.listOrganizations();
        const mine = listed.filter((o) => o.id === first.id || o.id === second.id);
        expect(mine).to.deep.equal([first, { ...second, frozenNow: T2 }]);
        expect(listed.length).to.equal(await repos().tenancy.countOrganizations());
      });
    });

    describe('DebtRepository', () => {
      /** A tenant with a contact and a product to hang debts on. */
      async function debtTenant(options: { companies?: number } = {}): Promise<DebtFixture> {
        const tenant = await newTenant(repos(), options);
        const contact = await repos().contacts.insert(newContact(tenant.organization.id));
        const product = await repos().products.insert(newProduct(tenant.company, { name: `Plan ${uid()}` }));
        return { ...tenant, contact, product };
      }

      const insertDebt = (t: DebtFixture, overrides: Partial<NewDebt> = {}) => repos().debts.insert(newDebt(t, overrides));
      const find = (t: { company: Company }, key: string) => repos().debts.findByExternalRequestId(t.company.id, key);
      const list = (t: { company: Company }, filter: Partial<DebtFilter> = {}, page = PAGE) =>
        repos().debts.list(t.company.id, { today: '2026-06-01', ...filter }, page);
      const listedKeys = async (t: { company: Company }, filter: Partial<DebtFilter> = {}) => requestIds((await list(t, filter)).items);

      it('a page holds each debt as a list shows it (ListedDebt), the same on the first page, a later one and a filtered one', async () => {
        const t = await debtTenant();
        const stored = await insertDebt(t, { externalRequestId: `listed-${uid()}`, description: 'Listed', additionalData: { plan: 'gold' } });
        await insertDebt(t, { externalRequestId: `listed-${uid()}` });
        const shown = listedOf((await find(t, stored.externalRequestId))!);
        expect(Object.keys(shown)).to.not.include.members(['autopay', 'autopayInstrument', 'updatedAt']);
        const pages = [await list(t, {}, { page: 1, limit: 2 }), await list(t, {}, { page: 2, limit: 1 }), await list(t, { status: 'PENDING' }, { page: 1, limit: 2 })];
        for (const page of pages) expect(page.items.find((d) => d.id === stored.id)).to.deep.equal(shown);
      });

      it('the unfiltered total counts every debt but the CANCELLED ones through every kind of write (SQL: the debt tally)', async () => {
        const t = await debtTenant();
        const [other] = (await debtTenant()).companies;
        const total = async () => (await list(t)).total;
        const key = () => `tally-${uid()}`;
        const first = await insertDebt(t, { externalRequestId: key() });
        await insertDebt(t, { externalRequestId: key(), status: 'CANCELLED' });
        expect(await total()).to.equal(1);
        const many = await uow().run((tx) => tx.debts.insertAll([1, 2, 3].map(() => newDebt(t, { externalRequestId: key() }))));
        expect(await total()).to.equal(4);
        // Two new and one already there: only what the statement inserted counts.
        await uow().run((tx) => tx.debts.insertMissing([newDebt(t, { externalRequestId: many[0]!.externalRequestId }), newDebt(t, { externalRequestId: key() }), newDebt(t, { externalRequestId: key() })]));
        expect(await total()).to.equal(6);
        await uow().run((tx) => tx.debts.insertMissing([newDebt(t, { externalRequestId: key(), status: 'CANCELLED' })]));
        expect(await total()).to.equal(6);
        await repos().debts.update(t.company.id, first.id, { status: 'PAID', amountPaidCents: first.amountCents, updatedAt: T2 });
        expect(await total()).to.equal(6);
        await uow().run((tx) => tx.debts.update(t.company.id, many[1]!.id, { status: 'CANCELLED', updatedAt: T2 }));
        expect(await total()).to.equal(5);
        // A write that fails writes no count either.
        await uow().run(async (tx) => {
          await tx.debts.insertAll([newDebt(t, { externalRequestId: key() }), newDebt(t, { externalRequestId: key() })]);
          throw new Error('rolled back');
        }).catch(() => undefined);
        expect(await total()).to.equal(5);
        expect((await list(t, {}, { page: 1, limit: 2 })).total).to.equal(5);
        expect((await list(t, {}, { page: 9, limit: 2 })).total).to.equal(5);
        expect((await repos().debts.list(other!.id, { today: '2026-06-01' }, PAGE)).total).to.equal(0);
      });

      it("each status's total is exact through every write that moves a debt, past the last page too (SQL: the debt tally by status, with the PENDING debts past due)", async () => {
        const t = await debtTenant();
        const key = () => `st-${uid()}`;
        const STATUSES = ['PENDING', 'OVERDUE', 'PARTIALLY_PAID', 'PAID'] as const;
        /** Per status on `today`: the total of a first page of one, the debts listed, the total past the last page. */
        const totals = async (today = '2026-06-01') => {
          const found: Record<string, number> = {};
          for (const status of STATUSES) {
            const first = (await list(t, { status, today }, { page: 1, limit: 1 })).total;
            const listed = (await list(t, { status, today }, { page: 1, limit: 500 })).items.length;
            const past = (await list(t, { status, today }, { page: 999, limit: 1 })).total;
            expect([first, past], `${status} on ${today}`).to.deep.equal([listed, listed]);
            found[status] = listed;
          }
          return found;
        };
        const late = await insertDebt(t, { externalRequestId: key(), dueDate: '2026-05-01' });
        await insertDebt(t, { externalRequestId: key(), dueDate: '2026-07-01' });
        await insertDebt(t, { externalRequestId: key(), status: 'OVERDUE', dueDate: '2026-04-01' });
        await insertDebt(t, { externalRequestId: key(), status: 'CANCELLED', dueDate: '2026-04-01' });
        expect(await totals()).to.deep.equal({ PENDING: 1, OVERDUE: 2, PARTIALLY_PAID: 0, PAID: 0 });
        expect(await totals('2026-04-01')).to.deep.equal({ PENDING: 2, OVERDUE: 1, PARTIALLY_PAID: 0, PAID: 0 });
        const many = await uow().run((tx) =>
          tx.debts.insertAll([newDebt(t, { externalRequestId: key(), status: 'PAID' }), newDebt(t, { externalRequestId: key(), dueDate: '2026-05-15' }), newDebt(t, { externalRequestId: key() })]),
        );
        await uow().run((tx) => tx.debts.insertMissing([newDebt(t, { externalRequestId: many[0]!.externalRequestId }), newDebt(t, { externalRequestId: key(), status: 'PARTIALLY_PAID' })]));
        expect(await totals()).to.deep.equal({ PENDING: 2, OVERDUE: 3, PARTIALLY_PAID: 1, PAID: 1 });
        await uow().run((tx) => tx.debts.update(t.company.id, late.id, { status: 'PARTIALLY_PAID', amountPaidCents: 1, updatedAt: T2 }));
        await repos().debts.update(t.company.id, many[2]!.id, { status: 'CANCELLED', updatedAt: T2 });
        expect(await totals()).to.deep.equal({ PENDING: 1, OVERDUE: 2, PARTIALLY_PAID: 2, PAID: 1 });
        // The overdue job marks what the lists already read as OVERDUE: no total moves.
        expect(await uow().run((tx) => tx.debts.markOverdue(t.organization.id, '2026-06-01', T2, 100))).to.have.length(1);
        expect(await totals()).to.deep.equal({ PENDING: 1, OVERDUE: 2, PARTIALLY_PAID: 2, PAID: 1 });
        expect(await totals('2026-04-01')).to.deep.equal({ PENDING: 1, OVERDUE: 2, PARTIALLY_PAID: 2, PAID: 1 });
      });

      it('round-trips a debt: exact cents, JSON fields, dates, booleans, embedded contact and product', async () => {
        const t = await debtTenant();
        const input = newDebt(t, {
          externalRequestId: `Order.1:a_b-${uid()}`,
          batchId: 'bat_AbCdEfGhIjKlMnOpQrSt',
          contactCreatedInline: true,
          productId: t.product.id,
          status: 'PARTIALLY_PAID',
          amountCents: 1_234_567_891,
          amountPaidCents: 29,
          currency: 'CLP',
          dueDate: '2028-02-29',
          allowOverduePayment: false,
          allowPartialPayments: false,
          description: 'Cuota "única" de José; O\'Brien \\ 📱',
          additionalData: { ref: 'Ñandú "q" \'s\'', amount: 12.5, count: 3, vip: true, none: null },
          paymentMethods: ['CASH', 'BANK_TRANSFER'],
          autopay: true,
          autopayReason: 'NO_DEFAULT_PAYMENT_METHOD',
          createdAt: T1,
          updatedAt: T2,
        });
        const inserted = await repos().debts.insert(input);
        expect(inserted).to.deep.equal({ ...input, id: inserted.id });
        expect(inserted.id).to.be.a('number');
        const view = viewOf(inserted, t.contact, t.product);
        expect(await find(t, input.externalRequestId)).to.deep.equal(view);
        expect(await repos().debts.findByExternalRequestIds(t.company.id, [input.externalRequestId])).to.deep.equal([view]);
      });

      it('round-trips a debt without product, description, JSON fields, batch or autopay reason', async () => {
        const t = await debtTenant();
        const input = newDebt(t);
        const inserted = await repos().debts.insert(input);
        expect(inserted).to.deep.equal({ ...input, id: inserted.id });
        const found = await find(t, input.externalRequestId);
        expect(found).to.deep.equal(viewOf(inserted, t.contact, null));
        expect(found).to.deep.include({ product: null, productId: null, description: null, additionalData: null, paymentMethods: null, batchId: null, autopayReason: null });
        expect(found).to.deep.include({ allowOverduePayment: true, allowPartialPayments: true, autopay: false, contactCreatedInline: false });
      });

      it('keeps cents exact up to the largest safe integer', async () => {
        const t = await debtTenant();
        const big = await insertDebt(t, { amountCents: Number.MAX_SAFE_INTEGER, amountPaidCents: Number.MAX_SAFE_INTEGER - 1 });
        const tiny = await insertDebt(t, { amountCents: 1 });
        expect(await find(t, big.externalRequestId)).to.deep.include({ amountCents: Number.MAX_SAFE_INTEGER, amountPaidCents: Number.MAX_SAFE_INTEGER - 1 });
        expect(await find(t, tiny.externalRequestId)).to.deep.include({ amountCents: 1, amountPaidCents: 0 });
      });

      it('shows the embedded product as it is now (renamed, deactivated)', async () => {
        const t = await debtTenant();
        const debt = await insertDebt(t, { productId: t.product.id });
        await repos().products.rename(t.company.id, t.product.id, `Renamed ${uid()}`);
        await repos().products.deactivate(t.company.id, t.product.id);
        const product = (await repos().products.findById(t.company.id, t.product.id))!;
        expect((await find(t, debt.externalRequestId))!.product).to.deep.equal({ id: product.id, name: product.name, active: false });
      });

      it('rejects a duplicate externalRequestId in the same company with ConflictError, keeping the first', async () => {
        const t = await debtTenant();
        const first = await insertDebt(t, { externalRequestId: 'dup-key', amountCents: 100 });
        await expectConflict(insertDebt(t, { externalRequestId: 'dup-key', amountCents: 200 }));
        expect(await find(t, 'dup-key')).to.deep.equal(viewOf(first, t.contact, null));
        expect((await list(t)).total).to.equal(1);
      });

      it('accepts the same externalRequestId in another company, of the same or another organization', async () => {
        const t = await debtTenant({ companies: 2 });
        const other = await debtTenant();
        const sibling = { ...t, company: t.companies[1]! };
        const a = await insertDebt(t, { externalRequestId: 'shared-key' });
        const b = await insertDebt(sibling, { externalRequestId: 'shared-key' });
        const c = await insertDebt(other, { externalRequestId: 'shared-key' });
        expect(new Set([a.id, b.id, c.id]).size).to.equal(3);
        expect((await find(sibling, 'shared-key'))!.id).to.equal(b.id);
        expect((await find(other, 'shared-key'))!.id).to.equal(c.id);
        expect((await find(t, 'shared-key'))!.id).to.equal(a.id);
      });

      it('treats externalRequestIds as case-sensitive', async () => {
        const t = await debtTenant();
        const upper = await insertDebt(t, { externalRequestId: 'Key-A' });
        const lower = await insertDebt(t, { externalRequestId: 'key-a' });
        expect((await find(t, 'Key-A'))!.id).to.equal(upper.id);
        expect((await find(t, 'key-a'))!.id).to.equal(lower.id);
        expect(await find(t, 'KEY-A')).to.equal(null);
      });

      it("finds nothing for an unknown key or another company's key", async () => {
        const t = await debtTenant({ companies: 2 });
        const debt = await insertDebt(t);
        expect(await find(t, `none-${uid()}`)).to.equal(null);
        expect(await find({ company: t.companies[1]! }, debt.externalRequestId)).to.equal(null);
      });

      it("finds a debt by its internal number in its company only, as findByExternalRequestId reads it", async () => {
        const t = await debtTenant({ companies: 2 });
        const debt = await insertDebt(t, { productId: t.product.id });
        expect(await repos().debts.findById(t.company.id, debt.id)).to.deep.equal(viewOf(debt, t.contact, t.product));
        expect(await repos().debts.findById(t.company.id, debt.id)).to.deep.equal(await find(t, debt.externalRequestId));
        expect(await repos().debts.findById(t.companies[1]!.id, debt.id), 'another company').to.equal(null);
        expect(await repos().debts.findById(t.company.id, 2_000_000_000), 'unknown').to.equal(null);
      });

      it("gives the ids of the company's debts by key, leaving out unknown keys and other companies' debts", async () => {
        const t = await debtTenant({ companies: 2 });
        const [a, b] = [await insertDebt(t, { externalRequestId: 'ids-a' }), await insertDebt(t, { externalRequestId: 'ids-b' })];
        await insertDebt({ ...t, company: t.companies[1]! }, { externalRequestId: 'ids-other' });
        const ids = await repos().debts.idsByExternalRequestId(t.company.id, ['ids-b', 'ids-a', 'ids-unknown', 'ids-other']);
        expect([...ids].sort()).to.deep.equal([['ids-a', a.id], ['ids-b', b.id]]);
        expect(await repos().debts.idsByExternalRequestId(t.company.id, [])).to.deep.equal(new Map());
      });

      describe('insertMissing', () => {
        it('inserts the keys the company lacks in one call and leaves the existing ones as stored', async () => {
          const t = await debtTenant();
          const existing = await insertDebt(t, { externalRequestId: 'im-2', amountCents: 111 });
          const rows = ['im-1', 'im-2', 'im-3', 'im-4'].map((key, i) => newDebt(t, { externalRequestId: key, amountCents: 1_000 + i, batchId: 'bat_im' }));
          expect(await repos().debts.insertMissing(rows), 'rows inserted').to.equal(3);
          const found = await repos().debts.findByExternalRequestIds(t.company.id, ['im-1', 'im-2', 'im-3', 'im-4']);
          const byKey = new Map(found.map((d) => [d.externalRequestId, d]));
          expect([...byKey.keys()].sort()).to.deep.equal(['im-1', 'im-2', 'im-3', 'im-4']);
          expect(byKey.get('im-2')).to.deep.equal(viewOf(existing, t.contact, null));
          for (const [i, key] of ['im-1', 'im-3', 'im-4'].entries()) {
            const row = rows.find((r) => r.externalRequestId === key)!;
            expect(byKey.get(key)).to.deep.equal(viewOf({ ...row, id: byKey.get(key)!.id }, t.contact, null), `row ${i}`);
          }
          expect((await list(t)).total).to.equal(4);
        });

        it('gives the inserted rows increasing ids in the order given', async () => {
          const t = await debtTenant();
          await repos().debts.insertMissing(['ord-c', 'ord-a', 'ord-b'].map((key) => newDebt(t, { externalRequestId: key })));
          expect(await listedKeys(t)).to.deep.equal(['ord-b', 'ord-a', 'ord-c']);
        });

        it("does not skip a key that only another company has", async () => {
          const t = await debtTenant({ companies: 2 });
          await insertDebt(t, { externalRequestId: 'im-shared' });
          const sibling = { ...t, company: t.companies[1]! };
          await repos().debts.insertMissing([newDebt(sibling, { externalRequestId: 'im-shared' })]);
          expect((await find(sibling, 'im-shared'))!.companyId).to.equal(sibling.company.id);
        });

        it('accepts an empty list', async () => {
          const t = await debtTenant();
          expect(await repos().debts.insertMissing([])).to.equal(0);
          expect((await list(t)).total).to.equal(0);
        });

        for (const order of ['the same order', 'opposite orders']) {
          it(`inserts each key exactly once when two transactions race with overlapping keys (${order})`, async () => {
            const t = await debtTenant();
            for (let round = 0; round < 5; round++) {
              const k = (n: number) => `race-${round}-${n}`;
              const first = [k(1), k(2), k(3), k(4)];
              const second = order === 'the same order' ? [k(2), k(3), k(4), k(5)] : [k(5), k(4), k(3), k(2)];
              const outcomes = await Promise.allSettled(
                [first, second].map((batch) => uow().run((tx) => tx.debts.insertMissing(batch.map((key) => newDebt(t, { externalRequestId: key }))))),
              );
              expect(outcomes.map((o) => (o.status === 'rejected' ? String(o.reason) : 'ok')), `round ${round}`).to.deep.equal(['ok', 'ok']);
              const keys = requestIds(await repos().debts.findByExternalRequestIds(t.company.id, [1, 2, 3, 4, 5].map(k)));
              expect(keys.sort(), `round ${round}`).to.deep.equal([1, 2, 3, 4, 5].map(k));
            }
            expect((await list(t)).total).to.equal(25);
          });
        }

        it('inserts each key exactly once when calls race outside transactions', async () => {
          const t = await debtTenant();
          const batches = [0, 1, 2, 3].map((i) => [i, i + 1, i + 2].map((n) => newDebt(t, { externalRequestId: `loose-${n}` })));
          await Promise.all(batches.map((rows) => repos().debts.insertMissing(rows)));
          expect((await listedKeys(t)).sort()).to.deep.equal([0, 1, 2, 3, 4, 5].map((n) => `loose-${n}`));
        });
      });

      describe('insertAll', () => {
        it('inserts every debt in one call and answers them with their ids, in the order given', async () => {
          const t = await debtTenant();
          const rows = ['ia-c', 'ia-a', 'ia-b'].map((key, i) => newDebt(t, { externalRequestId: key, amountCents: 500 + i }));
          const inserted = await repos().debts.insertAll(rows);
          expect(requestIds(inserted)).to.deep.equal(['ia-c', 'ia-a', 'ia-b']);
          for (const [i, debt] of inserted.entries()) {
            expect(debt).to.deep.equal({ ...rows[i], id: debt.id });
            expect((await find(t, debt.externalRequestId))!.id).to.equal(debt.id);
          }
          expect(new Set(inserted.map((d) => d.id)).size).to.equal(3);
          expect(await repos().debts.insertAll([])).to.deep.equal([]);
        });

        it('inserts one debt as insert does', async () => {
          const t = await debtTenant();
          const [debt] = await repos().debts.insertAll([newDebt(t, { externalRequestId: 'ia-one' })]);
          expect((await find(t, 'ia-one'))!.id).to.equal(debt!.id);
        });

        it('inserts nothing and throws ConflictError when one key is taken or repeated', async () => {
          const t = await debtTenant();
          await insertDebt(t, { externalRequestId: 'ia-taken' });
          for (const keys of [['ia-new-1', 'ia-taken', 'ia-new-2'], ['ia-new-3', 'ia-new-3']]) {
            let thrown: unknown = null;
            await repos().debts.insertAll(keys.map((key) => newDebt(t, { externalRequestId: key }))).catch((error) => (thrown = error));
            expect(thrown, keys.join()).to.be.instanceOf(ConflictError);
          }
          expect(await listedKeys(t)).to.deep.equal(['ia-taken']);
        });

        it('lets exactly one of two racing transactions with overlapping keys in opposite orders win, the other a ConflictError', async () => {
          const t = await debtTenant();
          for (let round = 0; round < 5; round++) {
            const k = (n: number) => `ia-race-${round}-${n}`;
            const outcomes = await Promise.allSettled(
              [[k(1), k(2), k(3)], [k(3), k(2), k(4)]].map((keys) => uow().run((tx) => tx.debts.insertAll(keys.map((key) => newDebt(t, { externalRequestId: key }))))),
            );
            const rejected = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
            expect(rejected.length, `round ${round}`).to.be.at.most(1);
            for (const r of rejected) expect(r.reason, `round ${round}`).to.be.instanceOf(ConflictError);
            const stored = requestIds(await repos().debts.findByExternalRequestIds(t.company.id, [1, 2, 3, 4].map(k))).sort();
            expect([[k(1), k(2), k(3)], [k(2), k(3), k(4)], [k(1), k(2), k(3), k(4)]].map((x) => x.join())).to.include(stored.join(), `round ${round}`);
          }
        });
      });

      describe('findByExternalRequestIds', () => {
        it("returns the company's debts for the keys it has, ignoring unknown keys and other companies", async () => {
          const t = await debtTenant({ companies: 2 });
          const sibling = { ...t, company: t.companies[1]! };
          const a = await insertDebt(t, { externalRequestId: 'many-a' });
          const b = await insertDebt(t, { externalRequestId: 'many-b' });
          await insertDebt(t, { externalRequestId: 'many-c' });
          await insertDebt(sibling, { externalRequestId: 'many-d' });
          const found = await repos().debts.findByExternalRequestIds(t.company.id, ['many-b', 'many-a', 'many-d', 'many-x']);
          expect(sortById(found)).to.deep.equal([viewOf(a, t.contact, null), viewOf(b, t.contact, null)]);
        });

        it('returns nothing for no keys', async () => {
          const t = await debtTenant();
          await insertDebt(t);
          expect(await repos().debts.findByExternalRequestIds(t.company.id, [])).to.deep.equal([]);
        });
      });

      describe('lockByExternalRequestId and lockById', () => {
        it('read the debt inside a unit of work, by its key or its internal number, like findByExternalRequestId', async () => {
          const t = await debtTenant({ companies: 2 });
          const debt = await insertDebt(t, { productId: t.product.id });
          const seen = await uow().run(async (tx) => ({
            mine: await tx.debts.lockByExternalRequestId(t.company.id, debt.externalRequestId),
            mineById: await tx.debts.lockById(t.company.id, debt.id),
            unknown: await tx.debts.lockByExternalRequestId(t.company.id, `none-${uid()}`),
            unknownId: await tx.debts.lockById(t.company.id, debt.id + 1_000_000),
            foreign: await tx.debts.lockByExternalRequestId(t.companies[1]!.id, debt.externalRequestId),
            foreignById: await tx.debts.lockById(t.companies[1]!.id, debt.id),
          }));
          const view = viewOf(debt, t.contact, t.product);
          expect(seen).to.deep.equal({ mine: view, mineById: view, unknown: null, unknownId: null, foreign: null, foreignById: null });
        });

        it('serializes concurrent read-modify-write transactions on one debt (no lost update)', async () => {
          const t = await debtTenant();
          const debt = await insertDebt(t, { amountPaidCents: 0 });
          const increment = () =>
            uow().run(async (tx) => {
              const locked = (await tx.debts.lockByExternalRequestId(t.company.id, debt.externalRequestId))!;
              await tx.debts.findByExternalRequestIds(t.company.id, [debt.externalRequestId]);
              return tx.debts.update(t.company.id, locked.id, { amountPaidCents: locked.amountPaidCents + 1, updatedAt: T2 });
            });
          await Promise.all(Array.from({ length: 8 }, increment));
          expect((await find(t, debt.externalRequestId))!.amountPaidCents).to.equal(8);
        });

        it('lockById takes the lock lockByExternalRequestId takes: a transaction holding the debt by its key makes it wait, and it reads that commit', async () => {
          const t = await debtTenant();
          const debt = await insertDebt(t, { amountPaidCents: 0 });
          const outcome = await contend(
            uow(),
            contention(),
            async (tx, hold) => {
              const locked = (await tx.debts.lockByExternalRequestId(t.company.id, debt.externalRequestId))!;
              await hold();
              return tx.debts.update(t.company.id, locked.id, { amountPaidCents: 7, updatedAt: T2 });
            },
            (tx) => tx.debts.lockById(t.company.id, debt.id),
          );
          expectWaited(outcome, contention());
          expect(outcome.second?.amountPaidCents, 'it read the committed payment, not the row before it').to.equal(7);
        });
      });

      describe('update', () => {
        it('changes only the fields given, stamps updatedAt and returns the view', async () => {
          const t = await debtTenant();
          const debt = await insertDebt(t, { productId: t.product.id });
          const view = viewOf(debt, t.contact, t.product);
          const amount = await repos().debts.update(t.company.id, debt.id, { amountCents: 4_321, updatedAt: T2 });
          expect(amount).to.deep.equal({ ...view, amountCents: 4_321, updatedAt: T2 });
          const due = await repos().debts.update(t.company.id, debt.id, { dueDate: '2027-01-31', updatedAt: T1 });
          expect(due).to.deep.equal({ ...view, amountCents: 4_321, dueDate: '2027-01-31', updatedAt: T1 });
          const paid = await repos().debts.update(t.company.id, debt.id, { status: 'PARTIALLY_PAID', amountPaidCents: 30, updatedAt: T2 });
          expect(paid).to.deep.equal({ ...view, amountCents: 4_321, dueDate: '2027-01-31', status: 'PARTIALLY_PAID', amountPaidCents: 30, updatedAt: T2 });
          expect(await find(t, debt.externalRequestId)).to.deep.equal(paid);
        });

        it("rejects an update through another company's id and leaves the debt as it was", async () => {
          const t = await debtTenant({ companies: 2 });
          const debt = await insertDebt(t);
          expect(await rejectionOf(repos().debts.update(t.companies[1]!.id, debt.id, { status: 'CANCELLED', updatedAt: T2 }))).to.be.instanceOf(Error);
          expect(await find(t, debt.externalRequestId)).to.deep.equal(viewOf(debt, t.contact, null));
        });
      });

      it('records a payment without changing the debt', async () => {
        const t = await debtTenant();
        const debt = await insertDebt(t);
        await repos().debts.recordPayment(debt.id, 2_500, 'test-helper', T2);
        await uow().run((tx) => tx.debts.recordPayment(debt.id, 1, 'portal', T2));
        expect(await find(t, debt.externalRequestId)).to.deep.equal(viewOf(debt, t.contact, null));
      });

      describe('list', () => {
        it('lists newest first with total and capped false', async () => {
          const t = await debtTenant();
          const keys: string[] = [];
          for (let i = 0; i < 4; i++) keys.push((await insertDebt(t)).externalRequestId);
          const page = await list(t);
          expect(requestIds(page.items)).to.deep.equal(keys.reverse());
          expect(page.total).to.equal(4);
          expect(page.capped).to.equal(false);
          expect(page.items[0]).to.deep.equal(listedOf((await find(t, keys[0]!))!));
        });

        it('pages with page and limit, the exact total on every page, and past the end no items but the total', async () => {
          const t = await debtTenant();
          const keys: string[] = [];
          for (let i = 0; i < 5; i++) keys.push((await insertDebt(t)).externalRequestId);
          await insertDebt(t, { status: 'CANCELLED' });
          const newest = [...keys].reverse();
          const paged = (page: number, limit: number) => repos().debts.list(t.company.id, { today: '2031-05-10' }, { page, limit });
          for (const [page, expected] of [[1, newest.slice(0, 2)], [2, newest.slice(2, 4)], [3, newest.slice(4)], [4, []]] as const) {
            const result = await paged(page, 2);
            expect(requestIds(result.items), `page ${page}`).to.deep.equal(expected);
            expect(result.total, `page ${page}`).to.equal(5);
          }
          for (const status of ['PARTIALLY_PAID', 'PAID'] as const) {
            const none = await repos().debts.list(t.company.id, { today: '2031-05-10', status }, { page: 1, limit: 2 });
            expect(none).to.deep.equal({ items: [], total: 0, capped: false });
          }
        });

        it('excludes cancelled debts from items and total', async () => {
          const t = await debtTenant();
          const kept = await insertDebt(t);
          await insertDebt(t, { status: 'CANCELLED' });
          const later = await insertDebt(t);
          await repos().debts.update(t.company.id, later.id, { status: 'CANCELLED', updatedAt: T2 });
          expect(await list(t)).to.deep.equal({ items: [listedOf(viewOf(kept, t.contact, null))], total: 1, capped: false });
        });

        it('filters by effective status against `today`: PENDING past due is OVERDUE, not PENDING', async () => {
          const t = await debtTenant();
          const seed = async (key: string, status: Debt['status'], dueDate: string) => insertDebt(t, { externalRequestId: key, status, dueDate });
          await seed('pending-future', 'PENDING', '2026-06-02');
          await seed('pending-today', 'PENDING', '2026-06-01');
          await seed('pending-late', 'PENDING', '2026-05-31');
          await seed('overdue-stored', 'OVERDUE', '2026-05-01');
          await seed('partly-late', 'PARTIALLY_PAID', '2026-05-01');
          await seed('paid-late', 'PAID', '2026-05-01');
          await seed('cancelled-late', 'CANCELLED', '2026-05-01');
          expect(await listedKeys(t, { status: 'PENDING' })).to.deep.equal(['pending-today', 'pending-future']);
          expect(await listedKeys(t, { status: 'OVERDUE' })).to.deep.equal(['overdue-stored', 'pending-late']);
          expect(await listedKeys(t, { status: 'PARTIALLY_PAID' })).to.deep.equal(['partly-late']);
          expect(await listedKeys(t, { status: 'PAID' })).to.deep.equal(['paid-late']);
          expect((await list(t, { status: 'OVERDUE' })).total).to.equal(2);
          // Another `today` moves the line.
          expect(await listedKeys(t, { status: 'OVERDUE', today: '2026-06-03' })).to.deep.equal(['overdue-stored', 'pending-late', 'pending-today', 'pending-future']);
          expect(await listedKeys(t, { status: 'PENDING', today: '2026-05-01' })).to.deep.equal(['pending-late', 'pending-today', 'pending-future']);
        });

        it('filters by createdFrom and createdTo, both inclusive to the millisecond', async () => {
          const t = await debtTenant();
          const from = T1.getTime();
          const to = T2.getTime();
          for (const [key, ms] of [['before', from - 1], ['at-from', from], ['between', from + HOUR], ['at-to', to], ['after', to + 1]] as const) {
            await insertDebt(t, { externalRequestId: key, createdAt: new Date(ms), updatedAt: new Date(ms) });
          }
          expect(await listedKeys(t, { createdFrom: from, createdTo: to })).to.deep.equal(['at-to', 'between', 'at-from']);
          expect(await listedKeys(t, { createdFrom: from })).to.deep.equal(['after', 'at-to', 'between', 'at-from']);
          expect(await listedKeys(t, { createdTo: to })).to.deep.equal(['at-to', 'between', 'at-from', 'before']);
          expect(await listedKeys(t, { createdFrom: to, createdTo: to })).to.deep.equal(['at-to']);
          expect((await list(t, { createdFrom: from, createdTo: to })).total).to.equal(3);
        });

        it('pages a creation window newest first by id, whatever the creation times, with an effective status too', async () => {
          // Each debt created an hour before the one inserted ahead of it: the page's order is
          // the ids', which the window's range is sorted by once read (SqlDialect.sortedAfterRange).
          const t = await debtTenant();
          const from = T1.getTime();
          const at = (hours: number) => ({ createdAt: new Date(from + hours * HOUR), updatedAt: new Date(from + hours * HOUR) });
          await insertDebt(t, { externalRequestId: 'w-late', ...at(9) });
          for (let i = 0; i < 6; i++) {
            await insertDebt(t, { externalRequestId: `w-${i}`, dueDate: i % 2 === 0 ? '2026-07-01' : '2026-05-31', ...at(6 - i) });
          }
          await insertDebt(t, { externalRequestId: 'w-early', ...at(-1) });
          const window = { createdFrom: from, createdTo: from + 8 * HOUR };
          expect(await listedKeys(t, window)).to.deep.equal(['w-5', 'w-4', 'w-3', 'w-2', 'w-1', 'w-0']);
          const second = await list(t, window, { page: 2, limit: 2 });
          expect([requestIds(second.items), second.total]).to.deep.equal([['w-3', 'w-2'], 6]);
          expect(await listedKeys(t, { ...window, status: 'OVERDUE' })).to.deep.equal(['w-5', 'w-3', 'w-1']);
          expect(await listedKeys(t, { ...window, status: 'PENDING' })).to.deep.equal(['w-4', 'w-2', 'w-0']);
          const overdue = await list(t, { ...window, status: 'OVERDUE' }, { page: 2, limit: 2 });
          expect([requestIds(overdue.items), overdue.total]).to.deep.equal([['w-1'], 3]);
        });

        it('filters by minAmountCents and maxAmountCents, both inclusive', async () => {
          const t = await debtTenant();
          for (const cents of [99, 100, 150, 200, 201]) await insertDebt(t, { externalRequestId: `amt-${cents}`, amountCents: cents });
          expect(await listedKeys(t, { minAmountCents: 100 })).to.deep.equal(['amt-201', 'amt-200', 'amt-150', 'amt-100']);
          expect(await listedKeys(t, { maxAmountCents: 200 })).to.deep.equal(['amt-200', 'amt-150', 'amt-100', 'amt-99']);
          expect(await listedKeys(t, { minAmountCents: 100, maxAmountCents: 200 })).to.deep.equal(['amt-200', 'amt-150', 'amt-100']);
          expect(await listedKeys(t, { minAmountCents: 150, maxAmountCents: 150 })).to.deep.equal(['amt-150']);
          expect((await list(t, { minAmountCents: 100, maxAmountCents: 200 })).total).to.equal(3);
        });

        it('filters by amount with a status or without one (CANCELLED left out), newest first, page by page', async () => {
          const t = await debtTenant();
          const statuses = ['PENDING', 'PAID', 'PENDING', 'PENDING', 'PAID', 'PENDING'] as const;
          for (const [i, status] of statuses.entries()) await insertDebt(t, { externalRequestId: `amt-${i}`, amountCents: 500, status });
          await repos().debts.update(t.company.id, (await find(t, 'amt-2'))!.id, { status: 'CANCELLED', updatedAt: T2 });
          await insertDebt(t, { externalRequestId: 'amt-out', amountCents: 10_000 });
          const range = { minAmountCents: 400, maxAmountCents: 600 };
          expect(await listedKeys(t, range)).to.deep.equal(['amt-5', 'amt-4', 'amt-3', 'amt-1', 'amt-0']);
          expect(await listedKeys(t, { ...range, status: 'PAID' })).to.deep.equal(['amt-4', 'amt-1']);
          expect(await listedKeys(t, { ...range, status: 'PENDING' })).to.deep.equal(['amt-5', 'amt-3', 'amt-0']);
          expect(await listedKeys(t, { ...range, status: 'PENDING', today: '2026-06-02' })).to.deep.equal([]);
          const second = await list(t, range, { page: 2, limit: 2 });
          expect([requestIds(second.items), second.total]).to.deep.equal([['amt-3', 'amt-1'], 5]);
        });

        it("filters by the debtor's externalClientId, in the organization, past the last page too", async () => {
          const t = await debtTenant();
          const bob = await repos().contacts.insert(newContact(t.organization.id));
          await insertDebt(t, { externalRequestId: 'ana-1' });
          await insertDebt({ ...t, contact: bob }, { externalRequestId: 'bob-1' });
          await insertDebt(t, { externalRequestId: 'ana-2' });
          const debtor = (contact: { externalClientId: string }, organizationId = t.organization.id) => ({ organizationId, externalClientId: contact.externalClientId });
          expect(await listedKeys(t, { debtor: debtor(t.contact) })).to.deep.equal(['ana-2', 'ana-1']);
          expect(await listedKeys(t, { debtor: debtor(bob) })).to.deep.equal(['bob-1']);
          expect((await list(t, { debtor: debtor(bob) })).items[0]!.contact).to.deep.equal({ code: bob.code, externalClientId: bob.externalClientId });
          expect(await list(t, { debtor: debtor(t.contact) }, { page: 3, limit: 1 })).to.deep.equal({ items: [], total: 2, capped: false });
          expect(await list(t, { debtor: { organizationId: t.organization.id, externalClientId: 'nobody-here' } })).to.deep.equal({ items: [], total: 0, capped: false });
          // The same externalClientId in another organization names another contact.
          const stranger = await newTenant(repos());
          await repos().contacts.insert({ ...newContact(stranger.organization.id), externalClientId: bob.externalClientId });
          expect(await listedKeys(t, { debtor: debtor(bob, stranger.organization.id) })).to.deep.equal([]);
        });

        it('filters by batchId', async () => {
          const t = await debtTenant();
          await insertDebt(t, { externalRequestId: 'b-1', batchId: 'bat_one' });
          await insertDebt(t, { externalRequestId: 'single', batchId: null });
          await insertDebt(t, { externalRequestId: 'b-2', batchId: 'bat_one' });
          await insertDebt(t, { externalRequestId: 'c-1', batchId: 'bat_two' });
          expect(await listedKeys(t, { batchId: 'bat_one' })).to.deep.equal(['b-2', 'b-1']);
          expect(await listedKeys(t, { batchId: 'bat_two' })).to.deep.equal(['c-1']);
          expect(await listedKeys(t, { batchId: 'bat_none' })).to.deep.equal([]);
        });

        it('combines filters with AND', async () => {
          const t = await debtTenant();
          await insertDebt(t, { externalRequestId: 'match', amountCents: 500, batchId: 'bat_and' });
          await insertDebt(t, { externalRequestId: 'small', amountCents: 5, batchId: 'bat_and' });
          await insertDebt(t, { externalRequestId: 'late', amountCents: 500, batchId: 'bat_and', dueDate: '2026-01-01' });
          await insertDebt(t, { externalRequestId: 'other-batch', amountCents: 500, batchId: 'bat_or' });
          const page = await list(t, { status: 'PENDING', minAmountCents: 100, batchId: 'bat_and', debtor: { organizationId: t.organization.id, externalClientId: t.contact.externalClientId }, createdFrom: T1.getTime() });
          expect(requestIds(page.items)).to.deep.equal(['match']);
          expect(page.total).to.equal(1);
        });

        it('pages with page and limit, past the end giving no items but the total', async () => {
          const t = await debtTenant();
          const keys: string[] = [];
          for (let i = 0; i < 5; i++) keys.push((await insertDebt(t)).externalRequestId);
          keys.reverse();
          const paged = (page: number, limit: number) => list(t, {}, { page, limit });
          expect(requestIds((await paged(1, 2)).items)).to.deep.equal([keys[0], keys[1]]);
          expect(requestIds((await paged(2, 2)).items)).to.deep.equal([keys[2], keys[3]]);
          expect(requestIds((await paged(3, 2)).items)).to.deep.equal([keys[4]]);
          expect(await paged(4, 2)).to.deep.equal({ items: [], total: 5, capped: false });
          expect((await paged(2, 2)).total).to.equal(5);
          expect(requestIds((await paged(1, 500)).items)).to.deep.equal(keys);
        });

        it("never lists another company's debts", async () => {
          const t = await debtTenant({ companies: 2 });
          await insertDebt(t, { batchId: 'bat_iso' });
          const sibling = { company: t.companies[1]! };
          expect(await list(sibling)).to.deep.equal({ items: [], total: 0, capped: false });
          expect(await list(sibling, { batchId: 'bat_iso', debtor: { organizationId: t.organization.id, externalClientId: t.contact.externalClientId } })).to.deep.equal({ items: [], total: 0, capped: false });
        });
      });

      describe('markOverdue', () => {
        it("marks the organization's PENDING debts due before today, in every company, and says how many", async () => {
          const t = await debtTenant({ companies: 2 });
          const sibling = { ...t, company: t.companies[1]! };
          const seed = (fixture: DebtFixture, key: string, status: Debt['status'], dueDate: string) =>
            insertDebt(fixture, { externalRequestId: key, status, dueDate });
          await seed(t, 'late-a', 'PENDING', '2026-05-31');
          await seed(sibling, 'late-b', 'PENDING', '2026-01-01');
          await seed(t, 'due-today', 'PENDING', '2026-06-01');
          await seed(t, 'future', 'PENDING', '2026-07-01');
          await seed(t, 'partly', 'PARTIALLY_PAID', '2026-05-01');
          await seed(t, 'paid', 'PAID', '2026-05-01');
          await seed(t, 'cancelled', 'CANCELLED', '2026-05-01');
          await seed(t, 'already', 'OVERDUE', '2026-05-01');

          const marked = await uow().run((tx) => tx.debts.markOverdue(t.organization.id, '2026-06-01', T2, 100));
          expect(marked.map((d) => [d.externalRequestId, d.status, d.updatedAt])).to.have.deep.members([
            ['late-a', 'OVERDUE', T2],
            ['late-b', 'OVERDUE', T2],
          ]);
          const state = async (fixture: { company: Company }, key: string) => {
            const d = (await find(fixture, key))!;
            return { status: d.status, updatedAt: d.updatedAt };
          };
          expect(await state(t, 'late-a')).to.deep.equal({ status: 'OVERDUE', updatedAt: T2 });
          expect(await state(sibling, 'late-b')).to.deep.equal({ status: 'OVERDUE', updatedAt: T2 });
          for (const [key, status] of [['due-today', 'PENDING'], ['future', 'PENDING'], ['partly', 'PARTIALLY_PAID'], ['paid', 'PAID'], ['cancelled', 'CANCELLED'], ['already', 'OVERDUE']]) {
            expect(await state(t, key!), key).to.deep.equal({ status, updatedAt: T1 });
          }
          expect(await uow().run((tx) => tx.debts.markOverdue(t.organization.id, '2026-06-01', T2, 100))).to.deep.equal([]);
        });

        it('marks at most `limit` debts per call, so a caller works through them in bounded transactions', async () => {
          const t = await debtTenant();
          for (const key of ['l-1', 'l-2', 'l-3']) await insertDebt(t, { externalRequestId: key, dueDate: '2026-05-01' });
          const first = await uow().run((tx) => tx.debts.markOverdue(t.organization.id, '2026-06-01', T2, 2));
          const second = await uow().run((tx) => tx.debts.markOverdue(t.organization.id, '2026-06-01', T2, 2));
          expect(first).to.have.length(2);
          expect(second).to.have.length(1);
          expect([...first, ...second].map((d) => d.externalRequestId).sort()).to.deep.equal(['l-1', 'l-2', 'l-3']);
        });

        it('marks the earliest due first (then by id), and answers them by id', async () => {
          const t = await debtTenant();
          for (const [key, dueDate] of [['late', '2026-05-20'], ['early', '2026-05-01'], ['middle', '2026-05-10'], ['early-too', '2026-05-01']] as const) {
            await insertDebt(t, { externalRequestId: key, dueDate });
          }
          const keys = (debts: DebtView[]) => debts.map((d) => d.externalRequestId);
          expect(keys(await uow().run((tx) => tx.debts.markOverdue(t.organization.id, '2026-06-01', T2, 2)))).to.deep.equal(['early', 'early-too']);
          expect(keys(await uow().run((tx) => tx.debts.markOverdue(t.organization.id, '2026-06-01', T2, 2)))).to.deep.equal(['late', 'middle']);
        });

        it('counts a debt cancelled by two transactions at once out of the unfiltered total once', async () => {
          const t = await debtTenant();
          const debt = await insertDebt(t, { externalRequestId: `twice-${uid()}` });
          await insertDebt(t, { externalRequestId: `kept-${uid()}` });
          const cancel = (tx: Repositories) => tx.debts.update(t.company.id, debt.id, { status: 'CANCELLED', updatedAt: T2 });
          await contend(
            uow(),
            contention(),
            async (tx, hold) => {
              await cancel(tx);
              await hold();
            },
            cancel,
          );
          expect((await list(t)).total, 'the other debt only').to.equal(1);
        });

        it('hands each due debt to exactly one of two concurrent runs (the rows stay locked until the first commits)', async () => {
          const t = await debtTenant();
          const due: Debt[] = [];
          for (const key of ['c-1', 'c-2', 'c-3']) due.push(await insertDebt(t, { externalRequestId: key, dueDate: '2026-05-01' }));
          const mark = (tx: Repositories) => tx.debts.markOverdue(t.organization.id, '2026-06-01', T2, 100);
          const outcome = await contend(
            uow(),
            contention(),
            async (tx, hold) => {
              const marked = await mark(tx);
              await hold();
              return marked;
            },
            mark,
          );
          expect(outcome.first.map((d) => d.id), 'the first run takes every due debt').to.deep.equal(due.map((d) => d.id));
          expect(outcome.second, 'the second finds none left: it never marks a debt twice').to.deep.equal([]);
          for (const d of due) expect((await find(t, d.externalRequestId))!.status).to.equal('OVERDUE');
        });

        it('serializes with a concurrent payment holding the debt: one of them wins, neither overwrites the other', async () => {
          const t = await debtTenant();
          const debt = await insertDebt(t, { dueDate: '2026-05-01' });
          // A payment: lock, and pay only what is still unpaid. (Should the two deadlock, the unit
          // of work runs the loser again, which reads what the winner committed.)
          const outcome = await contend(
            uow(),
            contention(),
            async (tx, hold) => {
              const locked = (await tx.debts.lockByExternalRequestId(t.company.id, debt.externalRequestId))!;
              await hold();
              if (locked.status !== 'PENDING') return locked.status;
              await tx.debts.update(t.company.id, locked.id, { status: 'PAID', amountPaidCents: locked.amountCents, updatedAt: T2 });
              return 'PAID';
            },
            (tx) => tx.debts.markOverdue(t.organization.id, '2026-06-01', T2, 100),
          );
          const stored = (await find(t, debt.externalRequestId))!;
          if (outcome.first === 'PAID') {
            expect(outcome.second, 'paid first: markOverdue finds it no longer PENDING').to.deep.equal([]);
            expect(stored).to.deep.include({ status: 'PAID', amountPaidCents: debt.amountCents });
          } else {
            expect(outcome.first, 'marked first: the payment reads OVERDUE').to.equal('OVERDUE');
            expect(outcome.second.map((d) => d.id)).to.deep.equal([debt.id]);
            expect(stored).to.deep.include({ status: 'OVERDUE', amountPaidCents: 0 });
          }
        });

        it("leaves other organizations' debts alone", async () => {
          const mine = await debtTenant();
          const other = await debtTenant();
          await insertDebt(mine, { externalRequestId: 'late', dueDate: '2026-05-01' });
          await insertDebt(other, { externalRequestId: 'late', dueDate: '2026-05-01' });
          expect(await uow().run((tx) => tx.debts.markOverdue(mine.organization.id, '2026-06-01', T2, 100))).to.have.length(1);
          expect((await find(other, 'late'))!.status).to.equal('PENDING');
          expect((await find(mine, 'late'))!.status).to.equal('OVERDUE');
        });
      });
    });

    describe('PaymentLinkRepository', () => {
      /** A tenant with a contact and a product a link may reference. */
      async function linkTenant(options: { companies?: number } = {}): Promise<DebtFixture> {
        const tenant = await newTenant(repos(), options);
        const contact = await repos().contacts.insert(newContact(tenant.organization.id));
        const product = await repos().products.insert(newProduct(tenant.company, { name: `Plan ${uid()}` }));
        return { ...tenant, contact, product };
      }

      const insertLink = (t: { organization: Organization; company: Company }, overrides: Partial<NewPaymentLink> = {}) =>
        repos().paymentLinks.insert(newLink(t, overrides));
      const findLink = (t: { company: Company }, code: string) => repos().paymentLinks.findByCode(t.company.id, code);
      const listLinks = (t: { company: Company }, filter: Partial<PaymentLinkFilter> = {}, page = PAGE) =>
        repos().paymentLinks.list(t.company.id, { now: T2, ...filter }, page);
      const listedLabels = async (t: { company: Company }, filter: Partial<PaymentLinkFilter> = {}) => labels((await listLinks(t, filter)).items);
      /** The filter by an externalPaymentLinkId of t's organization. */
      const keyOf = (t: { organization: Organization }, externalPaymentLinkId: string) => ({ organizationId: t.organization.id, externalPaymentLinkId });
      /** Inserts one link per label, in order, each with the overrides given for it. */
      async function seedLinks(t: TenantFixture, rows: [string, Partial<NewPaymentLink>][]): Promise<PaymentLink[]> {
        const stored: PaymentLink[] = [];
        for (const [label, overrides] of rows) stored.push(await insertLink(t, { description: label, ...overrides }));
        return stored;
      }

      it('round-trips a link: exact cents, dates to the millisecond, JSON metadata, booleans, every nullable field set', async () => {
        const t = await linkTenant();
        const input = newLink(t, {
          externalPaymentLinkId: `Order.1:a_b-${uid()}`,
          status: 'PAID',
          amountCents: 1_234_567_891,
          currency: 'CLP',
          description: 'Cuota "única" de José; O\'Brien \\ 📱',
          singleUse: false,
          expiresAt: at('2031-12-31T23:59:59.999Z'),
          successUrl: 'https://shop.example.com/thanks?order=1&name=%C3%B1',
          metadata: { ref: 'Ñandú "q" \'s\'', amount: 12.5, count: 3, vip: true, none: null },
          identifierValue: 'mi-pago-unico-01',
          urlIdentifier: 'mi-pago-unico-01',
          shortCode: `S${uid()}`,
          productId: t.product.id,
          productCreatedInline: true,
          contactId: t.contact.id,
          paymentsCount: 7,
          createdAt: T1,
          updatedAt: T2,
        });
        const inserted = await repos().paymentLinks.insert(input);
        expect(inserted).to.deep.equal({ ...input, id: inserted.id });
        expect(inserted.id).to.be.a('number');
        const view = linkViewOf(inserted, t.product);
        expect(await findLink(t, input.code)).to.deep.equal(view);
        expect(await repos().paymentLinks.findByExternalPaymentLinkId(t.organization.id, input.externalPaymentLinkId!)).to.deep.equal(view);
      });

      it('round-trips a link with every nullable field null, singleUse true and productCreatedInline false', async () => {
        const t = await linkTenant();
        const input = newLink(t, { expiresAt: null, identifierValue: null });
        const inserted = await repos().paymentLinks.insert(input);
        expect(inserted).to.deep.equal({ ...input, id: inserted.id });
        const found = await findLink(t, input.code);
        expect(found).to.deep.equal(linkViewOf(inserted));
        expect(found).to.deep.include({
          externalPaymentLinkId: null,
          expiresAt: null,
          successUrl: null,
          metadata: null,
          identifierValue: null,
          shortCode: null,
          productId: null,
          contactId: null,
          product: null,
          singleUse: true,
          productCreatedInline: false,
        });
      });

      it('keeps cents exact up to the largest safe integer, and an empty metadata object', async () => {
        const t = await linkTenant();
        const big = await insertLink(t, { amountCents: Number.MAX_SAFE_INTEGER, metadata: {} });
        const tiny = await insertLink(t, { amountCents: 1 });
        expect(await findLink(t, big.code)).to.deep.include({ amountCents: Number.MAX_SAFE_INTEGER, metadata: {} });
        expect((await findLink(t, tiny.code))!.amountCents).to.equal(1);
      });

      it('shows the embedded product as it is now (renamed, deactivated)', async () => {
        const t = await linkTenant();
        const link = await insertLink(t, { productId: t.product.id });
        await repos().products.rename(t.company.id, t.product.id, `Renamed ${uid()}`);
        await repos().products.deactivate(t.company.id, t.product.id);
        const product = (await repos().products.findById(t.company.id, t.product.id))!;
        expect((await findLink(t, link.code))!.product).to.deep.equal({ id: product.id, name: product.name, active: false });
      });

      it('rejects a duplicate externalPaymentLinkId in the organization with ConflictError, in any of its companies, keeping the first', async () => {
        const t = await linkTenant({ companies: 2 });
        const sibling = { ...t, company: t.companies[1]! };
        const first = await insertLink(t, { externalPaymentLinkId: 'dup-key', amountCents: 100 });
        await expectConflict(insertLink(t, { externalPaymentLinkId: 'dup-key', amountCents: 200 }));
        await expectConflict(insertLink(sibling, { externalPaymentLinkId: 'dup-key', amountCents: 300 }));
        expect(await repos().paymentLinks.findByExternalPaymentLinkId(t.organization.id, 'dup-key')).to.deep.equal(linkViewOf(first));
        expect((await listLinks(t)).total).to.equal(1);
        expect((await listLinks(sibling)).total).to.equal(0);
      });

      it('accepts many links without externalPaymentLinkId', async () => {
        const t = await linkTenant();
        const a = await insertLink(t, { externalPaymentLinkId: null });
        const b = await insertLink(t, { externalPaymentLinkId: null });
        expect(a.id).to.not.equal(b.id);
        expect((await listLinks(t)).total).to.equal(2);
      });

      it('accepts the same externalPaymentLinkId in another organization', async () => {
        const a = await linkTenant();
        const b = await linkTenant();
        const mine = await insertLink(a, { externalPaymentLinkId: 'shared-key' });
        const theirs = await insertLink(b, { externalPaymentLinkId: 'shared-key' });
        expect((await repos().paymentLinks.findByExternalPaymentLinkId(a.organization.id, 'shared-key'))!.id).to.equal(mine.id);
        expect((await repos().paymentLinks.findByExternalPaymentLinkId(b.organization.id, 'shared-key'))!.id).to.equal(theirs.id);
      });

      it('treats externalPaymentLinkIds as case-sensitive', async () => {
        const t = await linkTenant();
        const upper = await insertLink(t, { externalPaymentLinkId: 'Key-A' });
        const lower = await insertLink(t, { externalPaymentLinkId: 'key-a' });
        expect((await repos().paymentLinks.findByExternalPaymentLinkId(t.organization.id, 'Key-A'))!.id).to.equal(upper.id);
        expect((await repos().paymentLinks.findByExternalPaymentLinkId(t.organization.id, 'key-a'))!.id).to.equal(lower.id);
        expect(await repos().paymentLinks.findByExternalPaymentLinkId(t.organization.id, 'KEY-A')).to.equal(null);
      });

      it('rejects a duplicate code with ConflictError, even in another organization', async () => {
        const a = await linkTenant();
        const b = await linkTenant();
        const first = await insertLink(a);
        await expectConflict(insertLink(b, { code: first.code }));
        expect(await findLink(b, first.code)).to.equal(null);
        expect(await findLink(a, first.code)).to.deep.equal(linkViewOf(first));
      });

      it('finds by code only in the company that owns the link', async () => {
        const t = await linkTenant({ companies: 2 });
        const other = await linkTenant();
        const link = await insertLink(t);
        expect(await findLink({ company: t.companies[1]! }, link.code)).to.equal(null);
        expect(await findLink(other, link.code)).to.equal(null);
        expect(await findLink(t, `none${uid()}`)).to.equal(null);
        expect(await findLink(t, link.code.toLowerCase())).to.equal(null);
      });

      it('finds by externalPaymentLinkId in any company of the organization, never in another organization', async () => {
        const t = await linkTenant({ companies: 2 });
        const other = await linkTenant();
        const link = await insertLink({ ...t, company: t.companies[1]! }, { externalPaymentLinkId: 'org-wide' });
        expect(await repos().paymentLinks.findByExternalPaymentLinkId(t.organization.id, 'org-wide')).to.deep.equal(linkViewOf(link));
        expect(await repos().paymentLinks.findByExternalPaymentLinkId(other.organization.id, 'org-wide')).to.equal(null);
        expect(await repos().paymentLinks.findByExternalPaymentLinkId(t.organization.id, 'org-wid')).to.equal(null);
      });

      describe('lockByCode', () => {
        it('reads the link inside a unit of work, like findByCode', async () => {
          const t = await linkTenant({ companies: 2 });
          const link = await insertLink(t, { productId: t.product.id });
          const seen = await uow().run(async (tx) => ({
            mine: await tx.paymentLinks.lockByCode(t.company.id, link.code),
            unknown: await tx.paymentLinks.lockByCode(t.company.id, `none${uid()}`),
            foreign: await tx.paymentLinks.lockByCode(t.companies[1]!.id, link.code),
          }));
          expect(seen).to.deep.equal({ mine: linkViewOf(link, t.product), unknown: null, foreign: null });
        });

        it('serializes concurrent read-modify-write transactions on one link (no lost update)', async () => {
          const t = await linkTenant();
          const link = await insertLink(t);
          const increment = () =>
            uow().run(async (tx) => {
              const locked = (await tx.paymentLinks.lockByCode(t.company.id, link.code))!;
              await tx.paymentLinks.findByCode(t.company.id, link.code);
              return tx.paymentLinks.update(t.company.id, locked.id, { paymentsCount: locked.paymentsCount + 1, updatedAt: T2 });
            });
          await Promise.all(Array.from({ length: 8 }, increment));
          expect((await findLink(t, link.code))!.paymentsCount).to.equal(8);
        });
      });

      describe('lockById', () => {
        it('reads the link inside a unit of work, like findById, in its company only', async () => {
          const t = await linkTenant({ companies: 2 });
          const link = await insertLink(t, { productId: t.product.id });
          const seen = await uow().run(async (tx) => ({
            mine: await tx.paymentLinks.lockById(t.company.id, link.id),
            unknown: await tx.paymentLinks.lockById(t.company.id, 2_000_000_000),
            foreign: await tx.paymentLinks.lockById(t.companies[1]!.id, link.id),
          }));
          expect(seen).to.deep.equal({ mine: linkViewOf(link, t.product), unknown: null, foreign: null });
          expect(seen.mine).to.deep.equal(await repos().paymentLinks.findById(t.company.id, link.id));
        });

        it('holds a second locker until the first commits: it reads the first one\'s write (no lost update)', async () => {
          const t = await linkTenant();
          const link = await insertLink(t, { singleUse: false });
          const pay = async (tx: Repositories) => {
            const locked = (await tx.paymentLinks.lockById(t.company.id, link.id))!;
            return { seen: locked.paymentsCount, after: await tx.paymentLinks.update(t.company.id, locked.id, { paymentsCount: locked.paymentsCount + 1, updatedAt: T2 }) };
          };
          const outcome = await contend(
            uow(),
            contention(),
            async (tx, hold) => {
              const locked = (await tx.paymentLinks.lockById(t.company.id, link.id))!;
              await hold();
              return tx.paymentLinks.update(t.company.id, locked.id, { paymentsCount: locked.paymentsCount + 1, updatedAt: T2 });
            },
            pay,
          );
          expectWaited(outcome, contention());
          expect(outcome.second.seen, 'the second locker reads the first one\'s committed count').to.equal(1);
          expect((await findLink(t, link.code))!.paymentsCount).to.equal(2);
        });
      });

      describe('update', () => {
        it('changes only the fields given, stamps updatedAt and returns the view', async () => {
          const t = await linkTenant();
          const link = await insertLink(t, { productId: t.product.id, metadata: { a: 1, b: 'two' } });
          let expected = linkViewOf(link, t.product);
          const steps: PaymentLinkChanges[] = [
            { description: 'New description "ñ"', updatedAt: T2 },
            { expiresAt: at('2032-01-02T03:04:05.678Z'), updatedAt: T1 },
            { metadata: { c: true }, updatedAt: T2 },
            { status: 'CANCELLED', updatedAt: T1 },
            { paymentsCount: 3, updatedAt: T2 },
          ];
          for (const changes of steps) {
            expected = { ...expected, ...changes };
            const updated = await repos().paymentLinks.update(t.company.id, link.id, changes);
            expect(updated, JSON.stringify(changes)).to.deep.equal(expected);
          }
          expect(await findLink(t, link.code)).to.deep.equal(expected);
          expect(expected.metadata).to.deep.equal({ c: true });
        });

        it("rejects an update through another company's id and leaves the link as it was", async () => {
          const t = await linkTenant({ companies: 2 });
          const link = await insertLink(t);
          expect(await rejectionOf(repos().paymentLinks.update(t.companies[1]!.id, link.id, { status: 'CANCELLED', updatedAt: T2 }))).to.be.instanceOf(Error);
          expect(await findLink(t, link.code)).to.deep.equal(linkViewOf(link));
        });
      });

      describe('list', () => {
        it('sorts by externalPaymentLinkId descending (byte order), links without one last and newest first, with total and capped false', async () => {
          const t = await linkTenant();
          const stored = await seedLinks(t, [
            ['none-1', {}],
            ['b', { externalPaymentLinkId: 'b' }],
            ['a10', { externalPaymentLinkId: 'a10' }],
            ['none-2', {}],
            ['C', { externalPaymentLinkId: 'C' }],
            ['a9', { externalPaymentLinkId: 'a9' }],
            ['B', { externalPaymentLinkId: 'B' }],
            ['none-3', {}],
          ]);
          const page = await listLinks(t);
          expect(labels(page.items)).to.deep.equal(['b', 'a9', 'a10', 'C', 'B', 'none-3', 'none-2', 'none-1']);
          expect(page.total).to.equal(8);
          expect(page.capped).to.equal(false);
          expect(page.items[0]).to.deep.equal(linkViewOf(stored[1]!));
        });

        it('pages with page and limit, past the end giving no items but the total', async () => {
          const t = await linkTenant();
          await seedLinks(t, [['k1', { externalPaymentLinkId: 'k1' }], ['k2', { externalPaymentLinkId: 'k2' }], ['k3', { externalPaymentLinkId: 'k3' }], ['none', {}], ['k5', { externalPaymentLinkId: 'k5' }]]);
          const paged = (page: number, limit: number) => listLinks(t, {}, { page, limit });
          expect(labels((await paged(1, 2)).items)).to.deep.equal(['k5', 'k3']);
          expect(labels((await paged(2, 2)).items)).to.deep.equal(['k2', 'k1']);
          expect(labels((await paged(3, 2)).items)).to.deep.equal(['none']);
          expect(await paged(4, 2)).to.deep.equal({ items: [], total: 5, capped: false });
          expect((await paged(2, 2)).total).to.equal(5);
        });

        it('filters by effective status at `now`: ACTIVE at or past expiresAt is EXPIRED, not ACTIVE', async () => {
          const t = await linkTenant();
          const now = T2.getTime();
          await seedLinks(t, [
            ['active-future', { expiresAt: new Date(now + 1) }],
            ['active-at-now', { expiresAt: new Date(now) }],
            ['active-past', { expiresAt: new Date(now - 1) }],
            ['active-forever', { expiresAt: null }],
            ['expired-stored', { status: 'EXPIRED', expiresAt: new Date(now - HOUR) }],
            ['paid-past', { status: 'PAID', expiresAt: new Date(now - HOUR) }],
            ['cancelled-past', { status: 'CANCELLED', expiresAt: new Date(now - HOUR) }],
          ]);
          expect(await listedLabels(t, { status: 'ACTIVE' })).to.deep.equal(['active-forever', 'active-future']);
          expect(await listedLabels(t, { status: 'EXPIRED' })).to.deep.equal(['expired-stored', 'active-past', 'active-at-now']);
          expect(await listedLabels(t, { status: 'PAID' })).to.deep.equal(['paid-past']);
          expect(await listedLabels(t, { status: 'CANCELLED' })).to.deep.equal(['cancelled-past']);
          expect((await listLinks(t, { status: 'EXPIRED' })).total).to.equal(3);
          expect((await listLinks(t)).total).to.equal(7);
          // Another `now` moves the line.
          expect(await listedLabels(t, { status: 'ACTIVE', now: new Date(now - 1) })).to.deep.equal(['active-forever', 'active-at-now', 'active-future']);
          expect(await listedLabels(t, { status: 'EXPIRED', now: new Date(now + 1) })).to.deep.equal(['expired-stored', 'active-past', 'active-at-now', 'active-future']);
        });

        it('filters by externalPaymentLinkId (of the organization named with it) and by code, exactly', async () => {
          const t = await linkTenant();
          const other = await linkTenant();
          const [one] = await seedLinks(t, [['one', { externalPaymentLinkId: 'ord-1' }], ['ten', { externalPaymentLinkId: 'ord-10' }], ['none', {}]]);
          expect(await listedLabels(t, { key: keyOf(t, 'ord-1') })).to.deep.equal(['one']);
          expect(await listedLabels(t, { key: keyOf(t, 'ORD-1') })).to.deep.equal([]);
          expect(await listedLabels(t, { key: keyOf(t, 'ord') })).to.deep.equal([]);
          expect(await listedLabels(t, { key: keyOf(other, 'ord-1') })).to.deep.equal([]);
          expect(await listedLabels(t, { code: one!.code })).to.deep.equal(['one']);
          expect(await listedLabels(t, { code: one!.code.slice(0, -1) })).to.deep.equal([]);
          expect((await listLinks(t, { code: one!.code })).total).to.equal(1);
          // A later page of a key is empty and still counts its link; another page size holds it the same.
          for (const filter of [{ key: keyOf(t, 'ord-1') }, { code: one!.code }]) {
            expect(await listLinks(t, filter, { page: 2, limit: 1 })).to.deep.equal({ items: [], total: 1, capped: false });
            expect(labels((await listLinks(t, filter, { page: 1, limit: 1 })).items)).to.deep.equal(['one']);
          }
          expect(await listLinks(t, { key: keyOf(t, 'ord-2') }, { page: 2, limit: 1 })).to.deep.equal({ items: [], total: 0, capped: false });
        });

        it('filters by createdFrom and createdTo, both inclusive to the millisecond', async () => {
          const t = await linkTenant();
          const from = T1.getTime();
          const to = T2.getTime();
          await seedLinks(
            t,
            ([['before', from - 1], ['at-from', from], ['between', from + HOUR], ['at-to', to], ['after', to + 1]] as const).map(([label, ms]) => [
              label,
              { createdAt: new Date(ms), updatedAt: new Date(ms) },
            ]),
          );
          expect(await listedLabels(t, { createdFrom: from, createdTo: to })).to.deep.equal(['at-to', 'between', 'at-from']);
          expect(await listedLabels(t, { createdFrom: from })).to.deep.equal(['after', 'at-to', 'between', 'at-from']);
          expect(await listedLabels(t, { createdTo: to })).to.deep.equal(['at-to', 'between', 'at-from', 'before']);
          expect(await listedLabels(t, { createdFrom: to, createdTo: to })).to.deep.equal(['at-to']);
          expect(await listedLabels(t, { createdFrom: to + 2 })).to.deep.equal([]);
          expect((await listLinks(t, { createdFrom: from, createdTo: to })).total).to.equal(3);
        });

        it('combines filters with AND', async () => {
          const t = await linkTenant();
          const later = at('2031-01-01T00:00:00.000Z');
          await seedLinks(t, [
            ['match', { externalPaymentLinkId: 'and-1', createdAt: T2, expiresAt: later }],
            ['too-old', { externalPaymentLinkId: 'and-2', createdAt: T1, expiresAt: later }],
            ['expired', { createdAt: T2, expiresAt: T1 }],
            ['paid', { status: 'PAID', createdAt: T2, expiresAt: later }],
          ]);
          expect(await listedLabels(t, { status: 'ACTIVE' })).to.deep.equal(['too-old', 'match']);
          expect(await listedLabels(t, { createdFrom: T2.getTime() })).to.deep.equal(['match', 'paid', 'expired']);
          const page = await listLinks(t, { status: 'ACTIVE', createdFrom: T2.getTime() });
          expect(labels(page.items)).to.deep.equal(['match']);
          expect(page.total).to.equal(1);
          expect(await listedLabels(t, { status: 'ACTIVE', createdFrom: T2.getTime(), key: keyOf(t, 'and-1') })).to.deep.equal(['match']);
          expect(await listLinks(t, { status: 'ACTIVE', createdFrom: T2.getTime(), key: keyOf(t, 'and-2') })).to.deep.equal({ items: [], total: 0, capped: false });
        });

        it("never lists another company's links", async () => {
          const t = await linkTenant({ companies: 2 });
          const link = await insertLink(t, { externalPaymentLinkId: 'iso' });
          const sibling = { company: t.companies[1]! };
          expect(await listLinks(sibling)).to.deep.equal({ items: [], total: 0, capped: false });
          expect(await listLinks(sibling, { key: keyOf(t, 'iso'), code: link.code, status: 'ACTIVE' })).to.deep.equal({ items: [], total: 0, capped: false });
          expect(await listLinks(sibling, { key: keyOf(t, 'iso') })).to.deep.equal({ items: [], total: 0, capped: false });
        });
      });

      describe('markExpired', () => {
        it("marks the organization's ACTIVE links at or past `now`, in every company, and returns them as they now read", async () => {
          const t = await linkTenant({ companies: 2 });
          const sibling = { ...t, company: t.companies[1]! };
          const now = T2.getTime();
          const [pastA, atNow, future, forever, paid, cancelled, expired] = await seedLinks(t, [
            ['past-a', { expiresAt: new Date(now - HOUR) }],
            ['at-now', { expiresAt: new Date(now) }],
            ['future', { expiresAt: new Date(now + 1) }],
            ['forever', { expiresAt: null }],
            ['paid', { status: 'PAID', expiresAt: new Date(now - HOUR) }],
            ['cancelled', { status: 'CANCELLED', expiresAt: new Date(now - HOUR) }],
            ['expired', { status: 'EXPIRED', expiresAt: new Date(now - HOUR) }],
          ]);
          const pastB = await insertLink(sibling, { expiresAt: new Date(now - 1) });

          const marked = await repos().paymentLinks.markExpired(t.organization.id, T2, 100);
          expect(marked.map((l) => [l.code, l.status, l.updatedAt])).to.deep.equal(
            [pastA!, atNow!, pastB].sort((a, b) => a.id - b.id).map((l) => [l.code, 'EXPIRED', T2]),
          );
          const state = async (fixture: { company: Company }, link: PaymentLink) => {
            const found = (await findLink(fixture, link.code))!;
            return { status: found.status, updatedAt: found.updatedAt };
          };
          for (const link of [pastA!, atNow!]) expect(await state(t, link), link.description).to.deep.equal({ status: 'EXPIRED', updatedAt: T2 });
          expect(await state(sibling, pastB)).to.deep.equal({ status: 'EXPIRED', updatedAt: T2 });
          for (const [link, status] of [[future!, 'ACTIVE'], [forever!, 'ACTIVE'], [paid!, 'PAID'], [cancelled!, 'CANCELLED'], [expired!, 'EXPIRED']] as const) {
            expect(await state(t, link), link.description).to.deep.equal({ status, updatedAt: T1 });
          }
          expect(await repos().paymentLinks.markExpired(t.organization.id, T2, 100)).to.deep.equal([]);
        });

        it('marks at most `limit` links, oldest first; the next call takes the rest', async () => {
          const t = await linkTenant();
          const links = await seedLinks(t, [
            ['one', { expiresAt: T1 }],
            ['two', { expiresAt: T1 }],
            ['three', { expiresAt: T1 }],
          ]);
          expect((await repos().paymentLinks.markExpired(t.organization.id, T2, 2)).map((l) => l.code)).to.deep.equal([links[0]!.code, links[1]!.code]);
          expect((await repos().paymentLinks.markExpired(t.organization.id, T2, 2)).map((l) => l.code)).to.deep.equal([links[2]!.code]);
        });

        it('marks the earliest to expire first (then by id), and answers them by id', async () => {
          const t = await linkTenant();
          const links = await seedLinks(t, [
            ['late', { expiresAt: new Date(T1.getTime() + 2 * HOUR) }],
            ['early', { expiresAt: T1 }],
            ['middle', { expiresAt: new Date(T1.getTime() + HOUR) }],
          ]);
          expect((await repos().paymentLinks.markExpired(t.organization.id, T2, 2)).map((l) => l.code)).to.deep.equal([links[1]!.code, links[2]!.code]);
          expect((await repos().paymentLinks.markExpired(t.organization.id, T2, 2)).map((l) => l.code)).to.deep.equal([links[0]!.code]);
        });

        it('hands each expired link to exactly one of two concurrent runs (the rows stay locked until the first commits)', async () => {
          const t = await linkTenant();
          const links = await seedLinks(t, [
            ['c-1', { expiresAt: T1 }],
            ['c-2', { expiresAt: T1 }],
          ]);
          const expire = (tx: Repositories) => tx.paymentLinks.markExpired(t.organization.id, T2, 100);
          const outcome = await contend(
            uow(),
            contention(),
            async (tx, hold) => {
              const marked = await expire(tx);
              await hold();
              return marked;
            },
            expire,
          );
          expect(outcome.first.map((l) => l.code)).to.deep.equal(links.map((l) => l.code));
          expect(outcome.second, 'the second finds none left: it never expires a link twice').to.deep.equal([]);
        });

        it('serializes with a concurrent payment holding the link: one of them wins, neither overwrites the other', async () => {
          const t = await linkTenant();
          const link = await insertLink(t, { expiresAt: T1 });
          const outcome = await contend(
            uow(),
            contention(),
            async (tx, hold) => {
              const locked = (await tx.paymentLinks.lockByCode(t.company.id, link.code))!;
              await hold();
              if (locked.status !== 'ACTIVE') return locked.status;
              await tx.paymentLinks.update(t.company.id, locked.id, { status: 'PAID', paymentsCount: 1, updatedAt: T2 });
              return 'PAID';
            },
            (tx) => tx.paymentLinks.markExpired(t.organization.id, T2, 100),
          );
          const stored = (await findLink(t, link.code))!;
          if (outcome.first === 'PAID') {
            expect(outcome.second, 'paid first: markExpired finds it no longer ACTIVE').to.deep.equal([]);
            expect(stored).to.deep.include({ status: 'PAID', paymentsCount: 1 });
          } else {
            expect(outcome.first, 'expired first: the payment reads EXPIRED').to.equal('EXPIRED');
            expect(outcome.second.map((l) => l.code)).to.deep.equal([link.code]);
            expect(stored).to.deep.include({ status: 'EXPIRED', paymentsCount: 0 });
          }
        });

        it("leaves other organizations' links alone", async () => {
          const mine = await linkTenant();
          const other = await linkTenant();
          const a = await insertLink(mine, { expiresAt: T1 });
          const b = await insertLink(other, { expiresAt: T1 });
          expect((await repos().paymentLinks.markExpired(mine.organization.id, T2, 100)).map((l) => l.code)).to.deep.equal([a.code]);
          expect((await findLink(mine, a.code))!.status).to.equal('EXPIRED');
          expect(await findLink(other, b.code)).to.deep.equal(linkViewOf(b));
        });
      });
    });

    describe('DebtRepository: debts of payment links', () => {
      async function linkDebtTenant(options: { companies?: number } = {}) {
        const tenant = await newTenant(repos(), options);
        const contact = await repos().contacts.insert(newContact(tenant.organization.id));
        const link = await repos().paymentLinks.insert(newLink(tenant));
        return { ...tenant, contact, link };
      }
      type LinkDebtFixture = Awaited<ReturnType<typeof linkDebtTenant>>;

      /** A debt of the fixture's link, without debtor. */
      const insertLinkDebt = (t: LinkDebtFixture, overrides: Partial<NewDebt> = {}) =>
        repos().debts.insert(newDebt(t, { contactId: null, paymentLinkId: t.link.id, allowOverduePayment: false, allowPartialPayments: false, ...overrides }));
      const listDebts = (t: { company: Company }, filter: Partial<DebtFilter> = {}) => repos().debts.list(t.company.id, { today: '2026-06-01', ...filter }, PAGE);

      it('round-trips a debt without contact that belongs to a link: contact null, paymentLinkId kept', async () => {
        const t = await linkDebtTenant();
        const input = newDebt(t, { contactId: null, paymentLinkId: t.link.id, externalRequestId: t.link.debtExternalRequestId });
        const inserted = await repos().debts.insert(input);
        expect(inserted).to.deep.equal({ ...input, id: inserted.id });
        const view: DebtView = { ...inserted, contact: null, product: null, autopayInstrument: null };
        expect(await repos().debts.findByExternalRequestId(t.company.id, input.externalRequestId)).to.deep.equal(view);
        expect(await repos().debts.findByExternalRequestIds(t.company.id, [input.externalRequestId])).to.deep.equal([view]);
        expect(await uow().run((tx) => tx.debts.lockByExternalRequestId(t.company.id, input.externalRequestId))).to.deep.equal(view);
        expect((await listDebts(t)).items).to.deep.equal([listedOf(view)]);
      });

      it('keeps contact null and paymentLinkId through an update', async () => {
        const t = await linkDebtTenant();
        const debt = await insertLinkDebt(t);
        const updated = await repos().debts.update(t.company.id, debt.id, { status: 'PAID', amountPaidCents: debt.amountCents, updatedAt: T2 });
        expect(updated).to.deep.include({ contactId: null, contact: null, paymentLinkId: t.link.id, status: 'PAID' });
      });

      it('filters by paymentLinkId, newest first, cancelled excluded, combined with the other filters', async () => {
        const t = await linkDebtTenant();
        const otherLink = await repos().paymentLinks.insert(newLink(t));
        await insertLinkDebt(t, { externalRequestId: 'own', status: 'PENDING' });
        await insertLinkDebt(t, { externalRequestId: 'other-link', paymentLinkId: otherLink.id });
        await repos().debts.insert(newDebt(t, { externalRequestId: 'plain' }));
        await insertLinkDebt(t, { externalRequestId: 'pay-1', status: 'PAID', amountPaidCents: 10_000, contactId: t.contact.id });
        await insertLinkDebt(t, { externalRequestId: 'gone', status: 'CANCELLED' });
        await insertLinkDebt(t, { externalRequestId: 'pay-2', status: 'PAID', amountPaidCents: 10_000 });
        const keys = async (filter: Partial<DebtFilter>) => requestIds((await listDebts(t, filter)).items);
        expect(await keys({ paymentLinkId: t.link.id })).to.deep.equal(['pay-2', 'pay-1', 'own']);
        expect((await listDebts(t, { paymentLinkId: t.link.id })).total).to.equal(3);
        expect(await keys({ paymentLinkId: otherLink.id })).to.deep.equal(['other-link']);
        expect(await keys({ paymentLinkId: t.link.id, status: 'PAID' })).to.deep.equal(['pay-2', 'pay-1']);
        expect(await keys({ paymentLinkId: t.link.id, debtor: { organizationId: t.organization.id, externalClientId: t.contact.externalClientId } })).to.deep.equal(['pay-1']);
        expect(await keys({})).to.deep.equal(['pay-2', 'pay-1', 'plain', 'other-link', 'own']);
      });

      it("finds nothing for a link of another company", async () => {
        const t = await linkDebtTenant({ companies: 2 });
        await insertLinkDebt(t);
        expect(await listDebts({ company: t.companies[1]! }, { paymentLinkId: t.link.id })).to.deep.equal({ items: [], total: 0, capped: false });
      });
    });

    describe('UnitOfWork', () => {
      it('commits everything the work wrote and returns its result', async () => {
        const { organization, company } = await newTenant(repos());
        const result = await uow().run(async (tx) => ({
          contact: await tx.contacts.insert(newContact(organization.id)),
          product: await tx.products.insert(newProduct(company)),
        }));
        expect(await repos().contacts.findByCode(organization.id, result.contact.code)).to.deep.equal(result.contact);
        expect(await repos().products.findById(company.id, result.product.id)).to.deep.equal(result.product);
      });

      it('lets the work read its own writes', async () => {
        const { organization } = await newTenant(repos());
        const input = newContact(organization.id);
        const seen = await uow().run(async (tx) => {
          await tx.contacts.insert(input);
          return tx.contacts.findByExternalClientId(organization.id, input.externalClientId);
        });
        expect(seen!.code).to.equal(input.code);
      });

      it('persists nothing when the work throws, and rethrows the error', async () => {
        const { organization, company } = await newTenant(repos());
        const contact = newContact(organization.id, { phones: [phone('+52 55 4444 3333')] });
        const product = newProduct(company, { externalProductId: `RB-${uid()}` });
        const boom = new Error('boom');
        const error = await rejectionOf(
          uow().run(async (tx) => {
            await tx.contacts.insert(contact);
            await tx.products.insert(product);
            throw boom;
          }),
        );
        expect(error).to.equal(boom);
        expect(await repos().contacts.findByExternalClientId(organization.id, contact.externalClientId)).to.equal(null);
        expect(await repos().contacts.findByCode(organization.id, contact.code)).to.equal(null);
        expect((await repos().contacts.list(organization.id, { phoneDigits: '525544443333' }, PAGE)).total).to.equal(0);
        expect(await repos().products.findByName(company.id, product.name)).to.equal(null);
        expect(await repos().products.findByExternalProductId(company.id, product.externalProductId!)).to.equal(null);
      });

      it('undoes the earlier writes of a batch when a later one conflicts', async () => {
        const { organization, company } = await newTenant(repos());
        await repos().contacts.insert(newContact(organization.id, { externalClientId: 'batch-1' }));
        const product = newProduct(company);
        await expectConflict(
          uow().run(async (tx) => {
            await tx.products.insert(product);
            await tx.contacts.insert(newContact(organization.id, { externalClientId: 'batch-1' }));
          }),
        );
        expect(await repos().products.findByName(company.id, product.name)).to.equal(null);
      });

      it('of 20 concurrent runs inserting one externalClientId, one wins and 19 get ConflictError', async () => {
        const { organization } = await newTenant(repos());
        const attempts = Array.from({ length: 20 }, () => newContact(organization.id, { externalClientId: 'race-1' }));
        const outcomes = await Promise.allSettled(attempts.map((contact) => uow().run((tx) => tx.contacts.insert(contact))));
        const winners = outcomes.filter((o): o is PromiseFulfilledResult<Contact> => o.status === 'fulfilled');
        const losers = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
        expect(winners).to.have.length(1);
        expect(losers).to.have.length(19);
        for (const loser of losers) expect(loser.reason, String(loser.reason)).to.be.instanceOf(ConflictError);
        const stored = await repos().contacts.list(organization.id, { externalClientId: 'race-1' }, PAGE);
        expect(stored.total).to.equal(1);
        expect(stored.items[0]).to.deep.equal(winners[0]!.value);
      });
    });

    for (const part of CONTRACT_PARTS) part({ repos, uow, contention });
  });
}
