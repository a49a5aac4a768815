import type { DebtorKey } from '../../ports/contact-repository';
import type { TenantScope } from '../shared/tenant-scope';

/** The debtor a list's `externalClientId` filter names, in the scope's organization (trimmed, as contacts are stored); none without the filter. */
export function debtorKeyOf(externalClientId: string | undefined, scope: TenantScope): DebtorKey | undefined {
  return externalClientId === undefined ? undefined : { organizationId: scope.organizationId, externalClientId: externalClientId.trim() };
}
