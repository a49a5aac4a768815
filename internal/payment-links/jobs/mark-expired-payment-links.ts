import type { Clock } from '../../../ports/clock';
import type { PaymentLinkRepository } from '../../../ports/payment-link-repository';
import type { TenancyRepository } from '../../../ports/tenancy-repository';
import { requireDeps } from '../../shared/use-case-deps';
import { organizationClock } from '../../tenancy/organization-clock';

/** Scheduled job: persists EXPIRED for ACTIVE links past expiresAt, on each organization's clock. */
export class MarkExpiredPaymentLinks {
  constructor(private readonly deps: { tenancy: TenancyRepository; paymentLinks: PaymentLinkRepository; clock: Clock }) {
    requireDeps('MarkExpiredPaymentLinks', deps);
  }

  async execute(): Promise<{ expired: number }> {
    let expired = 0;
    for (const organization of await this.deps.tenancy.listOrganizations()) {
      expired += await this.deps.paymentLinks.markExpired(organization.id, organizationClock(this.deps.clock, organization).now());
    }
    return { expired };
  }
}
