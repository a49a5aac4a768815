import { expect } from 'chai';
import { openKnex } from '../../adapters/persistence/knex/connection';
import { InProcessRecentWrites, ReplicaReadRouting } from '../../adapters/persistence/knex/read-routing';
import { createTestDatabase, databaseAvailable, type DatabaseKind } from '../support/databases';

/**
 * The lag monitor's question, asked of each server database (SqlDialect.replicaStatus): a primary
 * is "not a replica", so reads stay on it. A real replica is checked by the read-replica system
 * test (MariaDB) only.
 */
for (const [kind, reason] of [
  ['mysql', 'the server is not a replica (SHOW SLAVE STATUS is empty)'],
  ['postgres', 'the server is not a replica (pg_is_in_recovery() is false)'],
] as [DatabaseKind, string][]) {
  describe(`replica status of a primary [${kind}]`, () => {
    it('is not a replica: the routing keeps every read on the primary', async function () {
      if (!(await databaseAvailable(kind))) this.skip();
      const database = await createTestDatabase(kind);
      const primary = openKnex(database.url);
      const routing = new ReplicaReadRouting(primary, openKnex(database.url), { maxLagSeconds: 5, readYourWritesMs: 0, recentWrites: new InProcessRecentWrites() });
      try {
        await routing.start();
        expect(routing.replicaState()).to.deep.equal({ lagSeconds: null, usable: false, reason });
      } finally {
        await routing.close();
        await primary.destroy();
        await database.drop();
      }
    });
  });
}
