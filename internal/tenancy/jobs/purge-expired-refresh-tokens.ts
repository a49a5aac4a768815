import type { Clock } from '../../../ports/clock';
import type { TenancyRepository } from '../../../ports/tenancy-repository';
import { requireDeps } from '../../shared/use-case-deps';

/** Housekeeping job: refresh tokens past their expiry or already used are deleted. */
export class PurgeExpiredRefreshTokens {
  constructor(private readonly deps: { tenancy: TenancyRepository; clock: Clock }) {
    requireDeps('PurgeExpiredRefreshTokens', deps);
  }

  async execute(): Promise<{ purged: number }> {
    return { purged: await this.deps.tenancy.purgeRefreshTokens(this.deps.clock.now()) };
  }
}
