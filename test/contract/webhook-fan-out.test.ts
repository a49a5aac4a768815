import { expect } from 'chai';
import type { Knex } from 'knex';
import { migrateLatest, openKnex } from '../../adapters/persistence/knex/connection';
import { KnexUnitOfWork, knexRepositories } from '../../adapters/persistence/knex/knex-unit-of-work';
import { FixedClock } from '../../adapters/clock/fixed-clock';
import { FanOutEvents } from '../../internal/webhooks/jobs/fan-out-events';
import type { Repositories, UnitOfWork } from '../../ports/unit-of-work';
import { createTestDatabase, databaseAvailable, type DatabaseKind, type TestDatabase } from '../support/databases';
import { testEventWriting } from '../support/event-writing';
import { newProduct, newTenant, productEvent, T1, type TenantFixture, uid } from './fixtures';
import { testSecretBox } from '../support/secrets';

/**
 * The fan-out on real MySQL and PostgreSQL, where event rows commit in any order (ids are taken
 * at insert, committed later): a row whose transaction commits after a later row was read is
 * still fanned out (once), and two fan-outs at once never both run (the second skips its turn).
 */
for (const kind of ['mysql', 'postgres'] as DatabaseKind[]) {
  describe(`webhook fan-out on ${kind === 'mysql' ? 'MySQL' : 'PostgreSQL'}: rows committing out of id order`, function () {
    this.timeout(30_000);
    let database: TestDatabase | null = null;
    let db: Knex;
    let repos: Repositories;
    let uow: UnitOfWork;
    const clock = new FixedClock(new Date('2031-01-01T00:00:00.000Z'));

    before(async function () {
      if (!(await databaseAvailable(kind))) this.skip();
      database = await createTestDatabase(kind);
      db = openKnex(database.url);
      await migrateLatest(db);
      repos = knexRepositories(db, { events: testEventWriting(), secrets: testSecretBox() });
      uow = new KnexUnitOfWork(db, { events: testEventWriting(), secrets: testSecretBox() });
    });
    after(async () => {
      if (!database) return;
      await db.destroy();
      await database.drop();
    });


    async function endpointFixture() {
      const t = await newTenant(repos);
      const endpoint = await repos.webhookEndpoints.insert({
        organizationId: t.organization.id,
        companyId: t.company.id,
        code: `e${uid()}`,
        url: 'https://hooks.example.com/in',
        enabledEvents: ['*'],
        enabled: true,
        description: null,
        previousSecret: null,
        previousSecretExpiresAt: null,
        secret: 'whsec_x',
        sinceEventRowId: await repos.events.lastId(),
        createdAt: T1,
        updatedAt: T1,
      });
      const products = [await repos.products.insert(newProduct(t.company)), await repos.products.insert(newProduct(t.company))];
      return { t, endpoint, products };
    }

    const deliveredEvents = async (endpointId: number, t: TenantFixture) => {
      const page = await repos.events.list(t.company.id, {}, { page: 1, limit: 50 });
      const rows = (await Promise.all(page.items.map((e) => repos.webhookDeliveries.ofEvent(e.id)))).flat();
      return rows.filter((r) => r.delivery.endpointId === endpointId).map((r) => r.delivery.eventRowId).sort((a, b) => a - b);
    };

    it('a row committed after a later one was fanned out is fanned out on a later turn, once', async () => {
      const { t, endpoint, products } = await endpointFixture();
      const fanOut = new FanOutEvents({ uow, clock });
      await fanOut.execute();

      let release!: () => void;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let written!: () => void;
      const isWritten = new Promise<void>((resolve) => {
        written = resolve;
      });
      // The slow transaction takes its id first and commits last.
      const slow = uow.run(async (tx) => {
        await tx.events.append([productEvent(t, products[0]!)]);
        written();
        await held;
      });
      await isWritten;
      await uow.run((tx) => tx.events.append([productEvent(t, products[1]!)]));
      const fast = (await repos.events.list(t.company.id, {}, { page: 1, limit: 5 })).items.map((e) => e.id);
      expect(fast).to.have.length(1);

      await fanOut.execute();
      expect(await deliveredEvents(endpoint.id, t)).to.deep.equal(fast);
      const cursor = (await uow.run((tx) => tx.webhookDeliveries.lockCursor()))!;
      expect(cursor.gaps.length, JSON.stringify(cursor)).to.be.at.least(1);

      release();
      await slow;
      const all = (await repos.events.list(t.company.id, {}, { page: 1, limit: 5 })).items.map((e) => e.id).sort((a, b) => a - b);
      expect(all).to.have.length(2);
      expect(all[0]).to.be.lessThan(all[1]!);
      await fanOut.execute();
      await fanOut.execute();
      expect(await deliveredEvents(endpoint.id, t)).to.deep.equal(all);
    });

    it('while one fan-out holds the cursor another skips its turn at once; racing fan-outs write each delivery once', async () => {
      const { t, endpoint, products } = await endpointFixture();
      await uow.run((tx) => tx.events.append([productEvent(t, products[0]!), productEvent(t, products[1]!)]));
      let release!: () => void;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => {
        locked = resolve;
      });
      const holder = uow.run(async (tx) => {
        await tx.webhookDeliveries.lockCursor();
        locked();
        await held;
      });
      await isLocked;
      expect(await new FanOutEvents({ uow, clock }).execute()).to.equal(null);
      release();
      await holder;

      const turns = await Promise.all(Array.from({ length: 4 }, () => new FanOutEvents({ uow, clock }).execute()));
      expect(turns.filter((turn) => turn !== null).length).to.be.at.least(1);
      expect(await deliveredEvents(endpoint.id, t)).to.have.length(2);
    });
  });
}
