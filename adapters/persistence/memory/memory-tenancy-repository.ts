import { ConflictError } from '../../../internal/shared/errors';
import type { Company, CompanySettings } from '../../../internal/tenancy/company';
import type { Organization } from '../../../internal/tenancy/organization';
import type { RateLimitPolicy } from '../../../internal/tenancy/rate-limit';
import type { TenancyRepository } from '../../../ports/tenancy-repository';
import { copy, type MemoryStore } from './memory-store';

export class MemoryTenancyRepository implements TenancyRepository {
  constructor(private readonly store: MemoryStore) {}

  private get t() {
    return this.store.tables;
  }

  async countOrganizations(): Promise<number> {
    return this.t.organizations.length;
  }

  async findOrganizationByName(name: string): Promise<Organization | null> {
    return copy(this.t.organizations.find((o) => o.name === name) ?? null);
  }

  async findOrganization(id: number): Promise<Organization | null> {
    return copy(this.t.organizations.find((o) => o.id === id) ?? null);
  }

  async insertOrganization(name: string, createdAt: Date): Promise<Organization> {
    if (this.t.organizations.some((o) => o.name === name)) throw new ConflictError('Organization already exists');
    const organization: Organization = { id: this.store.nextId(), name, frozenNow: null, rateLimit: null, createdAt };
    this.t.organizations.push(organization);
    return copy(organization);
  }

  async setFrozenNow(organizationId: number, frozenNow: Date | null): Promise<void> {
    const organization = this.t.organizations.find((o) => o.id === organizationId);
    if (organization) organization.frozenNow = frozenNow;
  }

  async setRateLimit(organizationId: number, policy: RateLimitPolicy | null): Promise<void> {
    const organization = this.t.organizations.find((o) => o.id === organizationId);
    if (organization) organization.rateLimit = policy ? { ...policy } : null;
  }

  async listOrganizations(): Promise<Organization[]> {
    return copy(this.t.organizations);
  }

  async findCompany(id: number): Promise<Company | null> {
    return copy(this.t.companies.find((c) => c.id === id) ?? null);
  }

  async findCompanyWithOrganization(companyId: number): Promise<{ company: Company; organization: Organization } | null> {
    const company = await this.findCompany(companyId);
    const organization = company && (await this.findOrganization(company.organizationId));
    return company && organization ? { company, organization } : null;
  }

  async findCompanyByCode(code: string): Promise<Company | null> {
    return copy(this.t.companies.find((c) => c.code === code) ?? null);
  }

  async insertCompany(company: Omit<Company, 'id'>): Promise<Company> {
    if (this.t.companies.some((c) => c.code === company.code)) throw new ConflictError('Company already exists');
    const stored = { ...copy(company), id: this.store.nextId() };
    this.t.companies.push(stored);
    return copy(stored);
  }

  async updateCompanySettings(companyId: number, settings: Partial<CompanySettings>): Promise<Company> {
    const company = this.t.companies.find((c) => c.id === companyId)!;
    for (const [key, value] of Object.entries(settings)) {
      if (value !== undefined) Object.assign(company, { [key]: value });
    }
    return copy(company);
  }
}
