import { expect } from 'chai';
import type { Knex } from 'knex';
import { migrateLatest, openKnex } from '../../adapters/persistence/knex/connection';
import { sqlDialect } from '../../adapters/persistence/knex/dialect';
import { migrationSource } from '../../adapters/persistence/knex/migrations';
import { createTestDatabase, DATABASE_KINDS, databaseAvailable, type TestDatabase } from '../support/databases';

/** The schema's tables and indexes (name and columns), sorted: what a migration's down must give back. */
async function schemaOf(db: Knex): Promise<string[]> {
  const dialect = sqlDialect(db).name;
  if (dialect === 'mysql') {
    const [rows] = (await db.raw(
      `SELECT table_name AS t, index_name AS i, GROUP_CONCAT(column_name ORDER BY seq_in_index) AS c
         FROM information_schema.statistics WHERE table_schema = DATABASE() GROUP BY table_name, index_name`,
    )) as [{ t: string; i: string; c: string }[]];
    return rows.map((r) => `${r.t} ${r.i} (${r.c})`).sort();
  }
  if (dialect === 'postgres') {
    const { rows } = (await db.raw(`SELECT tablename AS t, indexname AS i, indexdef AS c FROM pg_indexes WHERE schemaname = current_schema()`)) as {
      rows: { t: string; i: string; c: string }[];
    };
    return rows.map((r) => `${r.t} ${r.i} ${r.c}`).sort();
  }
  const rows = (await db.raw(`SELECT type, tbl_name AS t, name AS i, sql AS c FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'`)) as { type: string; t: string; i: string; c: string | null }[];
  return rows.map((r) => `${r.type} ${r.t} ${r.i} ${r.c ?? ''}`).sort();
}

/**
 * Every migration can be undone, on every database: stepping down one migration at a time to an
 * empty schema, then up again, ends with the schema it started from. An operator who rolls back a
 * release runs the newest `down`s; MySQL refuses to drop an index a foreign key still needs, which
 * two early migrations' `down`s did before they dropped the key first.
 */
for (const kind of DATABASE_KINDS) {
  describe(`migrations down and up [${kind}]`, function () {
    this.timeout(120_000);
    let database: TestDatabase | null = null;
    let db: Knex;

    before(async function () {
      if (!(await databaseAvailable(kind))) this.skip();
      database = await createTestDatabase(kind);
      db = openKnex(database.url);
    });

    after(async () => {
      if (!database) return;
      await db.destroy();
      await database.drop();
    });

    it('steps down through every migration to nothing, then up again to the same schema', async () => {
      await migrateLatest(db);
      const latest = await schemaOf(db);
      const [, pending] = (await db.migrate.list({ migrationSource })) as [unknown[], unknown[]];
      expect(pending).to.have.length(0);
      const all = (await migrationSource.getMigrations([])).length;
      let undone = 0;
      for (;;) {
        const [, names] = (await db.migrate.down({ migrationSource })) as [number, string[]];
        if (names.length === 0) break;
        undone += names.length;
      }
      expect(undone).to.equal(all);
      await migrateLatest(db);
      expect(await schemaOf(db)).to.deep.equal(latest);
    });
  });
}
