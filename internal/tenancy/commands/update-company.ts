import type { TenancyRepository } from '../../../ports/tenancy-repository';
import { NotFoundError } from '../../shared/errors';
import { requireDeps } from '../../shared/use-case-deps';
import type { Company, CompanySettings } from '../company';

/** Operator command `update-company`: changes the named settings, leaves the others. */
export class UpdateCompany {
  constructor(private readonly deps: { tenancy: TenancyRepository }) {
    requireDeps('UpdateCompany', deps);
  }

  async execute(code: string, settings: Partial<CompanySettings>): Promise<Company> {
    const company = await this.deps.tenancy.findCompanyByCode(code);
    if (!company) throw new NotFoundError(`Company ${code}`);
    return this.deps.tenancy.updateCompanySettings(company.id, settings);
  }
}
