import type { Knex } from 'knex';
import { statementTarget } from './read-routing';

/**
 * Reads by key outside a transaction that are made at one moment: the API's `GET /x/{id}` requests
 * whose previous step (the rate-limit call) answered together reach their read in one turn of the
 * event loop. The reads of one `what` (debts of a company by externalRequestId, say) made before
 * the loop moves on go as one `SELECT … WHERE key IN (…)`, `readAll` of their keys, which answers
 * what it found by key; each caller gets its own row or null. One statement instead of one each
 * spares the API its per-statement work (building the SQL, the socket write, the result's column
 * definitions) and the database its per-statement parse and round trip.
 *
 * - **Where it reads.** Batches are kept apart by the database each caller's own statement would
 *   have gone to (statementTarget: the primary or the replica under read routing), so that a
 *   client that has just written still reads the primary.
 * - **What it sees.** The statement is sent after every caller asked, so each sees at least what
 *   committed before it asked: nothing older than its own read alone would.
 * - **Failures.** When the shared statement fails, each key is read again alone, so that one
 *   caller's key (one PostgreSQL refuses, say) fails only that caller.
 * - **Keys.** `readAll` keys its rows as the comparison matched them (see withoutTrailingSpaces below for
 *   MySQL's PAD SPACE); a key that ends in a space is read alone by the
 *   caller.
 * - **Plans.** A key unique on its own (a primary key, a code) is read by that key alone and the
 *   rows of other tenants are dropped in code: given `company_id = ? AND id IN (…)` on a table
 *   whose statistics are from when it was small (right after a burst of creates, until autovacuum
 *   analyzes it), PostgreSQL walks a company_id index through every row of the company instead of
 *   the primary key, as a single `id = ?` never does. A key unique only per tenant (a debt's
 *   externalRequestId) keeps the tenant in the statement: its index leads with it.
 */
export type ReadAll<T> = (keys: string[], db: Knex | Knex.Transaction) => Promise<Map<string, T>>;

interface Batch {
  readAll: ReadAll<unknown>;
  waiting: Map<string, Caller[]>;
}

interface Caller {
  resolve(found: unknown): void;
  reject(error: unknown): void;
}

/** At most this many keys in one statement. */
const MOST_KEYS = 500;

/** The batches waiting for the next turn of the loop, by the Knex their statements go to, then by `what`. */
const waiting = new Map<Knex, Map<string, Batch>>();

export function readTogether<T>(db: Knex, what: string, key: string, readAll: ReadAll<T>): Promise<T | null> {
  const target = statementTarget(db);
  let batches = waiting.get(target);
  if (!batches) {
    batches = new Map();
    waiting.set(target, batches);
    setImmediate(() => send(target));
  }
  let batch = batches.get(what);
  if (!batch) {
    batch = { readAll: readAll as ReadAll<unknown>, waiting: new Map() };
    batches.set(what, batch);
  }
  return new Promise((resolve, reject) => {
    const caller = { resolve: (found: unknown) => resolve((found as T | undefined) ?? null), reject };
    const callers = batch.waiting.get(key);
    if (callers) callers.push(caller);
    else batch.waiting.set(key, [caller]);
  });
}

function send(target: Knex): void {
  const batches = waiting.get(target);
  waiting.delete(target);
  for (const batch of batches?.values() ?? []) {
    const keys = [...batch.waiting.keys()];
    for (let at = 0; at < keys.length; at += MOST_KEYS) void read(target, batch, keys.slice(at, at + MOST_KEYS));
  }
}

async function read(target: Knex, batch: Batch, keys: string[]): Promise<void> {
  try {
    const found = await batch.readAll(keys, target);
    for (const key of keys) for (const caller of batch.waiting.get(key)!) caller.resolve(found.get(key));
  } catch (error) {
    if (keys.length === 1) for (const caller of batch.waiting.get(keys[0]!)!) caller.reject(error);
    else await Promise.all(keys.map((key) => read(target, batch, [key])));
  }
}

/**
 * The rows of a read by a key unique on its own (see "Plans" above) that belong to `tenantId` in
 * `tenantColumn`, as the map a `readAll` answers: keyed by `keyColumn` without trailing spaces.
 */
export function ownRowsByKey<R extends Record<string, any>, T>(rows: R[], tenantColumn: keyof R, tenantId: number, keyColumn: keyof R, toValue: (row: R) => T): Map<string, T> {
  const own = rows.filter((row) => Number(row[tenantColumn]) === tenantId);
  return new Map(own.map((row) => [withoutTrailingSpaces(String(row[keyColumn])), toValue(row)]));
}

/**
 * A read by key answers what the same read alone would, and MySQL/MariaDB compare with PAD SPACE:
 * "Gym" finds a row "Gym " (a unique key holds only one of them). So a lookUp's `readAll` keys
 * the rows it found without their trailing spaces, and a key that ends in a space is read alone.
 */
export function withoutTrailingSpaces(key: string): string {
  return key.replace(/ +$/, '');
}

export function endsInSpace(key: string): boolean {
  return key.endsWith(' ');
}
