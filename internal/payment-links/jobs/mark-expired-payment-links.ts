import type { Clock } from '../../../ports/clock';
import type { TenancyRepository } from '../../../ports/tenancy-repository';
import type { UnitOfWork } from '../../../ports/unit-of-work';
import { eventOf } from '../../events/domain-event';
import { requireDeps } from '../../shared/use-case-deps';
import { organizationClock } from '../../tenancy/organization-clock';
import { companiesById, workerScope } from '../../tenancy/worker-scope';

/** Links marked (and their events written) per transaction. */
const CHUNK = 500;

/**
 * Scheduled job: persists EXPIRED for ACTIVE links past expiresAt, on each organization's clock,
 * with one payment_link.expired event each in the same transaction.
 */
export class MarkExpiredPaymentLinks {
  constructor(private readonly deps: { tenancy: TenancyRepository; uow: UnitOfWork; clock: Clock }) {
    requireDeps('MarkExpiredPaymentLinks', deps);
  }

  async execute(): Promise<{ expired: number }> {
    let expired = 0;
    for (const organization of await this.deps.tenancy.listOrganizations()) {
      for (;;) {
        const count = await this.deps.uow.run(async ({ paymentLinks, events, tenancy }) => {
          const now = organizationClock(this.deps.clock, organization).now();
          const links = await paymentLinks.markExpired(organization.id, now, CHUNK);
          const companies = await companiesById(tenancy, links.map((l) => l.companyId));
          await events.append(
            links.map((link) =>
              eventOf(workerScope(organization, companies.get(link.companyId)!, this.deps.clock), 'payment_link.expired', { kind: 'payment_link', link }, now),
            ),
          );
          return links.length;
        });
        expired += count;
        if (count < CHUNK) break;
      }
    }
    return { expired };
  }
}
