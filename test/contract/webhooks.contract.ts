/**
 * Webhook storage: endpoints (live or deleted), deliveries with their claims and attempts, the
 * fan-out cursor, and what the fan-out reads of the event log. The cursor and claims are global
 * (every tenant's deliveries share one queue of due work), so each test works in a time window of
 * its own, earlier than every previous test's: nothing a test leaves PENDING is due in the next.
 */
import { expect } from 'chai';
import type { EventType } from '../../internal/events/event-type';
import { newDelivery } from '../../internal/webhooks/delivery';
import type { NewWebhookEndpoint } from '../../ports/webhook-endpoint-repository';
import type { Repositories, UnitOfWork } from '../../ports/unit-of-work';
import { newProduct, newTenant, PAGE, productEvent, T1, type TenantFixture, uid } from './fixtures';
import type { ContractContext } from './repositories.contract';
import { contend, expectDidNotWait, expectWaited } from './contention';

let year = 2400;
/** A time window earlier than every window handed out before it. */
const windowStart = () => new Date(Date.UTC(year--, 0, 1));
const SECOND = 1000;
const plus = (d: Date, ms: number) => new Date(d.getTime() + ms);

function endpointInput(t: TenantFixture, overrides: Partial<NewWebhookEndpoint> = {}): NewWebhookEndpoint {
  return {
    organizationId: t.organization.id,
    companyId: t.company.id,
    code: `e${uid()}`,
    url: 'https://hooks.example.com/in?x=1',
    enabledEvents: ['debt.paid', 'payment_link.paid'],
    enabled: true,
    description: 'ERP',
    secret: `whsec_${uid()}`,
    previousSecret: null,
    previousSecretExpiresAt: null,
    sinceEventRowId: 42,
    createdAt: T1,
    updatedAt: T1,
    ...overrides,
  };
}


/** A tenant with `count` events about products (two per product: created, updated), returned as headers. */
async function eventFixture(repos: Repositories, uow: UnitOfWork, count = 2) {
  const t = await newTenant(repos);
  const products = [await repos.products.insert(newProduct(t.company)), await repos.products.insert(newProduct(t.company))];
  const types: EventType[] = ['product.created', 'product.updated'];
  const before = await repos.events.lastId();
  await uow.run((tx) => tx.events.append(Array.from({ length: count }, (_, i) => productEvent(t, products[i % 2]!, types[Math.floor(i / 2) % 2]!))));
  const events = (await repos.events.headersAfter(before, 1000)).filter((e) => e.companyId === t.company.id);
  return { t, products, events };
}

export function describeWebhooksContract({ repos, uow, contention }: ContractContext): void {
  describe('EventLog: what the fan-out reads', () => {
    it('lastId, headersAfter (ascending, limited), headersIn (ranges), findById', async () => {
      const before = await repos().events.lastId();
      const { t, events } = await eventFixture(repos(), uow(), 4);
      expect(events).to.have.length(4);
      expect(await repos().events.lastId()).to.be.at.least(events[3]!.id);
      expect(events.map((e) => e.id)).to.deep.equal([...events.map((e) => e.id)].sort((a, b) => a - b));
      expect(events[0]!.id).to.be.greaterThan(before);
      expect(events[0]).to.have.keys('id', 'companyId', 'type', 'resourceId');
      expect(events.map((e) => e.type)).to.deep.equal(['product.created', 'product.created', 'product.updated', 'product.updated']);
      expect(await repos().events.headersAfter(events[0]!.id - 1, 2)).to.deep.equal(events.slice(0, 2));
      const inRanges = await repos().events.headersIn([
        { from: events[3]!.id, to: events[3]!.id },
        { from: events[0]!.id, to: events[1]!.id },
      ]);
      expect(inRanges).to.deep.equal([events[0], events[1], events[3]]);
      expect(await repos().events.headersIn([])).to.deep.equal([]);
      const full = await repos().events.findById(events[2]!.id);
      expect(full).to.deep.include({ id: events[2]!.id, companyId: t.company.id, type: 'product.updated', resourceId: events[2]!.resourceId });
      expect(full!.payload).to.have.property('eventId', full!.eventId);
      expect(await repos().events.findById(2_000_000_000)).to.equal(null);
    });
  });

  describe('WebhookEndpointRepository', () => {
    it('round-trips an endpoint; finds it by code in its company only', async () => {
      const t = await newTenant(repos(), { companies: 2 });
      const stored = await repos().webhookEndpoints.insert(endpointInput(t));
      expect(stored).to.deep.equal({ ...endpointInput(t, { code: stored.code, secret: stored.secret }), id: stored.id, deletedAt: null });
      expect(await repos().webhookEndpoints.findByCode(t.company.id, stored.code)).to.deep.equal(stored);
      expect(await uow().run((tx) => tx.webhookEndpoints.lockByCode(t.company.id, stored.code))).to.deep.equal(stored);
      expect(await repos().webhookEndpoints.findByCode(t.companies[1]!.id, stored.code)).to.equal(null);
      const star = await repos().webhookEndpoints.insert(endpointInput(t, { enabledEvents: ['*'], description: null }));
      expect((await repos().webhookEndpoints.findByCode(t.company.id, star.code))!).to.deep.include({ enabledEvents: ['*'], description: null });
    });

    it('updates the fields sent; a deleted endpoint is gone from reads by code, lists and counts, but still found by id', async () => {
      const t = await newTenant(repos());
      const e = await repos().webhookEndpoints.insert(endpointInput(t));
      const updated = await repos().webhookEndpoints.update(t.company.id, e.id, {
        url: 'http://127.0.0.1:8080/x',
        enabledEvents: ['*'],
        enabled: false,
        description: null,
        updatedAt: plus(T1, SECOND),
      });
      expect(updated).to.deep.equal({ ...e, url: 'http://127.0.0.1:8080/x', enabledEvents: ['*'], enabled: false, description: null, updatedAt: plus(T1, SECOND) });
      expect(await repos().webhookEndpoints.update(t.company.id, e.id, { description: 'kept', updatedAt: plus(T1, 2 * SECOND) })).to.deep.include({ url: 'http://127.0.0.1:8080/x', description: 'kept' });
      expect(await repos().webhookEndpoints.countLive(t.company.id)).to.equal(1);
      await repos().webhookEndpoints.markDeleted(t.company.id, e.id, plus(T1, 3 * SECOND));
      expect(await repos().webhookEndpoints.findByCode(t.company.id, e.code)).to.equal(null);
      expect(await uow().run((tx) => tx.webhookEndpoints.lockByCode(t.company.id, e.code))).to.equal(null);
      expect(await repos().webhookEndpoints.countLive(t.company.id)).to.equal(0);
      expect((await repos().webhookEndpoints.list(t.company.id, PAGE)).items).to.deep.equal([]);
      const [byId] = await repos().webhookEndpoints.findByIds([e.id]);
      expect(byId).to.deep.include({ id: e.id, deletedAt: plus(T1, 3 * SECOND) });
    });

    it('keeps the signing secrets: a rotation stores the new secret, the previous one and its expiry; every read returns them as written', async () => {
      const t = await newTenant(repos());
      const e = await repos().webhookEndpoints.insert(endpointInput(t, { secret: 'whsec_first_0123456789abcdefghijklmn' }));
      expect(e).to.deep.include({ secret: 'whsec_first_0123456789abcdefghijklmn', previousSecret: null, previousSecretExpiresAt: null });
      const until = plus(T1, 24 * 3600 * SECOND);
      const rotated = await uow().run((tx) =>
        tx.webhookEndpoints.update(t.company.id, e.id, { secret: 'whsec_second_0123456789abcdefghijklm', previousSecret: e.secret, previousSecretExpiresAt: until, updatedAt: plus(T1, SECOND) }),
      );
      expect(rotated).to.deep.equal({ ...e, secret: 'whsec_second_0123456789abcdefghijklm', previousSecret: e.secret, previousSecretExpiresAt: until, updatedAt: plus(T1, SECOND) });
      expect(await repos().webhookEndpoints.findByCode(t.company.id, e.code)).to.deep.equal(rotated);
      expect(await repos().webhookEndpoints.findByIds([e.id])).to.deep.equal([rotated]);
      expect((await repos().webhookEndpoints.list(t.company.id, PAGE)).items).to.deep.equal([rotated]);
      expect((await repos().webhookEndpoints.enabledOfCompanies([t.company.id])).find((x) => x.id === e.id)).to.deep.equal(rotated);
      // Other changes leave the secrets alone; a rotation without grace clears the previous one.
      expect(await repos().webhookEndpoints.update(t.company.id, e.id, { description: 'x', updatedAt: plus(T1, 2 * SECOND) })).to.deep.include({
        secret: rotated.secret, previousSecret: e.secret, previousSecretExpiresAt: until,
      });
      const immediate = await repos().webhookEndpoints.update(t.company.id, e.id, { secret: 'whsec_third_0123456789abcdefghijklmn', previousSecret: null, previousSecretExpiresAt: null, updatedAt: plus(T1, 3 * SECOND) });
      expect(immediate).to.deep.include({ secret: 'whsec_third_0123456789abcdefghijklmn', previousSecret: null, previousSecretExpiresAt: null });
      expect(await repos().webhookEndpoints.findByCode(t.company.id, e.code)).to.deep.equal(immediate);
    });

    it('holds a second lockByCode until the first commits: it reads the first one\'s change (a rotation is never lost)', async () => {
      const t = await newTenant(repos());
      const stored = await repos().webhookEndpoints.insert(endpointInput(t));
      const outcome = await contend(
        uow(),
        contention(),
        async (tx, hold) => {
          const locked = (await tx.webhookEndpoints.lockByCode(t.company.id, stored.code))!;
          await hold();
          return tx.webhookEndpoints.update(t.company.id, locked.id, { secret: 'whsec_rotated', previousSecret: locked.secret, previousSecretExpiresAt: T1, updatedAt: T1 });
        },
        (tx) => tx.webhookEndpoints.lockByCode(t.company.id, stored.code),
      );
      expectWaited(outcome, contention());
      expect(outcome.second).to.deep.equal(outcome.first);
      expect(outcome.second).to.deep.include({ secret: 'whsec_rotated', previousSecret: stored.secret });
    });

    it('lists live endpoints newest first with paging; enabledOfCompanies returns the enabled live ones of those companies', async () => {
      const t = await newTenant(repos(), { companies: 2 });
      const a = await repos().webhookEndpoints.insert(endpointInput(t));
      const b = await repos().webhookEndpoints.insert(endpointInput(t, { enabled: false }));
      const c = await repos().webhookEndpoints.insert(endpointInput(t));
      const d = await repos().webhookEndpoints.insert(endpointInput(t));
      const other = await repos().webhookEndpoints.insert(endpointInput({ ...t, company: t.companies[1]! }));
      await repos().webhookEndpoints.markDeleted(t.company.id, d.id, T1);
      const page = await repos().webhookEndpoints.list(t.company.id, { page: 1, limit: 2 });
      expect(page.items.map((e) => e.id)).to.deep.equal([c.id, b.id]);
      expect(page.total).to.equal(3);
      expect((await repos().webhookEndpoints.list(t.company.id, { page: 2, limit: 2 })).items.map((e) => e.id)).to.deep.equal([a.id]);
      expect((await repos().webhookEndpoints.enabledOfCompanies([t.company.id])).map((e) => e.id)).to.deep.equal([a.id, c.id]);
      expect((await repos().webhookEndpoints.enabledOfCompanies([t.company.id, t.companies[1]!.id])).map((e) => e.id)).to.deep.equal([a.id, c.id, other.id]);
      expect(await repos().webhookEndpoints.enabledOfCompanies([])).to.deep.equal([]);
      expect(await repos().webhookEndpoints.anyEnabled()).to.equal(true);
      expect((await repos().webhookEndpoints.findByIds([other.id, a.id, a.id])).map((e) => e.id)).to.deep.equal([a.id, other.id]);
    });
  });

  describe('WebhookDeliveryRepository', () => {
    async function deliveryFixture(count = 4) {
      const { t, events } = await eventFixture(repos(), uow(), count);
      const endpoint = await repos().webhookEndpoints.insert(endpointInput(t));
      const second = await repos().webhookEndpoints.insert(endpointInput(t));
      const start = windowStart();
      const make = (index: number, endpointId = endpoint.id, at = start) =>
        newDelivery({ rowId: events[index]!.id, companyId: t.company.id, resourceId: events[index]!.resourceId }, endpointId, at);
      const mine = async () => (await Promise.all(events.map((e) => repos().webhookDeliveries.ofEvent(e.id)))).flat().map((r) => r.delivery);
      return { t, events, endpoint, second, start, make, mine };
    }

    it('inserts one delivery per event and endpoint, skipping pairs that exist', async () => {
      const { events, endpoint, second, make, mine, start } = await deliveryFixture(2);
      await repos().webhookDeliveries.insertMissing([make(0), make(1)]);
      await repos().webhookDeliveries.insertMissing([make(0), make(0, second.id), make(1)]);
      const rows = await mine();
      expect(rows.map((d) => [d.eventRowId, d.endpointId])).to.deep.equal([
        [events[0]!.id, endpoint.id],
        [events[0]!.id, second.id],
        [events[1]!.id, endpoint.id],
      ]);
      expect(rows[0]).to.deep.include({ status: 'PENDING', attempts: 0, roundAttempts: 0, nextAttemptAt: start, leaseToken: null, lockedUntil: null, resourceId: events[0]!.resourceId });
      expect(await repos().webhookDeliveries.findById(rows[0]!.id)).to.deep.equal(rows[0]);
    });

    it("claims due, unclaimed deliveries that head their endpoint and resource, oldest due first; a live claim keeps others off", async () => {
      const { events, second, make, start } = await deliveryFixture(4);
      // events 0 and 2 are about one product, 1 and 3 about the other.
      await repos().webhookDeliveries.insertMissing([
        make(0, undefined, plus(start, 3 * SECOND)),
        make(1, undefined, plus(start, 1 * SECOND)),
        make(2, undefined, start),
        make(3, undefined, plus(start, 9 * SECOND)),
        make(2, second.id, plus(start, 2 * SECOND)),
      ]);
      const now = plus(start, 5 * SECOND);
      const lease = plus(now, 60 * SECOND);
      const claimed = await repos().webhookDeliveries.claimDue(now, lease, 'tok-a', 10);
      // Event 2 waits behind event 0 (same resource, same endpoint); to the second endpoint it heads.
      expect(claimed.map((d) => [d.eventRowId, d.leaseToken, d.lockedUntil])).to.deep.equal([
        [events[1]!.id, 'tok-a', lease],
        [events[2]!.id, 'tok-a', lease],
        [events[0]!.id, 'tok-a', lease],
      ]);
      expect(await repos().webhookDeliveries.claimDue(now, lease, 'tok-b', 10)).to.deep.equal([]);
      const later = plus(lease, 1);
      const reclaimed = await repos().webhookDeliveries.claimDue(later, plus(later, SECOND), 'tok-c', 2);
      expect(reclaimed.map((d) => [d.eventRowId, d.leaseToken])).to.deep.equal([
        [events[1]!.id, 'tok-c'],
        [events[2]!.id, 'tok-c'],
      ]);
    });

    it('hands each due delivery to exactly one of two concurrent claimDue calls', async () => {
      const { events, make, start, mine } = await deliveryFixture(4);
      // Four events about two products: two heads of their resource are due.
      await repos().webhookDeliveries.insertMissing([make(0), make(1), make(2), make(3)]);
      const lease = plus(start, 60 * SECOND);
      const claim = (tx: Repositories, token: string) => tx.webhookDeliveries.claimDue(start, lease, token, 10);
      const outcome = await contend(
        uow(),
        contention(),
        async (tx, hold) => {
          const claimed = await claim(tx, 'tok-first');
          await hold();
          return claimed;
        },
        (tx) => claim(tx, 'tok-second'),
      );
      expect(outcome.first.map((d) => d.eventRowId).sort((a, b) => a - b)).to.deep.equal([events[0]!.id, events[1]!.id]);
      expect(outcome.second, 'nothing is claimed twice').to.deep.equal([]);
      const tokens = (await mine()).map((d) => [d.eventRowId, d.leaseToken]);
      expect(tokens).to.deep.equal([[events[0]!.id, 'tok-first'], [events[1]!.id, 'tok-first'], [events[2]!.id, null], [events[3]!.id, null]]);
    });

    it('records an attempt under its claim only; claimNextOf then hands the next of the resource', async () => {
      const { events, endpoint, make, start, mine } = await deliveryFixture(4);
      await repos().webhookDeliveries.insertMissing([make(0), make(2)]);
      const [first] = await repos().webhookDeliveries.claimDue(start, plus(start, 60 * SECOND), 'tok', 10);
      expect(first!.eventRowId).to.equal(events[0]!.id);
      const outcome = {
        attempt: { attempt: 1, attemptedAt: start, statusCode: 500, error: 'http_status' as const, durationMs: 12, succeeded: false },
        status: 'PENDING' as const,
        roundAttempts: 1,
        nextAttemptAt: plus(start, 60 * SECOND),
        at: plus(start, 20),
      };
      expect(await uow().run((tx) => tx.webhookDeliveries.recordAttempt(first!.id, 'wrong', outcome))).to.equal(false);
      expect(await uow().run((tx) => tx.webhookDeliveries.recordAttempt(first!.id, 'tok', outcome))).to.equal(true);
      expect(await uow().run((tx) => tx.webhookDeliveries.recordAttempt(first!.id, 'tok', outcome))).to.equal(false);
      expect(await repos().webhookDeliveries.findById(first!.id)).to.deep.include({
        status: 'PENDING', attempts: 1, roundAttempts: 1, nextAttemptAt: plus(start, 60 * SECOND), leaseToken: null, lockedUntil: null, updatedAt: plus(start, 20),
      });
      // Still heading its resource: the next one is not handed out.
      expect(await repos().webhookDeliveries.claimNextOf(endpoint.id, events[0]!.resourceId, plus(start, SECOND), plus(start, 2 * SECOND), 'n')).to.equal(null);
      const [again] = await repos().webhookDeliveries.claimDue(plus(start, 60 * SECOND), plus(start, 120 * SECOND), 'tok2', 10);
      await uow().run((tx) =>
        tx.webhookDeliveries.recordAttempt(again!.id, 'tok2', {
          attempt: { attempt: 2, attemptedAt: plus(start, 60 * SECOND), statusCode: null, error: 'timeout', durationMs: 10_000, succeeded: false },
          status: 'FAILED',
          roundAttempts: 2,
          nextAttemptAt: null,
          at: plus(start, 70 * SECOND),
        }),
      );
      const next = await repos().webhookDeliveries.claimNextOf(endpoint.id, events[0]!.resourceId, plus(start, 70 * SECOND), plus(start, 130 * SECOND), 'n');
      expect(next).to.deep.include({ eventRowId: events[2]!.id, leaseToken: 'n' });
      const [history] = await repos().webhookDeliveries.ofEvent(events[0]!.id);
      expect(history!.delivery).to.deep.include({ status: 'FAILED', attempts: 2, nextAttemptAt: null });
      expect(history!.attempts).to.deep.equal([
        { deliveryId: first!.id, attempt: 1, attemptedAt: start, statusCode: 500, error: 'http_status', durationMs: 12, succeeded: false },
        { deliveryId: first!.id, attempt: 2, attemptedAt: plus(start, 60 * SECOND), statusCode: null, error: 'timeout', durationMs: 10_000, succeeded: false },
      ]);
      expect((await mine()).map((d) => d.status)).to.deep.equal(['FAILED', 'PENDING']);
    });

    it('writes no attempt when the transaction rolls back', async () => {
      const { events, make, start } = await deliveryFixture(2);
      await repos().webhookDeliveries.insertMissing([make(0)]);
      const [claimed] = await repos().webhookDeliveries.claimDue(start, plus(start, SECOND), 'tok', 10);
      const boom = new Error('boom');
      await uow()
        .run(async (tx) => {
          await tx.webhookDeliveries.recordAttempt(claimed!.id, 'tok', {
            attempt: { attempt: 1, attemptedAt: start, statusCode: 200, error: null, durationMs: 1, succeeded: true },
            status: 'SUCCEEDED',
            roundAttempts: 1,
            nextAttemptAt: null,
            at: start,
          });
          throw boom;
        })
        .catch((e) => expect(e).to.equal(boom));
      const [history] = await repos().webhookDeliveries.ofEvent(events[0]!.id);
      expect(history!.attempts).to.deep.equal([]);
      expect(history!.delivery).to.deep.include({ status: 'PENDING', leaseToken: 'tok' });
    });

    it('cancels a claimed delivery under its claim, and every pending delivery of an endpoint', async () => {
      const { events, second, make, start, mine } = await deliveryFixture(2);
      await repos().webhookDeliveries.insertMissing([make(0), make(1), make(0, second.id)]);
      const claimed = await repos().webhookDeliveries.claimDue(start, plus(start, SECOND), 'tok', 10);
      const mineClaimed = claimed.find((d) => d.eventRowId === events[0]!.id && d.endpointId !== second.id)!;
      expect(await repos().webhookDeliveries.cancelClaimed(mineClaimed.id, 'other', start)).to.equal(false);
      expect(await repos().webhookDeliveries.cancelClaimed(mineClaimed.id, 'tok', start)).to.equal(true);
      await repos().webhookDeliveries.cancelPendingOfEndpoint(second.id, start);
      expect((await mine()).map((d) => [d.eventRowId, d.endpointId === second.id, d.status, d.nextAttemptAt])).to.deep.equal([
        [events[0]!.id, false, 'CANCELLED', null],
        [events[0]!.id, true, 'CANCELLED', null],
        [events[1]!.id, false, 'PENDING', start],
      ]);
    });

    it('reopens deliveries for redelivery (fresh round, due now, attempts kept) and creates the missing ones', async () => {
      const { t, events, endpoint, second, make, start } = await deliveryFixture(2);
      await repos().webhookDeliveries.insertMissing([make(0)]);
      const [claimed] = await repos().webhookDeliveries.claimDue(start, plus(start, SECOND), 'tok', 10);
      await uow().run((tx) =>
        tx.webhookDeliveries.recordAttempt(claimed!.id, 'tok', {
          attempt: { attempt: 1, attemptedAt: start, statusCode: 204, error: null, durationMs: 3, succeeded: true },
          status: 'SUCCEEDED',
          roundAttempts: 1,
          nextAttemptAt: null,
          at: start,
        }),
      );
      const when = plus(start, 5 * SECOND);
      await uow().run((tx) => tx.webhookDeliveries.reopen({ rowId: events[0]!.id, companyId: t.company.id, resourceId: events[0]!.resourceId }, [endpoint.id, second.id], when));
      const rows = (await repos().webhookDeliveries.ofEvent(events[0]!.id)).map((r) => r.delivery);
      expect(rows.map((d) => [d.endpointId, d.status, d.attempts, d.roundAttempts, d.nextAttemptAt])).to.deep.equal([
        [endpoint.id, 'PENDING', 1, 0, when],
        [second.id, 'PENDING', 0, 0, when],
      ]);
    });

    it('counts deliveries by status and attempts by outcome', async () => {
      const before = await repos().webhookDeliveries.stats();
      const { make, start, second } = await deliveryFixture(2);
      await repos().webhookDeliveries.insertMissing([make(0), make(1), make(0, second.id)]);
      const claimed = await repos().webhookDeliveries.claimDue(start, plus(start, SECOND), 'tok', 10);
      expect(claimed).to.have.length(3);
      const record = (id: number, succeeded: boolean, status: 'SUCCEEDED' | 'PENDING') =>
        uow().run((tx) =>
          tx.webhookDeliveries.recordAttempt(id, 'tok', {
            attempt: { attempt: 1, attemptedAt: start, statusCode: succeeded ? 200 : 500, error: null, durationMs: 1, succeeded },
            status,
            roundAttempts: 1,
            nextAttemptAt: status === 'PENDING' ? plus(start, SECOND) : null,
            at: start,
          }),
        );
      await record(claimed[0]!.id, true, 'SUCCEEDED');
      await record(claimed[1]!.id, false, 'PENDING');
      await repos().webhookDeliveries.cancelClaimed(claimed[2]!.id, 'tok', start);
      const after = await repos().webhookDeliveries.stats();
      expect({
        PENDING: after.deliveries.PENDING - before.deliveries.PENDING,
        SUCCEEDED: after.deliveries.SUCCEEDED - before.deliveries.SUCCEEDED,
        FAILED: after.deliveries.FAILED - before.deliveries.FAILED,
        CANCELLED: after.deliveries.CANCELLED - before.deliveries.CANCELLED,
      }).to.deep.equal({ PENDING: 1, SUCCEEDED: 1, FAILED: 0, CANCELLED: 1 });
      expect({ succeeded: after.attempts.succeeded - before.attempts.succeeded, failed: after.attempts.failed - before.attempts.failed }).to.deep.equal({ succeeded: 1, failed: 1 });
    });
  });

  describe('WebhookDeliveryRepository: the fan-out cursor', () => {
    it('round-trips the cursor with its gaps', async () => {
      const original = await uow().run((tx) => tx.webhookDeliveries.lockCursor());
      expect(original).to.have.keys('lastRowId', 'gaps');
      const moved = { lastRowId: original!.lastRowId + 7, gaps: [{ from: 3, to: 5, seenAt: 1_700_000_000_000 }] };
      await uow().run((tx) => tx.webhookDeliveries.saveCursor(moved, T1));
      expect(await uow().run((tx) => tx.webhookDeliveries.lockCursor())).to.deep.equal(moved);
      await uow().run((tx) => tx.webhookDeliveries.saveCursor(original!, T1));
    });

    it('a transaction never reads the cursor another one holds: it skips (null) without waiting, or runs after its commit (single writer)', async () => {
      const original = (await uow().run((tx) => tx.webhookDeliveries.lockCursor()))!;
      const moved = { lastRowId: original.lastRowId + 1, gaps: [] };
      try {
        const outcome = await contend(
          uow(),
          contention(),
          async (tx, hold) => {
            await tx.webhookDeliveries.lockCursor();
            await hold();
            await tx.webhookDeliveries.saveCursor(moved, T1);
          },
          (tx) => tx.webhookDeliveries.lockCursor(),
        );
        expectDidNotWait(outcome, contention());
        if (contention().singleWriter) expect(outcome.second, 'read after the first committed').to.deep.equal(moved);
        else expect(outcome.second, 'skipped while the first held it').to.equal(null);
      } finally {
        await uow().run((tx) => tx.webhookDeliveries.saveCursor(original, T1));
      }
    });
  });
}
