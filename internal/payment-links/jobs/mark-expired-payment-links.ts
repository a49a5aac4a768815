import { runStatusSweep, type StatusSweepDeps } from '../../shared/jobs/status-sweep';
import { requireDeps } from '../../shared/use-case-deps';

/**
 * Scheduled job: persists EXPIRED for ACTIVE links past expiresAt, on each organization's clock,
 * with one payment_link.expired event each in the same transaction (paced chunks: runStatusSweep).
 */
export class MarkExpiredPaymentLinks {
  constructor(private readonly deps: StatusSweepDeps) {
    requireDeps('MarkExpiredPaymentLinks', deps);
  }

  async execute(): Promise<{ expired: number }> {
    const expired = await runStatusSweep(this.deps, {
      mark: ({ paymentLinks }, organization, now, limit) => paymentLinks.markExpired(organization.id, now, limit),
      event: (link) => ({ type: 'payment_link.expired', subject: { kind: 'payment_link', link } }),
    });
    return { expired };
  }
}
