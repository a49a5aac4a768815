import type { Clock } from '../../../ports/clock';
import type { IdGenerator } from '../../../ports/id-generator';
import type { UnitOfWork } from '../../../ports/unit-of-work';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import { findEndpoint } from '../find-endpoint';
import { newWebhookSecret, parseGraceHours, rotateSecret } from '../secret-rotation';
import type { WebhookEndpoint } from '../webhook-endpoint';

export interface RotateWebhookEndpointSecretInput {
  /** How long the replaced secret keeps signing beside the new one: 0..168 hours, default 24. */
  expiresInHours?: number;
}

/**
 * POST /webhook-endpoints/{id}/rotate-secret: a new signing secret (in this answer only, like at
 * creation); the replaced one keeps signing beside it, as a second `v1`, for the grace period,
 * so the receiver can switch without refusing a delivery. Every attempt from then on (retries of
 * pending deliveries included) is signed with the secrets of its own time. A disabled endpoint
 * rotates too; a deleted one is 404.
 *
 * The grace period runs on real time (the workers' clock, which signs and dates attempts), not
 * the sandbox clock: receivers check signatures against their own clock.
 */
export class RotateWebhookEndpointSecret {
  constructor(private readonly deps: { uow: UnitOfWork; ids: IdGenerator; clock: Clock }) {
    requireDeps('RotateWebhookEndpointSecret', deps);
  }

  async execute(id: string, input: RotateWebhookEndpointSecretInput, scope: TenantScope): Promise<WebhookEndpoint> {
    const graceHours = parseGraceHours(input.expiresInHours);
    return this.deps.uow.run(async ({ webhookEndpoints }) => {
      const endpoint = await findEndpoint(webhookEndpoints, id, scope, { lock: true });
      const rotation = rotateSecret(endpoint, newWebhookSecret(this.deps.ids), graceHours, this.deps.clock.now());
      return webhookEndpoints.update(scope.company.id, endpoint.id, { ...rotation, updatedAt: scope.clock.now() });
    });
  }
}
