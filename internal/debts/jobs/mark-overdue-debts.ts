import type { Clock } from '../../../ports/clock';
import type { TenancyRepository } from '../../../ports/tenancy-repository';
import type { UnitOfWork } from '../../../ports/unit-of-work';
import { eventOf } from '../../events/domain-event';
import { utcDateOf } from '../../shared/calendar-date';
import { requireDeps } from '../../shared/use-case-deps';
import { organizationClock } from '../../tenancy/organization-clock';
import { companiesById, workerScope } from '../../tenancy/worker-scope';

/** Debts marked (and their events written) per transaction. */
const CHUNK = 500;

/**
 * Scheduled job: persists OVERDUE for PENDING debts past their due date, per organization on
 * that organization's clock, with one debt.overdue event each in the same transaction. Reads
 * never wait for it (they apply the rule themselves); it keeps the stored status, and so indexes,
 * exports and integrators' webhooks, true.
 */
export class MarkOverdueDebts {
  constructor(private readonly deps: { tenancy: TenancyRepository; uow: UnitOfWork; clock: Clock }) {
    requireDeps('MarkOverdueDebts', deps);
  }

  async execute(): Promise<{ marked: number }> {
    let marked = 0;
    for (const organization of await this.deps.tenancy.listOrganizations()) {
      for (;;) {
        const count = await this.deps.uow.run(async ({ debts, events, tenancy }) => {
          const now = organizationClock(this.deps.clock, organization).now();
          const overdue = await debts.markOverdue(organization.id, utcDateOf(now), now, CHUNK);
          const companies = await companiesById(tenancy, overdue.map((d) => d.companyId));
          await events.append(
            overdue.map((debt) => eventOf(workerScope(organization, companies.get(debt.companyId)!, this.deps.clock), 'debt.overdue', { kind: 'debt', debt }, now)),
          );
          return overdue.length;
        });
        marked += count;
        if (count < CHUNK) break;
      }
    }
    return { marked };
  }
}
