import type { Clock } from '../../../ports/clock';
import type { TenancyRepository } from '../../../ports/tenancy-repository';
import type { UnitOfWork } from '../../../ports/unit-of-work';
import { eventOf } from '../../events/domain-event';
import { requireDeps } from '../../shared/use-case-deps';
import { organizationClock } from '../../tenancy/organization-clock';
import { companiesById, workerScope } from '../../tenancy/worker-scope';

/** Instructions expired (and their events written) per transaction. */
export const EXPIRY_CHUNK = 500;

/**
 * Scheduled job (every minute on the workers): persists EXPIRED for PENDING instructions past
 * their expiresAt, per organization on that organization's clock, with one
 * payment_instruction.expired event each in the same transaction. Reads and notifications apply
 * the rule themselves; this keeps the stored status, its index and the webhooks true. A run
 * killed midway rolls back its open chunk; the next run finds those instructions still PENDING
 * and expires each once.
 */
export class ExpirePaymentInstructions {
  constructor(private readonly deps: { tenancy: TenancyRepository; uow: UnitOfWork; clock: Clock }) {
    requireDeps('ExpirePaymentInstructions', deps);
  }

  async execute(): Promise<{ expired: number }> {
    let expired = 0;
    for (const organization of await this.deps.tenancy.listOrganizations()) {
      for (;;) {
        const count = await this.deps.uow.run(async ({ paymentInstructions, events, tenancy }) => {
          const now = organizationClock(this.deps.clock, organization).now();
          const instructions = await paymentInstructions.markExpired(organization.id, now, now, EXPIRY_CHUNK);
          const companies = await companiesById(tenancy, instructions.map((i) => i.companyId));
          await events.append(
            instructions.map((instruction) =>
              eventOf(workerScope(organization, companies.get(instruction.companyId)!, this.deps.clock), 'payment_instruction.expired', { kind: 'payment_instruction', instruction }, now),
            ),
          );
          return instructions.length;
        });
        expired += count;
        if (count < EXPIRY_CHUNK) break;
      }
    }
    return { expired };
  }
}
