/**
 * Two units of work against each other, for the contract's concurrency cases: the first takes a
 * lock and holds its transaction open until the second has met that lock, then commits.
 *
 * "Met the lock" depends on the adapter, which the runner describes (Contention):
 * - a single writer (memory: units of work run one after another; SQLite: one connection) cannot
 *   start the second unit of work while the first is open, so the first is let go at once and the
 *   second runs after its commit. The lock's promise then holds by construction, and the case
 *   checks what the second sees: the first's committed writes, never a stale read.
 * - a row-locking database with `lockWaits` (MySQL/MariaDB: InnoDB's LOCK WAIT transactions of
 *   the test database) holds the first until the second is seen waiting on a lock, or has
 *   finished (it skipped the row, or never locked it at all: a broken lock), whichever comes first.
 * - a row-locking database without `lockWaits` holds the first until the second has finished, or
 *   HOLD_TIMEOUT_MS has passed (the second is presumably waiting).
 * Every wait is bounded by HOLD_TIMEOUT_MS; nothing sleeps a fixed time when it can observe.
 */
import type { Repositories, UnitOfWork } from '../../ports/unit-of-work';

/** How an adapter's units of work meet each other (see RepositoryHarness). */
export interface Contention {
  /** A second unit of work cannot start while another is open (memory, SQLite). */
  singleWriter: boolean;
  /** How many of the store's transactions wait for a row lock right now (when the database can tell). */
  lockWaits?: () => Promise<number>;
}

/** The longest the first unit of work holds its lock waiting for the second to meet it. */
export const HOLD_TIMEOUT_MS = 2_000;
/** Between two lockWaits() reads: MySQL refreshes INNODB_TRX only when it was not read for 0.1 s. */
const POLL_MS = 120;

export interface ContentionOutcome<A, B> {
  first: A;
  second: B;
  /** The second unit of work committed while the first still held its lock (it did not wait). */
  secondFinishedWhileHeld: boolean;
  /** The database reported the second waiting on a lock while the first held it. */
  secondSeenWaiting: boolean;
}

/**
 * Runs `first` in a unit of work; once it calls `hold()` (after taking its lock) `second` starts in
 * another. `hold()` returns when the second has met the lock (see above); the first then goes on
 * and commits. Resolves with both results once both committed.
 */
export async function contend<A, B>(
  uow: UnitOfWork,
  contention: Contention,
  first: (tx: Repositories, hold: () => Promise<void>) => Promise<A>,
  second: (tx: Repositories) => Promise<B>,
): Promise<ContentionOutcome<A, B>> {
  let signalHolding!: () => void;
  const holding = new Promise<void>((resolve) => {
    signalHolding = resolve;
  });
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const firstRun = uow.run((tx) =>
    first(tx, async () => {
      signalHolding();
      await released;
    }),
  );
  await Promise.race([
    holding,
    firstRun.then(() => {
      throw new Error('contend: the first unit of work finished without calling hold()');
    }),
  ]);

  let secondDone = false;
  const secondRun = uow.run(second);
  const secondSettled = secondRun.then(
    () => {
      secondDone = true;
    },
    () => {
      secondDone = true;
    },
  );
  let secondSeenWaiting = false;
  if (!contention.singleWriter) {
    const deadline = Date.now() + HOLD_TIMEOUT_MS;
    let timer: NodeJS.Timeout | undefined;
    const watch = async (): Promise<void> => {
      const lockWaits = contention.lockWaits;
      if (!lockWaits) {
        await new Promise<void>((resolve) => {
          timer = setTimeout(resolve, HOLD_TIMEOUT_MS);
        });
        return;
      }
      // The first read waits POLL_MS too: read sooner after the previous case's last one, MySQL
      // would answer that case's waits from its cache.
      for (;;) {
        await new Promise<void>((resolve) => {
          timer = setTimeout(resolve, POLL_MS);
        });
        if (secondDone || Date.now() >= deadline) return;
        if ((await lockWaits()) > 0) {
          secondSeenWaiting = true;
          return;
        }
      }
    };
    await Promise.race([secondSettled, watch()]);
    clearTimeout(timer);
  }
  const secondFinishedWhileHeld = secondDone;
  release();
  const [firstResult, secondResult] = await Promise.all([firstRun, secondRun]);
  return { first: firstResult, second: secondResult, secondFinishedWhileHeld, secondSeenWaiting };
}

/**
 * The second unit of work waited for the first's lock: it did not get past it while the first
 * held it (seen waiting, or still not done after HOLD_TIMEOUT_MS).
 */
export function expectWaited(outcome: ContentionOutcome<unknown, unknown>, contention: Contention): void {
  if (contention.singleWriter) return; // it could not even start
  if (outcome.secondFinishedWhileHeld) throw new Error('the second unit of work finished while the first held the lock: the lock did not hold it');
}

/** The second unit of work did not wait for the first's lock (it skipped the locked row). */
export function expectDidNotWait(outcome: ContentionOutcome<unknown, unknown>, contention: Contention): void {
  if (contention.singleWriter) return; // it could not start before the first committed
  if (!outcome.secondFinishedWhileHeld) throw new Error('the second unit of work waited for the lock the first held instead of skipping it');
}
