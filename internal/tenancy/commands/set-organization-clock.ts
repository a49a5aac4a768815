import type { Clock } from '../../../ports/clock';
import type { UnitOfWork } from '../../../ports/unit-of-work';
import { clientActor } from '../../audit/audit-entry';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';

export interface ClockState {
  now: Date;
  frozen: boolean;
}

/**
 * Sandbox helper PUT/DELETE /test-helpers/clock: freeze the organization's time, or release it.
 * The audit log keeps who moved it (the clock changes what every later change is dated).
 */
export class SetOrganizationClock {
  constructor(private readonly deps: { uow: UnitOfWork; clock: Clock }) {
    requireDeps('SetOrganizationClock', deps);
  }

  async execute(frozenNow: Date | null, scope: TenantScope): Promise<ClockState> {
    const now = this.deps.clock.now();
    await this.deps.uow.run(async ({ tenancy, audit }) => {
      await tenancy.setFrozenNow(scope.organizationId, frozenNow);
      await audit.record({
        organizationId: scope.organizationId,
        action: frozenNow ? 'sandbox_clock.frozen' : 'sandbox_clock.released',
        resourceType: 'organization',
        resourceId: String(scope.organizationId),
        actor: clientActor(scope),
        details: { frozenNow: frozenNow?.toISOString() ?? null },
        at: now,
      });
    });
    return frozenNow ? { now: frozenNow, frozen: true } : { now, frozen: false };
  }
}
