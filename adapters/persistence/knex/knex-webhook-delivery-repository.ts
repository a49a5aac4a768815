import type { Knex } from 'knex';
import { storedAttemptError } from '../../../internal/webhooks/attempt-error';
import { type DeliveryAttempt, type DeliveryStatus, type NewDelivery, newDelivery, type WebhookDelivery } from '../../../internal/webhooks/delivery';
import type { FanOutCursor } from '../../../internal/webhooks/fan-out-cursor';
import type { AttemptOutcome, DeliveryStats, WebhookDeliveryRepository } from '../../../ports/webhook-delivery-repository';
import { sqlDialect } from './dialect';
import { bool, fromMillis, fromMillisOrNull, toMillis, toMillisOrNull } from './rows/columns';

type Row = Record<string, any>;

/** Rows per INSERT: far below SQLite's variable limit. */
const CHUNK = 200;
const CURSOR_ID = 1;

export class KnexWebhookDeliveryRepository implements WebhookDeliveryRepository {
  constructor(private readonly db: Knex | Knex.Transaction) {}

  async lockCursor(): Promise<FanOutCursor | null> {
    // Skip, don't wait, when another process holds it.
    const row = await sqlDialect(this.db).lockRows(this.db('webhook_fanout_cursor').where('id', CURSOR_ID), { skipLocked: true }).first();
    return row ? { lastRowId: Number(row.last_row_id), gaps: JSON.parse(row.gaps) } : null;
  }

  async saveCursor(cursor: FanOutCursor, at: Date): Promise<void> {
    await this.db('webhook_fanout_cursor')
      .where('id', CURSOR_ID)
      .update({ last_row_id: cursor.lastRowId, gaps: JSON.stringify(cursor.gaps), updated_at: toMillis(at) });
  }

  async insertMissing(deliveries: NewDelivery[]): Promise<void> {
    for (let i = 0; i < deliveries.length; i += CHUNK) {
      await this.db('webhook_deliveries').insert(deliveries.slice(i, i + CHUNK).map(toRow)).onConflict(['event_row_id', 'endpoint_id']).ignore();
    }
  }

  async claimDue(now: Date, leaseUntil: Date, token: string, limit: number): Promise<WebhookDelivery[]> {
    const at = toMillis(now);
    const candidates = await this.db('webhook_deliveries as d')
      .select('d.id')
      .where('d.status', 'PENDING')
      .where('d.next_attempt_at', '<=', at)
      .where((q) => q.whereNull('d.locked_until').orWhere('d.locked_until', '<', at))
      .whereNotExists((q) =>
        q
          .select(this.db.raw('1'))
          .from('webhook_deliveries as p')
          .whereRaw('p.endpoint_id = d.endpoint_id')
          .whereRaw('p.resource_id = d.resource_id')
          .where('p.status', 'PENDING')
          .whereRaw('p.event_row_id < d.event_row_id'),
      )
      .orderBy([{ column: 'd.next_attempt_at' }, { column: 'd.id' }])
      .limit(limit);
    return this.claim(candidates.map((r: Row) => Number(r.id)), now, leaseUntil, token);
  }

  async claimNextOf(endpointId: number, resourceId: string, now: Date, leaseUntil: Date, token: string): Promise<WebhookDelivery | null> {
    const head = await this.db('webhook_deliveries')
      .where({ endpoint_id: endpointId, resource_id: resourceId, status: 'PENDING' })
      .orderBy('event_row_id')
      .first();
    if (!head || Number(head.next_attempt_at) > toMillis(now)) return null;
    const [claimed] = await this.claim([Number(head.id)], now, leaseUntil, token);
    return claimed ?? null;
  }

  private async claim(ids: number[], now: Date, leaseUntil: Date, token: string): Promise<WebhookDelivery[]> {
    if (ids.length === 0) return [];
    const at = toMillis(now);
    await this.db('webhook_deliveries')
      .whereIn('id', ids)
      .where('status', 'PENDING')
      .where((q) => q.whereNull('locked_until').orWhere('locked_until', '<', at))
      .update({ lease_token: token, locked_until: toMillis(leaseUntil), updated_at: at });
    const rows = await this.db('webhook_deliveries').whereIn('id', ids).where('lease_token', token).orderBy([{ column: 'next_attempt_at' }, { column: 'id' }]);
    return rows.map(toDelivery);
  }

  async findById(id: number): Promise<WebhookDelivery | null> {
    const row = await this.db('webhook_deliveries').where('id', id).first();
    return row ? toDelivery(row) : null;
  }

  async recordAttempt(id: number, token: string, outcome: AttemptOutcome): Promise<boolean> {
    const changed = await this.db('webhook_deliveries')
      .where({ id, lease_token: token, status: 'PENDING' })
      .update({
        status: outcome.status,
        attempts: outcome.attempt.attempt,
        round_attempts: outcome.roundAttempts,
        next_attempt_at: toMillisOrNull(outcome.nextAttemptAt),
        lease_token: null,
        locked_until: null,
        updated_at: toMillis(outcome.at),
      });
    if (changed === 0) return false;
    const a = outcome.attempt;
    await this.db('webhook_delivery_attempts').insert({
      delivery_id: id,
      attempt: a.attempt,
      attempted_at: toMillis(a.attemptedAt),
      status_code: a.statusCode,
      error: a.error,
      duration_ms: a.durationMs,
      succeeded: a.succeeded,
    });
    return true;
  }

  async cancelClaimed(id: number, token: string, at: Date): Promise<boolean> {
    const changed = await this.db('webhook_deliveries').where({ id, lease_token: token, status: 'PENDING' }).update(cancelled(at));
    return changed > 0;
  }

  async cancelPendingOfEndpoint(endpointId: number, at: Date): Promise<void> {
    await this.db('webhook_deliveries').where({ endpoint_id: endpointId, status: 'PENDING' }).update(cancelled(at));
  }

  async ofEvent(eventRowId: number): Promise<{ delivery: WebhookDelivery; attempts: DeliveryAttempt[] }[]> {
    const rows = await this.db('webhook_deliveries').where('event_row_id', eventRowId).orderBy('id');
    if (rows.length === 0) return [];
    const attempts = await this.db('webhook_delivery_attempts')
      .whereIn('delivery_id', rows.map((r: Row) => r.id))
      .orderBy([{ column: 'delivery_id' }, { column: 'attempt' }]);
    return rows.map((row: Row) => ({
      delivery: toDelivery(row),
      attempts: attempts.filter((a: Row) => Number(a.delivery_id) === Number(row.id)).map(toAttempt),
    }));
  }

  async reopen(event: { rowId: number; companyId: number; resourceId: string }, endpointIds: number[], at: Date): Promise<void> {
    const when = toMillis(at);
    for (const endpointId of endpointIds) {
      const changed = await this.db('webhook_deliveries')
        .where({ event_row_id: event.rowId, endpoint_id: endpointId })
        .update({ status: 'PENDING', round_attempts: 0, next_attempt_at: when, lease_token: null, locked_until: null, updated_at: when });
      if (changed > 0) continue;
      await this.insertMissing([newDelivery(event, endpointId, at)]);
    }
  }

  async stats(): Promise<DeliveryStats> {
    const [byStatus, byOutcome] = await Promise.all([
      this.db('webhook_deliveries').select('status').count<{ status: string; n: number }[]>({ n: '*' }).groupBy('status'),
      this.db('webhook_delivery_attempts').select('succeeded').count<{ succeeded: unknown; n: number }[]>({ n: '*' }).groupBy('succeeded'),
    ]);
    const deliveries: Record<DeliveryStatus, number> = { PENDING: 0, SUCCEEDED: 0, FAILED: 0, CANCELLED: 0 };
    for (const row of byStatus) deliveries[row.status as DeliveryStatus] = Number(row.n);
    const attempts = { succeeded: 0, failed: 0 };
    for (const row of byOutcome) attempts[bool(row.succeeded) ? 'succeeded' : 'failed'] = Number(row.n);
    return { deliveries, attempts };
  }
}

function cancelled(at: Date): Row {
  return { status: 'CANCELLED', next_attempt_at: null, lease_token: null, locked_until: null, updated_at: toMillis(at) };
}

function toRow(d: NewDelivery): Row {
  return {
    event_row_id: d.eventRowId,
    endpoint_id: d.endpointId,
    company_id: d.companyId,
    resource_id: d.resourceId,
    status: d.status,
    attempts: d.attempts,
    round_attempts: d.roundAttempts,
    next_attempt_at: toMillisOrNull(d.nextAttemptAt),
    lease_token: null,
    locked_until: null,
    created_at: toMillis(d.createdAt),
    updated_at: toMillis(d.updatedAt),
  };
}

function toDelivery(row: Row): WebhookDelivery {
  return {
    id: Number(row.id),
    eventRowId: Number(row.event_row_id),
    endpointId: Number(row.endpoint_id),
    companyId: Number(row.company_id),
    resourceId: row.resource_id,
    status: row.status as DeliveryStatus,
    attempts: Number(row.attempts),
    roundAttempts: Number(row.round_attempts),
    nextAttemptAt: fromMillisOrNull(row.next_attempt_at),
    leaseToken: row.lease_token ?? null,
    lockedUntil: fromMillisOrNull(row.locked_until),
    createdAt: fromMillis(row.created_at),
    updatedAt: fromMillis(row.updated_at),
  };
}

function toAttempt(row: Row): DeliveryAttempt {
  return {
    deliveryId: Number(row.delivery_id),
    attempt: Number(row.attempt),
    attemptedAt: fromMillis(row.attempted_at),
    statusCode: row.status_code === null ? null : Number(row.status_code),
    // Attempts recorded before errors were classes hold the transport's message: shown as a class.
    error: storedAttemptError(row.status_code === null ? null : Number(row.status_code), bool(row.succeeded), row.error ?? null),
    durationMs: Number(row.duration_ms),
    succeeded: bool(row.succeeded),
  };
}
