/**
 * An administrator's connection to a test's MySQL/MariaDB database, beside the API's pool: it
 * holds locks the API's transactions then wait on, finds the API's connection waiting in the
 * process list, and kills it (what a network cut or a failover does to a connection).
 */
import knex, { type Knex } from 'knex';
import { waitFor } from '../../support/child-process';

export interface MysqlAdmin {
  db: Knex;
  /**
   * The id of the connection (of the test's database) whose statement starting with `statement`
   * waits on a row lock. Only a lock wait counts: the administrator's own blocker ran the same
   * statement a moment before, and on a loaded server the process list can still show it.
   */
  waitForStatement(statement: string): Promise<number>;
  /** Rows the open transaction of that connection has written so far (InnoDB's count). */
  rowsWrittenBy(connectionId: number): Promise<number>;
  /** KILL CONNECTION: the server closes it and rolls back its open transaction. */
  kill(connectionId: number): Promise<void>;
  close(): Promise<void>;
}

export function openMysqlAdmin(databaseUrl: string): MysqlAdmin {
  const database = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  // Not the application's pool settings: the server's default isolation (REPEATABLE READ).
  const db = knex({ client: 'mysql2', connection: { uri: databaseUrl } as never, pool: { min: 0, max: 4 } });
  return {
    db,
    async waitForStatement(statement) {
      const row = await waitFor(
        async () => {
          const rows = (await db.raw(
            `SELECT p.ID AS id FROM information_schema.INNODB_TRX t JOIN information_schema.PROCESSLIST p ON p.ID = t.trx_mysql_thread_id
             WHERE p.DB = ? AND t.trx_state = 'LOCK WAIT' AND t.trx_query LIKE ?`,
            [database, `${statement}%`],
          ))[0] as { id: number }[];
          return rows[0];
        },
        `a connection waiting on a lock in "${statement}…"`,
        // INNODB_TRX is refreshed only when it has not been read for 0.1 s (below): poll slower.
        { timeoutMs: 15_000, everyMs: 150 },
      );
      return Number(row.id);
    },
    async rowsWrittenBy(connectionId) {
      // INNODB_TRX is a snapshot the server refreshes only when it has not been read for 0.1 s:
      // poll slower than that until the transaction shows.
      const row = await waitFor(
        async () => ((await db.raw('SELECT trx_rows_modified AS n FROM information_schema.INNODB_TRX WHERE trx_mysql_thread_id = ?', [connectionId]))[0] as { n: number }[])[0],
        `the transaction of connection ${connectionId} in INNODB_TRX`,
        { timeoutMs: 5_000, everyMs: 250 },
      );
      return Number(row.n);
    },
    async kill(connectionId) {
      await db.raw(`KILL CONNECTION ${Number(connectionId)}`);
    },
    close: () => db.destroy(),
  };
}
