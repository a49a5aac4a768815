import { AsyncLocalStorage } from 'node:async_hooks';
import crypto from 'node:crypto';
import type { Knex } from 'knex';
import type { ReadRouter } from '../../../ports/read-router';
import { sqlDialect } from './dialect';

/** What the replica's lag monitor last saw. */
export interface ReplicaState {
  /** Seconds_Behind_Master (MySQL) or the replay lag (PostgreSQL), or null when the replica does not answer or a replication thread stopped. */
  lagSeconds: number | null;
  /** Whether reads may go there now: answering, replicating, and no more than the allowed lag behind. */
  usable: boolean;
  /** Why it is skipped, when it is. */
  reason: string | null;
}

/** Remembers, for every process, which clients wrote recently (Redis: shared by every API process). */
export interface RecentWrites {
  mark(clientKey: string, ms: number): Promise<void>;
  /** True when the client wrote within its window; a store that fails answers true (read the primary). */
  recent(clientKey: string): Promise<boolean>;
}

/** This process's memory (no Redis): read-your-writes holds for requests that reach this process. */
export class InProcessRecentWrites implements RecentWrites {
  private readonly until = new Map<string, number>();
  async mark(clientKey: string, ms: number): Promise<void> {
    if (this.until.size > 100_000) this.until.clear();
    this.until.set(clientKey, Date.now() + ms);
  }
  async recent(clientKey: string): Promise<boolean> {
    return (this.until.get(clientKey) ?? 0) > Date.now();
  }
}

/** Redis: `SET <prefix>:recent-write:<sha256 of the key> 1 PX <ms>`, read with EXISTS. */
export class RedisRecentWrites implements RecentWrites {
  constructor(
    private readonly redis: { set(key: string, value: string, px: 'PX', ms: number): Promise<unknown>; exists(key: string): Promise<number> },
    private readonly prefix: string,
  ) {}
  private key(clientKey: string): string {
    return `${this.prefix}:recent-write:${crypto.createHash('sha256').update(clientKey).digest('base64url')}`;
  }
  async mark(clientKey: string, ms: number): Promise<void> {
    await this.redis.set(this.key(clientKey), '1', 'PX', ms).catch(() => undefined);
  }
  async recent(clientKey: string): Promise<boolean> {
    try {
      return (await this.redis.exists(this.key(clientKey))) === 1;
    } catch {
      return true;
    }
  }
}

export interface ReadRoutingObserver {
  /** A statement outside a transaction was sent to `target`. */
  read(target: 'primary' | 'replica'): void;
  /** The replica became usable, or stopped being (with the reason). */
  replicaChanged(state: ReplicaState): void;
}

/**
 * Read routing over a primary and a replica. `db` is the Knex the repositories use outside
 * transactions: each statement started inside `run` of a safe request whose client has not
 * written within `readYourWritesMs` goes to the replica while the lag monitor finds it usable;
 * every other statement, and every transaction (units of work run on the primary's own Knex),
 * goes to the primary. The monitor asks the replica where it stands (SqlDialect.replicaStatus:
 * `SHOW SLAVE STATUS` on MySQL, pg_last_xact_replay_timestamp() on PostgreSQL) every `checkEveryMs`: a replica
 * that does not answer, whose replication stopped, or that is more than `maxLagSeconds` behind
 * is skipped until it is back.
 */
export class ReplicaReadRouting implements ReadRouter {
  private readonly context = new AsyncLocalStorage<{ replica: boolean }>();
  private state: ReplicaState = { lagSeconds: null, usable: false, reason: 'not checked yet' };
  private timer: NodeJS.Timeout | null = null;
  readonly db: Knex;

  private observer: ReadRoutingObserver | null = null;

  constructor(
    primary: Knex,
    private readonly replica: Knex,
    private readonly options: { maxLagSeconds: number; readYourWritesMs: number; checkEveryMs?: number; recentWrites: RecentWrites; close?: () => Promise<void> },
  ) {
    this.db = routedKnex(primary, replica, () => {
      const target = this.context.getStore()?.replica && this.state.usable ? 'replica' : 'primary';
      this.observer?.read(target);
      return target;
    });
  }

  /** Metrics and logs of the routing (set once the process has them). */
  observe(observer: ReadRoutingObserver): void {
    this.observer = observer;
    observer.replicaChanged(this.state);
  }

  /** Starts the lag monitor (first check now). */
  async start(): Promise<void> {
    await this.check();
    this.timer = setInterval(() => void this.check(), this.options.checkEveryMs ?? 1000);
    this.timer.unref();
  }

  replicaState(): ReplicaState {
    return this.state;
  }

  async run<T>(request: { safe: boolean; clientKey: string | null }, work: () => Promise<T>): Promise<T> {
    if (!request.safe) {
      try {
        return await this.context.run({ replica: false }, work);
      } finally {
        // The window opens when the write is done (committed or not: a failed write costs a few primary reads).
        if (request.clientKey) await this.options.recentWrites.mark(request.clientKey, this.options.readYourWritesMs);
      }
    }
    const replica = this.state.usable && !(request.clientKey && (await this.options.recentWrites.recent(request.clientKey)));
    return this.context.run({ replica }, work);
  }

  private async check(): Promise<void> {
    let next: ReplicaState;
    try {
      const status = await sqlDialect(this.replica).replicaStatus(this.replica);
      if (status.kind === 'not-a-replica') next = { lagSeconds: null, usable: false, reason: `the server is not a replica (${status.detail})` };
      else if (status.kind === 'stopped') next = { lagSeconds: null, usable: false, reason: `replication stopped (${status.detail})` };
      else {
        const lag = status.lagSeconds;
        next = lag > this.options.maxLagSeconds ? { lagSeconds: lag, usable: false, reason: `${lag} s behind (REPLICA_MAX_LAG_SECONDS ${this.options.maxLagSeconds})` } : { lagSeconds: lag, usable: true, reason: null };
      }
    } catch (error) {
      next = { lagSeconds: null, usable: false, reason: `no answer: ${(error as Error).message}` };
    }
    const changed = next.usable !== this.state.usable;
    this.state = next;
    if (changed) this.observer?.replicaChanged(next);
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.replica.destroy();
    await this.options.close?.();
  }
}

const TARGET = Symbol('the Knex a statement started now goes to');

/**
 * The Knex a statement started here and now would go to: under read routing the primary's or the
 * replica's (as routedKnex chooses, and counted as a read there); otherwise `db` itself. For a
 * statement sent later on the caller's behalf (read-batches.ts), so that it reads where the
 * caller's own statement would have.
 */
export function statementTarget(db: Knex): Knex {
  return ((db as unknown as Record<symbol, Knex | undefined>)[TARGET]) ?? db;
}

/**
 * A Knex that sends each statement to the primary or the replica, as `choose` says when the
 * statement is started (`db(table)`, `db.raw`, ...). Transactions always run on the primary.
 */
function routedKnex(primary: Knex, replica: Knex, choose: () => 'primary' | 'replica'): Knex {
  const pick = () => (choose() === 'replica' ? replica : primary);
  return new Proxy(primary, {
    apply(_target, _this, args: unknown[]) {
      return (pick() as unknown as (...a: unknown[]) => unknown)(...args);
    },
    get(_target, property) {
      if (property === TARGET) return pick();
      const target = property === 'transaction' || property === 'destroy' ? primary : pick();
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  }) as Knex;
}
