import type { AuditEntry, AuditRecord } from '../../../internal/audit/audit-entry';
import type { AuditFilter, AuditLog } from '../../../ports/audit-log';
import { actorColumns, auditEntryRecord, eventAuditRecord, mergeNewestFirst } from '../audit-records';
import { copy, type MemoryStore } from './memory-store';

export class MemoryAuditLog implements AuditLog {
  constructor(private readonly store: MemoryStore) {}

  async record(entry: AuditEntry): Promise<void> {
    this.store.tables.auditLog.push({ id: this.store.nextId(), ...copy(entry) });
  }

  async list(organizationId: number, filter: AuditFilter, limit: number): Promise<AuditRecord[]> {
    const t = this.store.tables;
    const since = filter.since?.getTime() ?? -Infinity;
    const username = (id: number | null) => (id === null ? null : (t.clientUsers.find((u) => u.id === id)?.username ?? null));
    const newestFirst = <R extends { id: number; at: Date }>(a: R, b: R) => b.at.getTime() - a.at.getTime() || b.id - a.id;
    const entries = t.auditLog
      .filter((e) => e.organizationId === organizationId && e.at.getTime() >= since && (filter.resourceId === undefined || e.resourceId === filter.resourceId))
      .sort(newestFirst)
      .slice(0, limit)
      .map((e) => {
        const actor = actorColumns(e.actor);
        return auditEntryRecord({ ...e, ...actor, clientUsername: username(actor.clientUserId), details: copy(e.details), createdAt: e.at });
      });
    const events = t.events
      .filter((e) => e.organizationId === organizationId && e.createdAt.getTime() >= since && (filter.resourceId === undefined || e.resourceId === filter.resourceId))
      .map((e) => ({ ...e, at: e.createdAt }))
      .sort(newestFirst)
      .slice(0, limit)
      .map((e) =>
        eventAuditRecord({
          ...e,
          clientUsername: username(e.clientUserId),
          companyCode: t.companies.find((c) => c.id === e.companyId)?.code ?? null,
        }),
      );
    return mergeNewestFirst(entries, events, limit);
  }
}
