import type { DatabaseKind } from './environment';

/** The command line of `npm run bench` (usage in bench/run.ts). */

export interface Options {
  /** Only re-write docs/performance.md from its raw figures with the current report code. */
  render: boolean;
  quick: boolean;
  durationSec: number;
  warmupSec: number;
  connections: number;
  /** --connections given: it then applies to every scenario, also those with a count of their own. */
  connectionsForced: boolean;
  write: boolean;
  /** Scenario id prefixes to run (null: all). */
  only: string[] | null;
  /** Seconds per scenario in the memory passes (no warm-up). */
  memoryPassSec: number;
  /** The server's InnoDB buffer pool for this run, in MiB (null: as configured). */
  bufferPoolMiB: number | null;
  /** Debts per payment-reminders run (--reminder-debts; 100,000 by default, 100 quick: the smoke test of the path, kept short so the quick bench stays under a minute). */
  reminderDebts: number;
  /** The server the API runs on (--database mysql|postgres; mysql by default). */
  database: DatabaseKind;
}

const DATABASES: DatabaseKind[] = ['mysql', 'postgres'];

export function parseArgs(argv: string[]): Options {
  const quick = argv.includes('--quick');
  const value = (flag: string) => {
    const i = argv.indexOf(flag);
    if (i < 0) return undefined;
    const n = Number(argv[i + 1]);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`${flag} needs a positive number`);
    return n;
  };
  const known = new Set(['--render', '--quick', '--duration', '--connections', '--no-write', '--write', '--only', '--innodb-buffer-pool', '--reminder-debts', '--database']);
  for (const [i, arg] of argv.entries()) {
    if (arg.startsWith('--') && !known.has(arg)) throw new Error(`unknown option ${arg}`);
    if (!arg.startsWith('--') && !['--duration', '--connections', '--only', '--innodb-buffer-pool', '--reminder-debts', '--database'].includes(argv[i - 1] ?? '')) throw new Error(`unexpected argument ${arg}`);
  }
  const databaseAt = argv.indexOf('--database');
  const database = (databaseAt < 0 ? 'mysql' : argv[databaseAt + 1]) as DatabaseKind;
  if (!DATABASES.includes(database)) throw new Error(`--database needs one of ${DATABASES.join(', ')}`);
  if (database !== 'mysql' && argv.includes('--innodb-buffer-pool')) throw new Error('--innodb-buffer-pool applies to MySQL/MariaDB only');
  const onlyAt = argv.indexOf('--only');
  const only = onlyAt < 0 ? null : (argv[onlyAt + 1] ?? '').split(',').filter(Boolean);
  if (only !== null && only.length === 0) throw new Error('--only needs scenario ids');
  return {
    render: argv.includes('--render'),
    quick,
    durationSec: value('--duration') ?? (quick ? 1 : 10),
    warmupSec: quick ? 0 : 2,
    connections: value('--connections') ?? 32,
    connectionsForced: value('--connections') !== undefined,
    // A quick (CI smoke) run checks that the bench works; it leaves the published figures alone.
    write: only === null && (argv.includes('--write') || (!quick && !argv.includes('--no-write'))),
    only,
    bufferPoolMiB: value('--innodb-buffer-pool') ?? null,
    // The quick (CI smoke) run keeps inside a minute on a slower machine too (65 s with 100 debts
    // and a second bulk generation run on a 2,100 MHz one).
    reminderDebts: value('--reminder-debts') ?? (quick ? 40 : 100_000),
    memoryPassSec: quick ? 1 : 3,
    database,
  };
}
