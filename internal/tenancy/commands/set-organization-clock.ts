import type { Clock } from '../../../ports/clock';
import type { TenancyRepository } from '../../../ports/tenancy-repository';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';

export interface ClockState {
  now: Date;
  frozen: boolean;
}

/** Sandbox helper PUT/DELETE /test-helpers/clock: freeze the organization's time, or release it. */
export class SetOrganizationClock {
  constructor(private readonly deps: { tenancy: TenancyRepository; clock: Clock }) {
    requireDeps('SetOrganizationClock', deps);
  }

  async execute(frozenNow: Date | null, scope: TenantScope): Promise<ClockState> {
    await this.deps.tenancy.setFrozenNow(scope.organizationId, frozenNow);
    return frozenNow ? { now: frozenNow, frozen: true } : { now: this.deps.clock.now(), frozen: false };
  }
}
