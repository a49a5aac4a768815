import type { Clock } from '../../../ports/clock';
import type { UnitOfWork } from '../../../ports/unit-of-work';
import type { AuditActor } from '../../audit/audit-entry';
import { requireDeps } from '../../shared/use-case-deps';
import { findOrganizationByIdOrName } from '../find-organization';
import { type RateLimitPolicy, rateLimitPolicy } from '../rate-limit';

export interface SetRateLimitResult {
  organizationId: number;
  organizationName: string;
  /** The organization's own policy; null: the server's defaults apply. */
  rateLimit: RateLimitPolicy | null;
}

/**
 * Operator command `set-rate-limit`: the token bucket of every API key of the organization (or
 * null, back to the server's defaults). API processes apply it within CREDENTIAL_CACHE_MS.
 */
export class SetRateLimit {
  constructor(private readonly deps: { uow: UnitOfWork; clock: Clock }) {
    requireDeps('SetRateLimit', deps);
  }

  async execute(organization: string, policy: { capacity: number; refillPerSecond: number } | null, actor: AuditActor): Promise<SetRateLimitResult> {
    const rateLimit = policy ? rateLimitPolicy(policy.capacity, policy.refillPerSecond) : null;
    return this.deps.uow.run(async ({ tenancy, audit }) => {
      const found = await findOrganizationByIdOrName(tenancy, organization);
      await tenancy.setRateLimit(found.id, rateLimit);
      await audit.record({
        organizationId: found.id,
        action: rateLimit ? 'rate_limit.set' : 'rate_limit.cleared',
        resourceType: 'organization',
        resourceId: String(found.id),
        actor,
        details: { before: found.rateLimit, after: rateLimit },
        at: this.deps.clock.now(),
      });
      return { organizationId: found.id, organizationName: found.name, rateLimit };
    });
  }
}
