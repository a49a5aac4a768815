import type { Clock } from '../../../ports/clock';
import type { UnitOfWork } from '../../../ports/unit-of-work';
import { type AuditActor, SYSTEM_ACTOR } from '../../audit/audit-entry';
import { NotFoundError } from '../../shared/errors';
import { requireDeps } from '../../shared/use-case-deps';
import type { Company, CompanySettings } from '../company';

/** Operator command `update-company`: changes the named settings, leaves the others. */
export class UpdateCompany {
  constructor(private readonly deps: { uow: UnitOfWork; clock: Clock }) {
    requireDeps('UpdateCompany', deps);
  }

  async execute(code: string, settings: Partial<CompanySettings>, actor: AuditActor = SYSTEM_ACTOR): Promise<Company> {
    return this.deps.uow.run(async ({ tenancy, audit }) => {
      const company = await tenancy.findCompanyByCode(code);
      if (!company) throw new NotFoundError(`Company ${code}`);
      const updated = await tenancy.updateCompanySettings(company.id, settings);
      const changed = (Object.keys(settings) as (keyof CompanySettings)[]).filter((k) => settings[k] !== undefined && settings[k] !== company[k]);
      await audit.record({
        organizationId: company.organizationId,
        action: 'company.updated',
        resourceType: 'company',
        resourceId: company.code,
        actor,
        details: {
          before: Object.fromEntries(changed.map((k) => [k, company[k]])),
          after: Object.fromEntries(changed.map((k) => [k, updated[k]])),
        },
        at: this.deps.clock.now(),
      });
      return updated;
    });
  }
}
