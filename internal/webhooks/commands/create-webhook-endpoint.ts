import type { IdGenerator } from '../../../ports/id-generator';
import type { UnitOfWork } from '../../../ports/unit-of-work';
import { BusinessRuleViolationError, InvalidRequestError } from '../../shared/errors';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import type { AppEnv } from '../../tenancy/credentials';
import { newWebhookSecret } from '../secret-rotation';
import { MAX_ENDPOINTS_PER_COMPANY, parseEnabledEvents, parseWebhookUrl, WEBHOOK_ENDPOINT_CODE_LENGTH, type WebhookEndpoint } from '../webhook-endpoint';
import type { WebhookSettings } from '../webhook-settings';

export interface CreateWebhookEndpointInput {
  url: string;
  enabledEvents: string[];
  description?: string | null;
}

/**
 * POST /webhook-endpoints: an enabled endpoint of the caller's company with a new signing
 * secret (the only answer that shows it). It receives the events written after it exists.
 */
export class CreateWebhookEndpoint {
  constructor(private readonly deps: { uow: UnitOfWork; ids: IdGenerator; appEnv: AppEnv; webhooks: WebhookSettings }) {
    requireDeps('CreateWebhookEndpoint', deps);
  }

  async execute(input: CreateWebhookEndpointInput, scope: TenantScope): Promise<WebhookEndpoint> {
    const url = await checkedUrl(input.url, this.deps);
    const enabledEvents = parseEnabledEvents(input.enabledEvents);
    return this.deps.uow.run(async ({ webhookEndpoints, events }) => {
      if ((await webhookEndpoints.countLive(scope.company.id)) >= MAX_ENDPOINTS_PER_COMPANY) {
        throw new BusinessRuleViolationError(`A company can have at most ${MAX_ENDPOINTS_PER_COMPANY} webhook endpoints`);
      }
      const now = scope.clock.now();
      return webhookEndpoints.insert({
        organizationId: scope.organizationId,
        companyId: scope.company.id,
        code: this.deps.ids.alphanumeric(WEBHOOK_ENDPOINT_CODE_LENGTH),
        url,
        enabledEvents,
        enabled: true,
        description: input.description ?? null,
        secret: newWebhookSecret(this.deps.ids),
        previousSecret: null,
        previousSecretExpiresAt: null,
        sinceEventRowId: await events.lastId(),
        createdAt: now,
        updatedAt: now,
      });
    });
  }
}

/** The url's shape (https in production), then the environment's policy (public addresses in production). */
export async function checkedUrl(text: string, deps: { appEnv: AppEnv; webhooks: WebhookSettings }): Promise<string> {
  const url = parseWebhookUrl(text, deps.appEnv === 'production');
  const refused = await deps.webhooks.urlPolicy.check(url);
  if (refused) throw InvalidRequestError.field('url', refused);
  return url;
}
