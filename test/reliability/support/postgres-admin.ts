/**
 * An administrator's connection to a test's PostgreSQL database, beside the API's pool: what
 * mysql-admin.ts does on MySQL, through pg_stat_activity, pg_locks and pg_terminate_backend.
 */
import knex from 'knex';
import { waitFor } from '../../support/child-process';
import type { MysqlAdmin } from './mysql-admin';

export function openPostgresAdmin(databaseUrl: string): MysqlAdmin {
  const database = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  const db = knex({ client: 'pg', connection: { connectionString: databaseUrl }, pool: { min: 0, max: 4 } });
  /** The table each waiting backend was inserting into when found (its own lock is not a write to count). */
  const waitingOn = new Map<number, string>();
  return {
    db,
    async waitForStatement(statement) {
      // Only a backend waiting on a lock counts (the administrator's own blocker ran the same statement).
      const row = await waitFor(
        async () =>
          (
            (await db.raw(
              `SELECT pid FROM pg_stat_activity
                WHERE datname = ? AND wait_event_type = 'Lock' AND state = 'active' AND pid <> pg_backend_pid() AND query LIKE ?`,
              [database, `${statement}%`],
            )) as { rows: { pid: number }[] }
          ).rows[0],
        `a connection waiting on a lock in "${statement}…"`,
        { timeoutMs: 15_000, everyMs: 50 },
      );
      const table = /^\s*insert\s+into\s+"([^"]+)"/i.exec(statement)?.[1];
      if (table) waitingOn.set(row.pid, table);
      return row.pid;
    },
    async rowsWrittenBy(pid) {
      // PostgreSQL keeps no count of a transaction's rows: the tables it has written (holds ROW
      // EXCLUSIVE on), other than the one its waiting INSERT is for, stand for them.
      const { rows } = (await db.raw(
        `SELECT count(DISTINCT c.relname) AS n FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
          WHERE l.pid = ? AND l.mode = 'RowExclusiveLock' AND l.granted AND c.relkind = 'r' AND c.relname <> ?`,
        [pid, waitingOn.get(pid) ?? ''],
      )) as { rows: { n: number | string }[] };
      return Number(rows[0]!.n);
    },
    async kill(pid) {
      await db.raw('SELECT pg_terminate_backend(?)', [pid]);
    },
    close: () => db.destroy(),
  };
}
