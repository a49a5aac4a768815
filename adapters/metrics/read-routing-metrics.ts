import { Counter, Gauge } from 'prom-client';
import type { MetricsCollector } from './metrics';

/** What the metrics read of the read routing (adapters/persistence/knex/read-routing.ts). */
export interface ReplicaReadings {
  state(): { lagSeconds: number | null; usable: boolean };
}

/**
 * With DATABASE_READ_URL: `cf_db_replica_lag_seconds` (Seconds_Behind_Master as the API's lag
 * monitor last read it; absent while the replica does not answer or its replication stopped),
 * `cf_db_replica_in_use` (1 while reads may go there, 0 while it is skipped) and
 * `cf_db_reads_total{target}` (statements outside transactions sent to `primary` or `replica`).
 * Returns the collector and the counter's increment.
 */
export function readRoutingMetrics(replica: ReplicaReadings): { collector: MetricsCollector; read(target: 'primary' | 'replica'): void } {
  let reads: Counter<'target'> | null = null;
  return {
    collector: (registry) => {
      const registers = [registry];
      new Gauge({
        name: 'cf_db_replica_lag_seconds',
        help: 'Seconds the read replica is behind the primary (Seconds_Behind_Master), as last checked; absent while it does not answer or replication stopped',
        registers,
        collect() {
          const { lagSeconds } = replica.state();
          if (lagSeconds === null) this.reset();
          else this.set(lagSeconds);
        },
      });
      new Gauge({
        name: 'cf_db_replica_in_use',
        help: '1 while API reads may go to the read replica, 0 while it is skipped (down, replication stopped, or behind REPLICA_MAX_LAG_SECONDS)',
        registers,
        collect() {
          this.set(replica.state().usable ? 1 : 0);
        },
      });
      reads = new Counter({ name: 'cf_db_reads_total', help: 'Database statements outside transactions, by where the read routing sent them (primary or replica)', labelNames: ['target'], registers });
    },
    read: (target) => reads?.inc({ target }),
  };
}
