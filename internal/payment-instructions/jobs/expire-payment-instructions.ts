import { runStatusSweep, type StatusSweepDeps } from '../../shared/jobs/status-sweep';
import { requireDeps } from '../../shared/use-case-deps';

/**
 * Scheduled job (every minute on the workers): persists EXPIRED for PENDING instructions past
 * their expiresAt, per organization on that organization's clock, with one
 * payment_instruction.expired event each in the same transaction (paced chunks: runStatusSweep).
 * Reads and notifications apply the rule themselves; this keeps the stored status, its index and
 * the webhooks true. A run killed midway rolls back its open chunk; the next run finds those
 * instructions still PENDING and expires each once.
 */
export class ExpirePaymentInstructions {
  constructor(private readonly deps: StatusSweepDeps) {
    requireDeps('ExpirePaymentInstructions', deps);
  }

  async execute(): Promise<{ expired: number }> {
    const expired = await runStatusSweep(this.deps, {
      mark: ({ paymentInstructions }, organization, now, limit) => paymentInstructions.markExpired(organization.id, now, now, limit),
      event: (instruction) => ({ type: 'payment_instruction.expired', subject: { kind: 'payment_instruction', instruction } }),
    });
    return { expired };
  }
}
