/**
 * Operations: the organization's rate limit (read with the facade credentials) and the audit
 * log (entries written in the caller's transaction, read merged with the domain events).
 */
import { expect } from 'chai';
import type { AuditActor, AuditEntry } from '../../internal/audit/audit-entry';
import type { DomainEvent } from '../../internal/events/domain-event';
import type { Product } from '../../internal/products/product';
import { apiKey, at, newProduct, newTenant, type TenantFixture } from './fixtures';
import type { ContractContext } from './repositories.contract';

const OPERATOR: AuditActor = { type: 'operator', name: 'alice@ops' };

function entry(t: TenantFixture, overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    organizationId: t.organization.id,
    action: 'company.updated',
    resourceType: 'company',
    resourceId: t.company.code,
    actor: OPERATOR,
    details: { before: { privateLinks: false }, after: { privateLinks: true } },
    at: at('2026-04-01T10:00:00.000Z'),
    ...overrides,
  };
}

function productEvent(t: TenantFixture, product: Product, occurredAt: Date, byClient: boolean): DomainEvent {
  return {
    type: 'product.updated',
    organizationId: t.organization.id,
    company: t.company,
    subject: { kind: 'product', product },
    occurredAt,
    requestId: byClient ? 'req_audit' : null,
    clientUserId: byClient ? t.user.id : null,
    apiKeyPrefix: byClient ? 'ck_dev_AbCdE' : null,
  };
}

export function describeOperationsContract({ repos, uow }: ContractContext): void {
  describe('TenancyRepository: rate limits', () => {
    it('stores an organization rate limit (fractional refill included), reads it everywhere, and clears it', async () => {
      const t = await newTenant(repos());
      expect((await repos().tenancy.findOrganization(t.organization.id))!.rateLimit).to.equal(null);
      await repos().tenancy.setRateLimit(t.organization.id, { capacity: 7, refillPerSecond: 0.25 });
      expect((await repos().tenancy.findOrganization(t.organization.id))!.rateLimit).to.deep.equal({ capacity: 7, refillPerSecond: 0.25 });
      expect((await repos().tenancy.findOrganizationByName(t.organization.name))!.rateLimit).to.deep.equal({ capacity: 7, refillPerSecond: 0.25 });
      const listed = (await repos().tenancy.listOrganizations()).find((o) => o.id === t.organization.id);
      expect(listed!.rateLimit).to.deep.equal({ capacity: 7, refillPerSecond: 0.25 });
      await repos().tenancy.setRateLimit(t.organization.id, null);
      expect((await repos().tenancy.findOrganization(t.organization.id))!.rateLimit).to.equal(null);
    });

    it('hands the rate limit over with the facade credentials (no other read on a request)', async () => {
      const t = await newTenant(repos());
      const facade = apiKey(t.user, 'facade');
      await repos().credentials.insertApiKey(facade);
      await repos().tenancy.setRateLimit(t.organization.id, { capacity: 30, refillPerSecond: 1.5 });
      const found = await repos().credentials.findFacadeCredentials(facade.keyHash, 'development', t.user.id);
      expect(found!.organization.rateLimit).to.deep.equal({ capacity: 30, refillPerSecond: 1.5 });
    });
  });

  describe('AuditLog', () => {
    it('reads back an operator entry with everything it recorded', async () => {
      const t = await newTenant(repos());
      await uow().run((tx) => tx.audit.record(entry(t)));
      const records = await repos().audit.list(t.organization.id, {}, 10);
      expect(records).to.deep.equal([
        {
          source: 'audit',
          at: at('2026-04-01T10:00:00.000Z'),
          action: 'company.updated',
          resourceType: 'company',
          resourceId: t.company.code,
          actor: { type: 'operator', name: 'alice@ops' },
          requestId: null,
          companyCode: null,
          eventId: null,
          details: { before: { privateLinks: false }, after: { privateLinks: true } },
        },
      ]);
    });

    it('names the client user of a client entry, with its key prefix and request', async () => {
      const t = await newTenant(repos());
      const actor: AuditActor = { type: 'client', clientUserId: t.user.id, apiKeyPrefix: 'ck_dev_XyZ12', requestId: 'req_clock' };
      await uow().run((tx) => tx.audit.record(entry(t, { action: 'sandbox_clock.frozen', resourceType: 'organization', resourceId: String(t.organization.id), actor })));
      const [record] = await repos().audit.list(t.organization.id, {}, 10);
      expect(record!.actor).to.deep.equal({ type: 'client', clientUserId: t.user.id, clientUsername: t.user.username, apiKeyPrefix: 'ck_dev_XyZ12' });
      expect(record!.requestId).to.equal('req_clock');
    });

    it('writes nothing when the transaction rolls back', async () => {
      const t = await newTenant(repos());
      await uow()
        .run(async (tx) => {
          await tx.audit.record(entry(t));
          throw new Error('roll back');
        })
        .catch(() => undefined);
      expect(await repos().audit.list(t.organization.id, {}, 10)).to.deep.equal([]);
    });

    it('merges the organization events, newest first, each with who caused it', async () => {
      const t = await newTenant(repos());
      const product = await repos().products.insert(newProduct(t.company));
      await uow().run((tx) => tx.events.append([productEvent(t, product, at('2026-04-01T09:00:00.000Z'), true)]));
      await uow().run((tx) => tx.audit.record(entry(t, { at: at('2026-04-01T10:00:00.000Z') })));
      await uow().run((tx) => tx.events.append([productEvent(t, product, at('2026-04-01T11:00:00.000Z'), false)]));
      const records = await repos().audit.list(t.organization.id, {}, 10);
      expect(records.map((r) => [r.source, r.at.toISOString()])).to.deep.equal([
        ['event', '2026-04-01T11:00:00.000Z'],
        ['audit', '2026-04-01T10:00:00.000Z'],
        ['event', '2026-04-01T09:00:00.000Z'],
      ]);
      const [byWorker, , byClient] = records;
      expect(byClient).to.deep.include({
        action: 'product.updated',
        resourceType: 'product',
        resourceId: `prd_${product.id}`,
        actor: { type: 'client', clientUserId: t.user.id, clientUsername: t.user.username, apiKeyPrefix: 'ck_dev_AbCdE' },
        requestId: 'req_audit',
        companyCode: t.company.code,
        details: null,
      });
      expect(byClient!.eventId).to.match(/^evt_/);
      expect(byWorker!.actor).to.deep.equal({ type: 'system', name: 'worker' });
      expect(byWorker!.requestId).to.equal(null);
    });

    it('filters by instant (inclusive) and by resource, cuts at the limit, and shows nothing of other organizations', async () => {
      const t = await newTenant(repos());
      const other = await newTenant(repos());
      const product = await repos().products.insert(newProduct(t.company));
      await uow().run(async (tx) => {
        await tx.audit.record(entry(t, { at: at('2026-04-01T10:00:00.000Z') }));
        await tx.audit.record(entry(t, { at: at('2026-04-02T10:00:00.000Z'), resourceId: 'OTHER-CODE' }));
        await tx.audit.record(entry(other, { at: at('2026-04-03T10:00:00.000Z') }));
        await tx.events.append([productEvent(t, product, at('2026-04-02T12:00:00.000Z'), true)]);
      });
      const list = (filter: Parameters<ReturnType<typeof repos>['audit']['list']>[1], limit = 10) => repos().audit.list(t.organization.id, filter, limit);
      expect((await list({})).map((r) => r.at.toISOString())).to.deep.equal(['2026-04-02T12:00:00.000Z', '2026-04-02T10:00:00.000Z', '2026-04-01T10:00:00.000Z']);
      expect((await list({ since: at('2026-04-02T10:00:00.000Z') })).map((r) => r.at.toISOString())).to.deep.equal(['2026-04-02T12:00:00.000Z', '2026-04-02T10:00:00.000Z']);
      expect((await list({ resourceId: t.company.code })).map((r) => r.resourceId)).to.deep.equal([t.company.code]);
      expect((await list({ resourceId: `prd_${product.id}` })).map((r) => r.source)).to.deep.equal(['event']);
      expect((await list({}, 2)).map((r) => r.at.toISOString())).to.deep.equal(['2026-04-02T12:00:00.000Z', '2026-04-02T10:00:00.000Z']);
      expect((await repos().audit.list(other.organization.id, {}, 10)).map((r) => r.resourceId)).to.deep.equal([other.company.code]);
    });

    it('orders entries of the same instant by write order, later first', async () => {
      const t = await newTenant(repos());
      const same = at('2026-04-05T00:00:00.000Z');
      await uow().run(async (tx) => {
        await tx.audit.record(entry(t, { at: same, resourceId: 'FIRST' }));
        await tx.audit.record(entry(t, { at: same, resourceId: 'SECOND' }));
      });
      expect((await repos().audit.list(t.organization.id, {}, 10)).map((r) => r.resourceId)).to.deep.equal(['SECOND', 'FIRST']);
    });
  });
}
