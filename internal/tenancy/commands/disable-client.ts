import type { Clock } from '../../../ports/clock';
import type { UnitOfWork } from '../../../ports/unit-of-work';
import { type AuditActor, SYSTEM_ACTOR } from '../../audit/audit-entry';
import { NotFoundError } from '../../shared/errors';
import { requireDeps } from '../../shared/use-case-deps';

/** Operator command `disable-client`: the user can no longer log in; its keys and sessions die. */
export class DisableClient {
  constructor(private readonly deps: { uow: UnitOfWork; clock: Clock }) {
    requireDeps('DisableClient', deps);
  }

  async execute(username: string, actor: AuditActor = SYSTEM_ACTOR): Promise<{ clientUsername: string; disabled: true; revokedApiKeys: number }> {
    const now = this.deps.clock.now();
    return this.deps.uow.run(async ({ credentials, refreshTokens, audit }) => {
      const user = await credentials.findClientUserByUsername(username);
      if (!user) throw new NotFoundError(`Client ${username}`);
      await credentials.setClientUserDisabled(user.id, true);
      const revokedApiKeys = await credentials.revokeApiKeys(user.id, null, null, now);
      await refreshTokens.revokeRefreshTokens(user.id, now);
      await audit.record({
        organizationId: user.organizationId,
        action: 'client.disabled',
        resourceType: 'client',
        resourceId: username,
        actor,
        details: { revokedApiKeys, wasDisabled: user.disabled },
        at: now,
      });
      return { clientUsername: username, disabled: true, revokedApiKeys };
    });
  }
}
