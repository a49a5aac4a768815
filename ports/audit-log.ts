import type { AuditEntry, AuditRecord } from '../internal/audit/audit-entry';

export interface AuditFilter {
  /** Only changes at or after this instant (inclusive). */
  since?: Date;
  /** Only changes of this resource (an event's resource id, a company code, a username...). */
  resourceId?: string;
}

/**
 * The audit log. Writes go into the caller's transaction; reads merge these entries with the
 * organization's domain events (which already record who caused them), newest first.
 */
export interface AuditLog {
  record(entry: AuditEntry): Promise<void>;
  /** At most `limit` records of the organization, newest first (ties: later write first). */
  list(organizationId: number, filter: AuditFilter, limit: number): Promise<AuditRecord[]>;
}
