import type { Clock } from '../../../ports/clock';
import type { TenancyRepository } from '../../../ports/tenancy-repository';
import type { UnitOfWork } from '../../../ports/unit-of-work';
import { eventOf } from '../../events/domain-event';
import { utcDateOf } from '../../shared/calendar-date';
import { requireDeps } from '../../shared/use-case-deps';
import { organizationClock } from '../../tenancy/organization-clock';
import { companiesById, workerScope } from '../../tenancy/worker-scope';

/** Subscriptions marked (and their events written) per transaction. */
const CHUNK = 500;

/**
 * Scheduled job: persists ENDED for ACTIVE subscriptions whose last cycle is due before the
 * organization's today (on its clock), with one subscription.ended event each in the same
 * transaction. Reads never wait for it (they compute ENDED themselves); it is what reports the
 * end to integrators, once.
 */
export class MarkEndedSubscriptions {
  constructor(private readonly deps: { tenancy: TenancyRepository; uow: UnitOfWork; clock: Clock }) {
    requireDeps('MarkEndedSubscriptions', deps);
  }

  async execute(): Promise<{ ended: number }> {
    let ended = 0;
    for (const organization of await this.deps.tenancy.listOrganizations()) {
      for (;;) {
        const count = await this.deps.uow.run(async ({ subscriptions, events, tenancy }) => {
          const now = organizationClock(this.deps.clock, organization).now();
          const marked = await subscriptions.markEnded(organization.id, utcDateOf(now), now, CHUNK);
          const companies = await companiesById(tenancy, marked.map((s) => s.companyId));
          await events.append(
            marked.map((subscription) =>
              eventOf(workerScope(organization, companies.get(subscription.companyId)!, this.deps.clock), 'subscription.ended', { kind: 'subscription', subscription }, now),
            ),
          );
          return marked.length;
        });
        ended += count;
        if (count < CHUNK) break;
      }
    }
    return { ended };
  }
}
