import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { waitFor } from './child-process';
import { freePort } from './private-redis';

/**
 * A MariaDB primary and a GTID read replica of it, of the test's own (never the shared server):
 * two mariadbd processes from Debian's package on free loopback ports, data directories under
 * /tmp, the replica `read_only`, replicating from the primary's position at start. Ended by PID.
 */
export interface MariadbPair {
  primaryPort: number;
  replicaPort: number;
  /** A statement as root on the primary or the replica. */
  primary(sql: string): Promise<unknown>;
  replica(sql: string): Promise<unknown>;
  /** SIGKILL the replica (a crash). */
  killReplica(): Promise<void>;
  stop(): Promise<void>;
}

export function mariadbdAvailable(): boolean {
  return fs.existsSync('/usr/sbin/mariadbd') && spawnSync('sh', ['-c', 'command -v mariadb-install-db']).status === 0;
}

export async function startMariadbPair(options: { bufferPoolMb?: number } = {}): Promise<MariadbPair> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cf-mariadb-pair-'));
  const children: ChildProcess[] = [];
  const start = async (role: 'primary' | 'replica', serverId: number) => {
    const datadir = path.join(dir, role);
    const install = spawnSync('mariadb-install-db', ['--no-defaults', `--datadir=${datadir}`, '--auth-root-authentication-method=normal', '--skip-test-db', '--user=root'], { encoding: 'utf8' });
    if (install.status !== 0) throw new Error(`mariadb-install-db (${role}) failed:\n${install.stdout}${install.stderr}`);
    const port = await freePort();
    const args = [
      '--no-defaults', `--datadir=${datadir}`, '--user=root', `--port=${port}`, '--bind-address=127.0.0.1', `--socket=${path.join(dir, `${role}.sock`)}`,
      `--pid-file=${path.join(dir, `${role}.pid`)}`, `--server-id=${serverId}`, '--log-bin=mariadb-bin', '--binlog-format=ROW', '--gtid-strict-mode=ON',
      `--innodb-buffer-pool-size=${options.bufferPoolMb ?? 64}M`, '--skip-name-resolve', '--character-set-server=utf8mb4', '--collation-server=utf8mb4_bin',
      ...(role === 'replica' ? ['--read-only=ON', '--log-slave-updates=ON'] : []),
    ];
    const child = spawn('/usr/sbin/mariadbd', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    children.push(child);
    await waitFor(() => query(port, 'SELECT 1').then(() => true, () => false), `mariadbd ${role} on ${port}`, { timeoutMs: 30_000, everyMs: 100 }).catch((error: Error) => {
      throw new Error(`${error.message}\n${output}`);
    });
    return { port, child };
  };
  const stop = async () => {
    for (const child of children) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await new Promise((resolve) => child.once('exit', resolve));
      }
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    const [primary, replica] = await Promise.all([start('primary', 1), start('replica', 2)]);
    await query(primary.port, "CREATE USER 'repl'@'%' IDENTIFIED BY 'repl'");
    await query(primary.port, "GRANT REPLICATION SLAVE ON *.* TO 'repl'@'%'");
    const [[{ pos }]] = (await query(primary.port, 'SELECT @@gtid_binlog_pos AS pos')) as [[{ pos: string }]];
    await query(replica.port, `SET GLOBAL gtid_slave_pos = '${pos}'`);
    await query(replica.port, `CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT=${primary.port}, MASTER_USER='repl', MASTER_PASSWORD='repl', MASTER_USE_GTID=slave_pos, MASTER_CONNECT_RETRY=1`);
    await query(replica.port, 'START SLAVE');
    await waitFor(
      async () => {
        const [rows] = (await query(replica.port, 'SHOW SLAVE STATUS')) as [Record<string, unknown>[]];
        return rows[0]?.Slave_IO_Running === 'Yes' && rows[0]?.Slave_SQL_Running === 'Yes';
      },
      'replication running',
      { timeoutMs: 20_000, everyMs: 100 },
    );
    return {
      primaryPort: primary.port,
      replicaPort: replica.port,
      primary: (sql) => query(primary.port, sql),
      replica: (sql) => query(replica.port, sql),
      async killReplica() {
        replica.child.kill('SIGKILL');
        await new Promise((resolve) => (replica.child.exitCode !== null || replica.child.signalCode !== null ? resolve(null) : replica.child.once('exit', resolve)));
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function query(port: number, sql: string): Promise<unknown> {
  const conn = await mysql.createConnection({ host: '127.0.0.1', port, user: 'root', connectTimeout: 1000 });
  try {
    return await conn.query(sql);
  } finally {
    await conn.end();
  }
}
