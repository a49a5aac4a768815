import type { AuditActor, AuditRecord } from '../../internal/audit/audit-entry';

/** An event's line in the audit log: who caused it (a client's request, or a worker job). */
export function eventAuditRecord(event: {
  eventId: string;
  type: string;
  resourceId: string;
  requestId: string | null;
  clientUserId: number | null;
  clientUsername: string | null;
  apiKeyPrefix: string | null;
  companyCode: string | null;
  createdAt: Date;
}): AuditRecord {
  return {
    source: 'event',
    at: event.createdAt,
    action: event.type,
    resourceType: event.type.slice(0, event.type.lastIndexOf('.')),
    resourceId: event.resourceId,
    actor:
      event.clientUserId === null
        ? { type: 'system', name: 'worker' }
        : { type: 'client', clientUserId: event.clientUserId, clientUsername: event.clientUsername, apiKeyPrefix: event.apiKeyPrefix },
    requestId: event.requestId,
    companyCode: event.companyCode,
    eventId: event.eventId,
    details: null,
  };
}

/** The stored columns of an actor, and back. */
export function actorColumns(actor: AuditActor): { actorType: string; actorName: string | null; clientUserId: number | null; apiKeyPrefix: string | null; requestId: string | null } {
  if (actor.type === 'client') {
    return { actorType: 'client', actorName: null, clientUserId: actor.clientUserId, apiKeyPrefix: actor.apiKeyPrefix, requestId: actor.requestId };
  }
  return { actorType: actor.type, actorName: actor.name, clientUserId: null, apiKeyPrefix: null, requestId: null };
}

export function auditEntryRecord(row: {
  action: string;
  resourceType: string;
  resourceId: string;
  actorType: string;
  actorName: string | null;
  clientUserId: number | null;
  clientUsername: string | null;
  apiKeyPrefix: string | null;
  requestId: string | null;
  details: Record<string, unknown>;
  createdAt: Date;
}): AuditRecord {
  const actor: AuditRecord['actor'] =
    row.actorType === 'client'
      ? { type: 'client', clientUserId: row.clientUserId!, clientUsername: row.clientUsername, apiKeyPrefix: row.apiKeyPrefix }
      : { type: row.actorType === 'operator' ? 'operator' : 'system', name: row.actorName ?? '' };
  return {
    source: 'audit',
    at: row.createdAt,
    action: row.action,
    resourceType: row.resourceType,
    resourceId: row.resourceId,
    actor,
    requestId: row.requestId,
    companyCode: null,
    eventId: null,
    details: row.details,
  };
}

/** Newest first; at the same instant an audit entry and an event keep their own write order. */
export function mergeNewestFirst(a: AuditRecord[], b: AuditRecord[], limit: number): AuditRecord[] {
  const merged: AuditRecord[] = [];
  let i = 0;
  let j = 0;
  while (merged.length < limit && (i < a.length || j < b.length)) {
    if (j >= b.length || (i < a.length && a[i]!.at.getTime() >= b[j]!.at.getTime())) merged.push(a[i++]!);
    else merged.push(b[j++]!);
  }
  return merged;
}
