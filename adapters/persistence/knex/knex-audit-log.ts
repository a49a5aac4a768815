import type { Knex } from 'knex';
import type { AuditEntry, AuditRecord } from '../../../internal/audit/audit-entry';
import type { AuditFilter, AuditLog } from '../../../ports/audit-log';
import { actorColumns, auditEntryRecord, eventAuditRecord, mergeNewestFirst } from '../audit-records';
import { fromMillis, toMillis } from './rows/columns';

type Row = Record<string, any>;

/**
 * audit_log holds what the event log does not (operator actions, the sandbox clock); reads
 * merge it with the organization's events. Both reads are bounded by `limit`; they are operator
 * queries, never on a request's path.
 */
export class KnexAuditLog implements AuditLog {
  constructor(private readonly db: Knex | Knex.Transaction) {}

  async record(entry: AuditEntry): Promise<void> {
    const actor = actorColumns(entry.actor);
    await this.db('audit_log').insert({
      organization_id: entry.organizationId,
      action: entry.action,
      resource_type: entry.resourceType,
      resource_id: entry.resourceId,
      actor_type: actor.actorType,
      actor_name: actor.actorName,
      client_user_id: actor.clientUserId,
      api_key_prefix: actor.apiKeyPrefix,
      request_id: actor.requestId,
      details: JSON.stringify(entry.details),
      created_at: toMillis(entry.at),
    });
  }

  async list(organizationId: number, filter: AuditFilter, limit: number): Promise<AuditRecord[]> {
    const entries = this.db('audit_log as a')
      .leftJoin('client_users as u', 'u.id', 'a.client_user_id')
      .where('a.organization_id', organizationId)
      .select('a.*', 'u.username as client_username')
      .orderBy([{ column: 'a.created_at', order: 'desc' }, { column: 'a.id', order: 'desc' }])
      .limit(limit);
    const events = this.db('events as e')
      .join('companies as c', 'c.id', 'e.company_id')
      .leftJoin('client_users as u', 'u.id', 'e.client_user_id')
      .where('e.organization_id', organizationId)
      .select(
        'e.event_id', 'e.type', 'e.resource_id', 'e.request_id', 'e.client_user_id', 'e.api_key_prefix', 'e.created_at',
        'c.code as company_code', 'u.username as client_username',
      )
      .orderBy([{ column: 'e.created_at', order: 'desc' }, { column: 'e.id', order: 'desc' }])
      .limit(limit);
    if (filter.since) {
      entries.where('a.created_at', '>=', toMillis(filter.since));
      events.where('e.created_at', '>=', toMillis(filter.since));
    }
    if (filter.resourceId !== undefined) {
      entries.where('a.resource_id', filter.resourceId);
      events.where('e.resource_id', filter.resourceId);
    }
    const [entryRows, eventRows] = await Promise.all([entries, events]);
    return mergeNewestFirst(entryRows.map(toEntryRecord), eventRows.map(toEventRecord), limit);
  }
}

function toEntryRecord(row: Row): AuditRecord {
  return auditEntryRecord({
    action: row.action,
    resourceType: row.resource_type,
    resourceId: row.resource_id,
    actorType: row.actor_type,
    actorName: row.actor_name ?? null,
    clientUserId: row.client_user_id === null ? null : Number(row.client_user_id),
    clientUsername: row.client_username ?? null,
    apiKeyPrefix: row.api_key_prefix ?? null,
    requestId: row.request_id ?? null,
    details: JSON.parse(row.details),
    createdAt: fromMillis(row.created_at),
  });
}

function toEventRecord(row: Row): AuditRecord {
  return eventAuditRecord({
    eventId: row.event_id,
    type: row.type,
    resourceId: row.resource_id,
    requestId: row.request_id ?? null,
    clientUserId: row.client_user_id === null ? null : Number(row.client_user_id),
    clientUsername: row.client_username ?? null,
    apiKeyPrefix: row.api_key_prefix ?? null,
    companyCode: row.company_code ?? null,
    createdAt: fromMillis(row.created_at),
  });
}
