import type { TenancyRepository } from '../../../ports/tenancy-repository';
import type { AuditLog } from '../../../ports/audit-log';
import { InvalidRequestError } from '../../shared/errors';
import { requireDeps } from '../../shared/use-case-deps';
import { findOrganizationByIdOrName } from '../../tenancy/find-organization';
import type { AuditRecord } from '../audit-entry';

export const DEFAULT_AUDIT_LIMIT = 50;
export const MAX_AUDIT_LIMIT = 1000;

export interface ReadAuditLogInput {
  /** Organization id or exact name. */
  organization: string;
  since?: Date;
  resourceId?: string;
  limit?: number;
}

/**
 * Operator command `audit-log`: who changed what and when in an organization, newest first:
 * operator actions and the sandbox clock (audit entries) with every domain change (events).
 */
export class ReadAuditLog {
  constructor(private readonly deps: { tenancy: TenancyRepository; repos: { audit: AuditLog } }) {
    requireDeps('ReadAuditLog', deps);
  }

  async execute(input: ReadAuditLogInput): Promise<{ organizationId: number; organizationName: string; records: AuditRecord[] }> {
    const limit = input.limit ?? DEFAULT_AUDIT_LIMIT;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_AUDIT_LIMIT) {
      throw InvalidRequestError.field('limit', `must be a whole number from 1 to ${MAX_AUDIT_LIMIT}`);
    }
    if (input.since && Number.isNaN(input.since.getTime())) throw InvalidRequestError.field('since', 'must be an RFC 3339 date-time');
    const organization = await findOrganizationByIdOrName(this.deps.tenancy, input.organization);
    const records = await this.deps.repos.audit.list(organization.id, { since: input.since, resourceId: input.resourceId }, limit);
    return { organizationId: organization.id, organizationName: organization.name, records };
  }
}
