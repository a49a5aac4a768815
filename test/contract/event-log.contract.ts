/** EventLog: events are written in the caller's transaction and read back as rendered then. */
import { expect } from 'chai';
import { type DomainEvent } from '../../internal/events/domain-event';
import type { EventType } from '../../internal/events/event-type';
import type { Product } from '../../internal/products/product';
import type { Repositories } from '../../ports/unit-of-work';
import { at, newProduct, newTenant, PAGE, rejectionOf, type TenantFixture } from './fixtures';
import type { ContractContext } from './repositories.contract';

function productEvent(t: TenantFixture, product: Product, type: EventType, occurredAt: Date): DomainEvent {
  return {
    type,
    organizationId: t.organization.id,
    company: t.company,
    subject: { kind: 'product', product },
    occurredAt,
    requestId: 'req_contract',
    clientUserId: t.user.id,
    apiKeyPrefix: 'ck_dev_abcde',
  };
}

async function productFixture(repos: Repositories) {
  const t = await newTenant(repos);
  const product = await repos.products.insert(newProduct(t.company));
  return { t, product };
}

export function describeEventLogContract({ repos, uow }: ContractContext): void {
  describe('EventLog', () => {
    it('stores the rendered public event with its resource id, and finds it by eventId in its company only', async () => {
      const { t, product } = await productFixture(repos());
      const when = at('2026-04-01T10:00:00.123Z');
      await uow().run((tx) => tx.events.append([productEvent(t, product, 'product.created', when)]));
      const page = await repos().events.list(t.company.id, {}, PAGE);
      expect(page.total).to.equal(1);
      const [event] = page.items;
      expect(event!.eventId).to.match(/^evt_[A-Za-z0-9]{24}$/);
      expect(event!.type).to.equal('product.created');
      expect(event!.resourceId).to.equal(`prd_${product.id}`);
      expect(event!.createdAt.toISOString()).to.equal('2026-04-01T10:00:00.123Z');
      expect(event!.requestId).to.equal('req_contract');
      expect(event!.clientUserId).to.equal(t.user.id);
      expect(event!.apiKeyPrefix).to.equal('ck_dev_abcde');
      expect(event!.payload).to.deep.include({
        eventId: event!.eventId,
        type: 'product.created',
        createdAt: '2026-04-01T10:00:00.123Z',
        companyCode: t.company.code,
        requestId: 'req_contract',
      });
      expect((event!.payload.data as { object: Record<string, unknown> }).object).to.deep.include({ productId: `prd_${product.id}`, name: product.name });
      expect(await repos().events.findByEventId(t.company.id, event!.eventId)).to.deep.equal(event);
      const other = await newTenant(repos());
      expect(await repos().events.findByEventId(other.company.id, event!.eventId)).to.equal(null);
      expect((await repos().events.list(other.company.id, {}, PAGE)).total).to.equal(0);
    });

    it('writes nothing when the transaction rolls back', async () => {
      const { t, product } = await productFixture(repos());
      const boom = new Error('boom');
      const error = await rejectionOf(
        uow().run(async (tx) => {
          await tx.events.append([productEvent(t, product, 'product.updated', at('2026-04-01T10:00:00.000Z'))]);
          throw boom;
        }),
      );
      expect(error).to.equal(boom);
      expect((await repos().events.list(t.company.id, {}, PAGE)).total).to.equal(0);
    });

    it('lists newest first (write order), filtered by type, resource and createdAt bounds', async () => {
      const { t, product } = await productFixture(repos());
      const second = await repos().products.insert(newProduct(t.company));
      await uow().run((tx) =>
        tx.events.append([
          productEvent(t, product, 'product.created', at('2026-04-01T00:00:00.000Z')),
          productEvent(t, second, 'product.created', at('2026-04-02T00:00:00.000Z')),
          productEvent(t, product, 'product.updated', at('2026-04-03T00:00:00.000Z')),
        ]),
      );
      const all = await repos().events.list(t.company.id, {}, PAGE);
      expect(all.items.map((e) => `${e.type} ${e.resourceId}`)).to.deep.equal([
        `product.updated prd_${product.id}`,
        `product.created prd_${second.id}`,
        `product.created prd_${product.id}`,
      ]);
      expect((await repos().events.list(t.company.id, { type: 'product.created' }, PAGE)).total).to.equal(2);
      expect((await repos().events.list(t.company.id, { resourceId: `prd_${product.id}` }, PAGE)).total).to.equal(2);
      const range = { createdFrom: Date.parse('2026-04-02T00:00:00.000Z'), createdTo: Date.parse('2026-04-02T23:59:59.999Z') };
      expect((await repos().events.list(t.company.id, range, PAGE)).items.map((e) => e.resourceId)).to.deep.equal([`prd_${second.id}`]);
      const paged = await repos().events.list(t.company.id, {}, { page: 2, limit: 2 });
      expect(paged.total).to.equal(3);
      expect(paged.items.map((e) => e.type)).to.deep.equal(['product.created']);
    });

    it('pages a creation window newest first by write order, whatever the events\' times, another company\'s left out', async () => {
      // Each event an hour before the one written ahead of it: the page's order is the write
      // order, which the window's range is sorted by once read (SqlDialect.sortedAfterRange).
      const { t, product } = await productFixture(repos());
      const other = await productFixture(repos());
      const hour = (n: number) => new Date(Date.parse('2026-04-10T00:00:00.000Z') - n * 3_600_000);
      const types: EventType[] = ['product.created', 'product.updated'];
      await uow().run((tx) =>
        tx.events.append([
          productEvent(t, product, 'product.created', hour(-3)),
          ...Array.from({ length: 6 }, (_, i) => productEvent(t, product, types[i % 2]!, hour(i))),
          productEvent(other.t, other.product, 'product.created', hour(2)),
          productEvent(t, product, 'product.created', hour(9)),
        ]),
      );
      const window = { createdFrom: hour(5).getTime(), createdTo: hour(0).getTime() };
      const all = await repos().events.list(t.company.id, window, PAGE);
      expect(all.total).to.equal(6);
      expect(all.items.map((e) => e.id)).to.deep.equal(all.items.map((e) => e.id).sort((a, b) => b - a));
      expect(all.items.map((e) => e.type)).to.deep.equal(['product.updated', 'product.created', 'product.updated', 'product.created', 'product.updated', 'product.created']);
      const second = await repos().events.list(t.company.id, window, { page: 2, limit: 2 });
      expect([second.items.map((e) => e.id), second.total]).to.deep.equal([all.items.slice(2, 4).map((e) => e.id), 6]);
      const updated = await repos().events.list(t.company.id, { ...window, type: 'product.updated' }, { page: 1, limit: 2 });
      expect([updated.items.map((e) => e.id), updated.total]).to.deep.equal([[all.items[0]!.id, all.items[2]!.id], 3]);
    });
  });
}
