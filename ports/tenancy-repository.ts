import type { Company, CompanySettings } from '../internal/tenancy/company';
import type { Organization } from '../internal/tenancy/organization';
import type { RateLimitPolicy } from '../internal/tenancy/rate-limit';

/** Organizations and their companies (settings, sandbox clock, rate limit). */
export interface TenancyRepository {
  countOrganizations(): Promise<number>;
  findOrganizationByName(name: string): Promise<Organization | null>;
  findOrganization(id: number): Promise<Organization | null>;
  insertOrganization(name: string, createdAt: Date): Promise<Organization>;
  setFrozenNow(organizationId: number, frozenNow: Date | null): Promise<void>;
  /** The organization's own rate limit, or null for the server's defaults. */
  setRateLimit(organizationId: number, policy: RateLimitPolicy | null): Promise<void>;
  /** Every organization with its sandbox clock, for jobs that apply time rules to all of them. */
  listOrganizations(): Promise<Organization[]>;
  findCompanyByCode(code: string): Promise<Company | null>;
  findCompany(id: number): Promise<Company | null>;
  /** The company by id with its organization (the sandbox clock, a worker's scope), in one read; null when either is gone. */
  findCompanyWithOrganization(companyId: number): Promise<{ company: Company; organization: Organization } | null>;
  /** @throws ConflictError when the code is taken. */
  insertCompany(company: Omit<Company, 'id'>): Promise<Company>;
  updateCompanySettings(companyId: number, settings: Partial<CompanySettings>): Promise<Company>;
}
