import type { Clock } from '../../../ports/clock';
import type { DebtRepository } from '../../../ports/debt-repository';
import type { TenancyRepository } from '../../../ports/tenancy-repository';
import { utcDateOf } from '../../shared/calendar-date';
import { requireDeps } from '../../shared/use-case-deps';
import { organizationClock } from '../../tenancy/organization-clock';

/**
 * Scheduled job: persists OVERDUE for PENDING debts past their due date, per organization on
 * that organization's clock. Reads never wait for it (they apply the rule themselves); it keeps
 * the stored status, and so indexes and exports, true.
 */
export class MarkOverdueDebts {
  constructor(private readonly deps: { tenancy: TenancyRepository; debts: DebtRepository; clock: Clock }) {
    requireDeps('MarkOverdueDebts', deps);
  }

  async execute(): Promise<{ marked: number }> {
    let marked = 0;
    for (const organization of await this.deps.tenancy.listOrganizations()) {
      const now = organizationClock(this.deps.clock, organization).now();
      marked += await this.deps.debts.markOverdue(organization.id, utcDateOf(now), now);
    }
    return { marked };
  }
}
