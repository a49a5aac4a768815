import type { Clock } from '../../ports/clock';
import type { TenancyRepository } from '../../ports/tenancy-repository';
import type { TenantScope } from '../shared/tenant-scope';
import { isCompanyCode } from '../tenancy/company';
import { workerScope } from '../tenancy/worker-scope';

/**
 * The scope of a hosted page: the company a verified URL names, on its organization's clock (so
 * the sandbox clock helper moves expiry and overdue on the pages too). No user acts: a debtor is
 * not a client of the API.
 */
export async function portalScopeOfCode(tenancy: TenancyRepository, clock: Clock, companyCode: string, requestId: string | null): Promise<TenantScope | null> {
  if (!isCompanyCode(companyCode)) return null;
  const company = await tenancy.findCompanyByCode(companyCode);
  return company ? portalScopeOfCompany(tenancy, clock, company.id, requestId) : null;
}

export async function portalScopeOfCompany(tenancy: TenancyRepository, clock: Clock, companyId: number, requestId: string | null): Promise<TenantScope | null> {
  const company = await tenancy.findCompany(companyId);
  const organization = company && (await tenancy.findOrganization(company.organizationId));
  return company && organization ? { ...workerScope(organization, company, clock), requestId } : null;
}
