import type { Clock } from '../../../ports/clock';
import type { RefreshTokenRepository } from '../../../ports/refresh-token-repository';
import { requireDeps } from '../../shared/use-case-deps';

/** Housekeeping job: refresh tokens past their expiry or already used are deleted. */
export class PurgeExpiredRefreshTokens {
  constructor(private readonly deps: { refreshTokens: RefreshTokenRepository; clock: Clock }) {
    requireDeps('PurgeExpiredRefreshTokens', deps);
  }

  async execute(): Promise<{ purged: number }> {
    return { purged: await this.deps.refreshTokens.purgeRefreshTokens(this.deps.clock.now()) };
  }
}
