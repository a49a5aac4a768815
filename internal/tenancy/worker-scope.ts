import type { Clock } from '../../ports/clock';
import type { TenancyRepository } from '../../ports/tenancy-repository';
import type { TenantScope } from '../shared/tenant-scope';
import type { Company } from './company';
import type { Organization } from './organization';
import { organizationClock } from './organization-clock';

/**
 * The scope of a change a worker makes for a company (no request, no user): the organization's
 * clock (sandbox-frozen or real) applies to it like to any request of the organization.
 */
export function workerScope(organization: Organization, company: Company, clock: Clock): TenantScope {
  return {
    organizationId: organization.id,
    organizationName: organization.name,
    clientUserId: 0,
    company,
    clock: organizationClock(clock, organization),
    requestId: null,
  };
}

/** The worker scope of a company by id; null when the company (or its organization) is gone. */
export async function loadWorkerScope(tenancy: TenancyRepository, clock: Clock, companyId: number): Promise<TenantScope | null> {
  const found = await tenancy.findCompanyWithOrganization(companyId);
  return found && workerScope(found.organization, found.company, clock);
}

/** Each distinct company once. */
export async function companiesById(tenancy: TenancyRepository, ids: number[]): Promise<Map<number, Company>> {
  const companies = new Map<number, Company>();
  for (const id of new Set(ids)) {
    const company = await tenancy.findCompany(id);
    if (company) companies.set(id, company);
  }
  return companies;
}
