import { expect } from 'chai';
import type { Knex } from 'knex';
import { compiledRead, type PageValues, pageValues, paged } from '../../adapters/persistence/knex/compiled-reads';
import { openKnex } from '../../adapters/persistence/knex/connection';
import { createTestDatabase, DATABASE_KINDS, databaseAvailable, type TestDatabase } from '../support/databases';

interface ThingValues extends PageValues {
  owner: number;
  name?: string;
}

/** Counts the statements Knex compiles for it: one per shape, whatever the values. */
let builds = 0;
const thingPage = compiledRead((db, v: ThingValues) => {
  builds += 1;
  const query = db('things').where('owner', v.owner).where('kind', 'kept');
  if (v.name !== undefined) query.where('name', v.name);
  return paged(query.select('id', 'name').orderBy('id', 'desc'), v);
});

for (const kind of DATABASE_KINDS) {
  describe(`compiled reads (adapters/persistence/knex/compiled-reads.ts) [${kind}]`, function () {
    this.timeout(30_000);
    let database: TestDatabase;
    let db: Knex;

    before(async function () {
      if (!(await databaseAvailable(kind))) this.skip();
      database = await createTestDatabase(kind);
      db = openKnex(database.url);
      await db.schema.createTable('things', (t) => {
        t.increments('id');
        t.integer('owner').notNullable();
        t.string('kind', 10).notNullable();
        t.string('name', 40).notNullable();
      });
      const rows = [];
      for (let i = 1; i <= 7; i++) rows.push({ owner: i <= 5 ? 1 : 2, kind: i === 3 ? 'dropped' : 'kept', name: i % 2 === 0 ? 'even' : 'odd' });
      await db('things').insert(rows);
    });

    after(async () => {
      await db?.destroy();
      await database?.drop();
    });

    it('compiles a shape once and binds each call its own values, constants of the query kept', async () => {
      builds = 0;
      const ids = async (values: ThingValues) => (await thingPage<{ id: number }>(db, values)).map((row) => Number(row.id));
      expect(await ids({ owner: 1, ...pageValues({ page: 1, limit: 10 }) })).to.deep.equal([5, 4, 2, 1]);
      expect(await ids({ owner: 2, ...pageValues({ page: 1, limit: 10 }) })).to.deep.equal([7, 6]);
      expect(await ids({ owner: 1, ...pageValues({ page: 1, limit: 2 }) })).to.deep.equal([5, 4]);
      expect(builds).to.equal(1);
      // A later page has an offset, a filter its value: two more shapes.
      expect(await ids({ owner: 1, ...pageValues({ page: 2, limit: 2 }) })).to.deep.equal([2, 1]);
      expect(await ids({ owner: 1, name: 'even', ...pageValues({ page: 1, limit: 10 }) })).to.deep.equal([4, 2]);
      expect(await ids({ owner: 1, name: 'odd', ...pageValues({ page: 1, limit: 10 }) })).to.deep.equal([5, 1]);
      expect(builds).to.equal(3);
    });

    it('answers the rows as objects of their columns', async () => {
      const rows = await thingPage<{ id: number; name: string }>(db, { owner: 2, ...pageValues({ page: 1, limit: 1 }) });
      expect(rows).to.have.length(1);
      expect(Number(rows[0]!.id)).to.equal(7);
      expect(rows[0]!.name).to.equal('odd');
    });

    it('refuses a build that works on a value instead of binding it as it is', async () => {
      const lowered = compiledRead((db2, v: { owner: number; name: string }) => db2('things').where('owner', v.owner).where('name', v.name.toLowerCase()));
      let error: Error | null = null;
      await lowered(db, { owner: 1, name: 'EVEN' }).catch((e: Error) => (error = e));
      expect(error, 'the build lowered its value').to.be.an.instanceOf(Error);
      expect(error!.message).to.match(/compiledRead: name did not come out as bindings/);
    });
  });
}
