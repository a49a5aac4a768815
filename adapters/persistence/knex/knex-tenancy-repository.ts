import type { Knex } from 'knex';
import type { Company, CompanySettings } from '../../../internal/tenancy/company';
import type { Organization } from '../../../internal/tenancy/organization';
import type { RateLimitPolicy } from '../../../internal/tenancy/rate-limit';
import type { Currency } from '../../../internal/shared/currency';
import type { TenancyRepository } from '../../../ports/tenancy-repository';
import { CredentialCache } from '../credential-cache';
import { insertedIdOrConflict, lookUp } from './shared-transaction';
import { bool, fromMillis, fromMillisOrNull, toMillis, toMillisOrNull } from './rows/columns';

type Row = Record<string, unknown>;

/** Organizations and companies; a write clears the credential cache (their settings ride on it). */
export class KnexTenancyRepository implements TenancyRepository {
  constructor(
    private readonly db: Knex | Knex.Transaction,
    private readonly cache: CredentialCache = new CredentialCache(0),
  ) {}

  async countOrganizations(): Promise<number> {
    const [row] = await this.db('organizations').count<{ n: number }[]>({ n: '*' });
    return Number(row?.n ?? 0);
  }

  async findOrganizationByName(name: string): Promise<Organization | null> {
    const row = await this.db('organizations').where({ name }).first();
    return row ? toOrganization(row) : null;
  }

  async findOrganization(id: number): Promise<Organization | null> {
    const row = await this.db('organizations').where({ id }).first();
    return row ? toOrganization(row) : null;
  }

  async insertOrganization(name: string, createdAt: Date): Promise<Organization> {
    const row = { name, frozen_now: null, rate_limit_capacity: null, rate_limit_refill_per_second: null, created_at: toMillis(createdAt) };
    const id = await insertedIdOrConflict(this.db, 'Organization', 'organizations', row);
    return toOrganization({ ...row, id });
  }

  async setFrozenNow(organizationId: number, frozenNow: Date | null): Promise<void> {
    this.cache.clear();
    await this.db('organizations').where({ id: organizationId }).update({ frozen_now: toMillisOrNull(frozenNow) });
  }

  async setRateLimit(organizationId: number, policy: RateLimitPolicy | null): Promise<void> {
    this.cache.clear();
    await this.db('organizations')
      .where({ id: organizationId })
      .update({ rate_limit_capacity: policy?.capacity ?? null, rate_limit_refill_per_second: policy?.refillPerSecond ?? null });
  }

  async listOrganizations(): Promise<Organization[]> {
    return (await this.db('organizations').select('*').orderBy('id')).map(toOrganization);
  }

  async findCompany(id: number): Promise<Company | null> {
    const row = await this.db('companies').where({ id }).first();
    return row ? toCompany(row) : null;
  }

  findCompanyWithOrganization(companyId: number): Promise<{ company: Company; organization: Organization } | null> {
    // With the reads of the same moment, or of the shared transaction (lookUp): every job of a group of reminders' sends asks.
    return lookUp(this.db, 'companies with their organization', String(companyId), async (keys, db) => {
      const rows: Row[] = await db('companies as c')
        .join('organizations as o', 'o.id', 'c.organization_id')
        .whereIn('c.id', keys.map(Number))
        .select('c.*', 'o.name as organization_name', 'o.frozen_now', 'o.rate_limit_capacity', 'o.rate_limit_refill_per_second', 'o.created_at as organization_created_at');
      return new Map(
        rows.map((row) => [
          String(row.id),
          { company: toCompany(row), organization: toOrganization({ ...row, id: row.organization_id, name: row.organization_name, created_at: row.organization_created_at }) },
        ]),
      );
    });
  }

  async findCompanyByCode(code: string): Promise<Company | null> {
    const row = await this.db('companies').where({ code }).first();
    return row ? toCompany(row) : null;
  }

  async insertCompany(company: Omit<Company, 'id'>): Promise<Company> {
    this.cache.clear();
    const row = {
      organization_id: company.organizationId,
      code: company.code,
      name: company.name,
      ...settingsRow(company),
    };
    const id = await insertedIdOrConflict(this.db, 'Company', 'companies', row);
    return { ...company, id: id! };
  }

  async updateCompanySettings(companyId: number, settings: Partial<CompanySettings>): Promise<Company> {
    this.cache.clear();
    const patch = settingsRow(settings);
    if (Object.keys(patch).length > 0) await this.db('companies').where({ id: companyId }).update(patch);
    return toCompany(await this.db('companies').where({ id: companyId }).first());
  }
}

function settingsRow(settings: Partial<CompanySettings>): Row {
  const row: Row = {};
  if (settings.defaultCurrency !== undefined) row.default_currency = settings.defaultCurrency;
  if (settings.directDebitEnabled !== undefined) row.direct_debit_enabled = settings.directDebitEnabled;
  if (settings.directDebitModality !== undefined) row.direct_debit_modality = settings.directDebitModality;
  if (settings.privateLinks !== undefined) row.private_links = settings.privateLinks;
  if (settings.portalUrl !== undefined) row.portal_url = settings.portalUrl;
  return row;
}

export function toOrganization(row: Row): Organization {
  return {
    id: Number(row.id),
    name: String(row.name),
    frozenNow: fromMillisOrNull(row.frozen_now as number | null),
    rateLimit:
      row.rate_limit_capacity === null || row.rate_limit_capacity === undefined
        ? null
        : { capacity: Number(row.rate_limit_capacity), refillPerSecond: Number(row.rate_limit_refill_per_second) },
    createdAt: fromMillis(row.created_at as number),
  };
}

export function toCompany(row: Row): Company {
  return {
    id: Number(row.id),
    organizationId: Number(row.organization_id),
    code: String(row.code),
    name: String(row.name),
    defaultCurrency: (row.default_currency as Currency | null) ?? null,
    directDebitEnabled: bool(row.direct_debit_enabled),
    directDebitModality: bool(row.direct_debit_modality),
    privateLinks: bool(row.private_links),
    portalUrl: (row.portal_url as string | null) ?? null,
  };
}
