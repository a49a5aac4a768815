import { describeRepositoryContract } from './repositories.contract';
import { openKnexHarness } from './knex-harness';

// MariaDB/MySQL; skips without a server, except under CI=true, where it throws instead.
describeRepositoryContract('mysql', () =>
  openKnexHarness('mysql', {
    // InnoDB's transactions of this test database waiting for a row lock (other databases on the
    // server are other test files' and other runs').
    lockWaits: async (db) => {
      const [rows] = await db.raw(
        `SELECT COUNT(*) AS n FROM information_schema.INNODB_TRX t
           JOIN information_schema.PROCESSLIST p ON p.ID = t.trx_mysql_thread_id
          WHERE t.trx_state = 'LOCK WAIT' AND p.DB = DATABASE()`,
      );
      return Number(rows[0].n);
    },
  }),
);
