import type { TenantScope } from '../shared/tenant-scope';

/**
 * Who made a change. `operator`: someone running the admin CLI (their name, see
 * docs/operations.md); `client`: an API request (client user and facade key prefix); `system`:
 * the process itself (the demo tenant on an empty database, seeds in tests).
 */
export type AuditActor =
  | { type: 'operator'; name: string }
  | { type: 'client'; clientUserId: number; apiKeyPrefix: string | null; requestId: string | null }
  | { type: 'system'; name: string };

/** Changes outside the event log: tenancy administration and the sandbox clock. */
export type AuditAction =
  | 'client.created'
  | 'company.updated'
  | 'api_key.rotated'
  | 'client.disabled'
  | 'rate_limit.set'
  | 'rate_limit.cleared'
  | 'sandbox_clock.frozen'
  | 'sandbox_clock.released'
  /** A used refresh token came back: its family of sessions was revoked (docs/security.md). */
  | 'session.revoked'
  /** Money a provider notified was recorded (applied, unapplied or unmatched; docs/cash-and-transfer.md). */
  | 'provider_notification.received'
  /** A company's payment reminder policy or one of its templates was saved (docs/reminders.md). */
  | 'reminder_policy.saved'
  | 'reminder_template.saved';

export type AuditResourceType = 'organization' | 'company' | 'client' | 'api_key' | 'payment_instruction' | 'reminder_policy' | 'reminder_template';

/** One audited change, written in the transaction of the change. */
export interface AuditEntry {
  organizationId: number;
  action: AuditAction;
  resourceType: AuditResourceType;
  /** The organization id, a company code or a client username. */
  resourceId: string;
  actor: AuditActor;
  /** What changed; never a secret (keys appear by prefix only). */
  details: Record<string, unknown>;
  /** Wall-clock time of the change. */
  at: Date;
}

/**
 * One line of an organization's audit log: an audit entry, or a domain event of the event log
 * (which records who caused it). `action` is the audit action or the event type.
 */
export interface AuditRecord {
  source: 'audit' | 'event';
  at: Date;
  action: string;
  resourceType: string;
  resourceId: string;
  actor:
    | { type: 'operator'; name: string }
    | { type: 'client'; clientUserId: number; clientUsername: string | null; apiKeyPrefix: string | null }
    | { type: 'system'; name: string };
  requestId: string | null;
  /** The company of an event (events belong to one company); null for audit entries. */
  companyCode: string | null;
  /** The eventId of an event; null for audit entries. */
  eventId: string | null;
  details: Record<string, unknown> | null;
}

/** Changes made when no one is named: the demo tenant bootstrap, direct use-case calls in tests. */
export const SYSTEM_ACTOR: AuditActor = { type: 'system', name: 'application' };

/** The actor of an API request: its client user and facade key. */
export function clientActor(scope: TenantScope): AuditActor {
  return { type: 'client', clientUserId: scope.clientUserId, apiKeyPrefix: scope.apiKeyPrefix ?? null, requestId: scope.requestId };
}
