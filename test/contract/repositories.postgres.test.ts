import { describeRepositoryContract } from './repositories.contract';
import { openKnexHarness } from './knex-harness';

// PostgreSQL; skips without a server, except under CI=true, where it throws instead.
describeRepositoryContract('postgres', () =>
  openKnexHarness('postgres', {
    // Sessions of this database waiting on a row or table lock (the contention cases' signal).
    lockWaits: async (db) => {
      const { rows } = await db.raw(`SELECT COUNT(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`);
      return Number(rows[0].n);
    },
  }),
);
