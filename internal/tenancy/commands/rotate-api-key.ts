import type { Clock } from '../../../ports/clock';
import type { IdGenerator } from '../../../ports/id-generator';
import type { SecretHasher } from '../../../ports/secret-hasher';
import type { UnitOfWork } from '../../../ports/unit-of-work';
import { type AuditActor, SYSTEM_ACTOR } from '../../audit/audit-entry';
import { NotFoundError } from '../../shared/errors';
import { requireDeps } from '../../shared/use-case-deps';
import type { ApiKeyKind, AppEnv } from '../credentials';
import { issueApiKey, keyPrefixOf } from './issue-api-key';

/** Operator command `rotate-api-key`: revokes the user's key of that kind here, issues a new one. */
export class RotateApiKey {
  constructor(
    private readonly deps: { uow: UnitOfWork; clock: Clock; ids: IdGenerator; secrets: SecretHasher; appEnv: AppEnv },
  ) {
    requireDeps('RotateApiKey', deps);
  }

  async execute(username: string, kind: ApiKeyKind, actor: AuditActor = SYSTEM_ACTOR): Promise<{ clientUsername: string; kind: ApiKeyKind; apiKey: string }> {
    const now = this.deps.clock.now();
    return this.deps.uow.run(async ({ credentials, audit }) => {
      const user = await credentials.findClientUserByUsername(username);
      if (!user) throw new NotFoundError(`Client ${username}`);
      const revoked = await credentials.revokeApiKeys(user.id, kind, this.deps.appEnv, now);
      const apiKey = await issueApiKey({ ...this.deps, credentials, now }, user, kind);
      await audit.record({
        organizationId: user.organizationId,
        action: 'api_key.rotated',
        resourceType: 'api_key',
        resourceId: username,
        actor,
        details: { kind, appEnv: this.deps.appEnv, revokedKeys: revoked, newKeyPrefix: keyPrefixOf(apiKey) },
        at: now,
      });
      return { clientUsername: username, kind, apiKey };
    });
  }
}
