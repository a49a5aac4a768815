import type { Knex } from 'knex';
import type { PoolState } from '../../metrics/metrics';

interface TarnPool {
  max: number;
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
  numPendingCreates(): number;
}

/** Knex's connection pool (tarn) as the metrics report it. */
export function knexPoolState(db: Knex): PoolState {
  const pool = (db.client as { pool?: TarnPool }).pool;
  if (!pool) return { used: 0, free: 0, pendingAcquires: 0, pendingCreates: 0, max: 0 };
  return { used: pool.numUsed(), free: pool.numFree(), pendingAcquires: pool.numPendingAcquires(), pendingCreates: pool.numPendingCreates(), max: pool.max };
}
