import type { Application } from '../../../internal/application';
import type { PageRequest } from '../../../internal/shared/page';
import type { CreateWebhookEndpointInput } from '../../../internal/webhooks/commands/create-webhook-endpoint';
import type { RotateWebhookEndpointSecretInput } from '../../../internal/webhooks/commands/rotate-webhook-endpoint-secret';
import type { UpdateWebhookEndpointInput } from '../../../internal/webhooks/commands/update-webhook-endpoint';
import { pageMeta } from '../presenters/page.presenter';
import { presentRotatedWebhookEndpoint, presentWebhookEndpoint, presentWebhookTestResult } from '../presenters/webhook.presenter';
import { route } from '../route';
import {
  createWebhookEndpointBody, deletedWebhookEndpointSchema, listWebhookEndpointsQuery, rotatedWebhookEndpointSchema, rotateWebhookEndpointSecretBody,
  updateWebhookEndpointBody, webhookEndpointSchema, webhookEndpointWithSecretSchema, webhookTestResultSchema,
} from '../schemas/webhook.schemas';

const ENDPOINT_ID = 'The webhookEndpointId (`whe_…`, the prefix optional)';

/** /webhook-endpoints → internal/webhooks/{commands,queries}. */
export function webhookEndpointRoutes(app: Application) {
  const { createWebhookEndpoint, updateWebhookEndpoint, deleteWebhookEndpoint, rotateWebhookEndpointSecret, testWebhookEndpoint } = app.commands;
  const { getWebhookEndpoint, listWebhookEndpoints } = app.queries;
  return [
    route<CreateWebhookEndpointInput>({
      method: 'post', path: '/webhook-endpoints', operationId: 'createWebhookEndpoint', tag: 'Webhooks', summary: 'Create a webhook endpoint; the answer is the only one with its signing secret',
      description:
        'Every event of the enabled types (or `*`) is POSTed to the url, signed with the secret this answer shows once (X-Signature). ' +
        'The url must be http(s) without credentials and must not resolve to a loopback, private, link-local or metadata address; ' +
        'in production it must be https.',
      auth: 'facade', body: createWebhookEndpointBody, response: webhookEndpointWithSecretSchema, status: 201, errors: [400, 401, 422],
      handle: async ({ body, scope }) => ({ data: presentWebhookEndpoint(await createWebhookEndpoint.execute(body, scope), { withSecret: true }) }),
    }),
    route<unknown, PageRequest>({
      method: 'get', path: '/webhook-endpoints', operationId: 'listWebhookEndpoints', tag: 'Webhooks', summary: 'List webhook endpoints, newest first',
      description: 'Newest first; secrets are never shown again.',
      auth: 'facade', query: listWebhookEndpointsQuery, response: webhookEndpointSchema, list: 'page', errors: [400, 401],
      handle: async ({ query, scope }) => {
        const { page, limit } = query;
        const result = await listWebhookEndpoints.execute({ page, limit }, scope);
        return { data: result.items.map((e) => presentWebhookEndpoint(e)), meta: pageMeta({ page, limit }, result) };
      },
    }),
    route({
      method: 'get', path: '/webhook-endpoints/:id', operationId: 'getWebhookEndpoint', tag: 'Webhooks', summary: 'Retrieve a webhook endpoint (whe_ prefix optional)',
      description: 'The endpoint without its secret.',
      params: { id: ENDPOINT_ID },
      auth: 'facade', response: webhookEndpointSchema, errors: [401, 404],
      handle: async ({ params, scope }) => ({ data: presentWebhookEndpoint(await getWebhookEndpoint.execute(params.id!, scope)) }),
    }),
    route<UpdateWebhookEndpointInput>({
      method: 'patch', path: '/webhook-endpoints/:id', operationId: 'updateWebhookEndpoint', tag: 'Webhooks', summary: 'Change url, enabledEvents, enabled or description; disabling cancels pending deliveries',
      description: 'Only url, enabledEvents, enabled and description; at least one. enabled false cancels the pending deliveries.',
      params: { id: ENDPOINT_ID },
      idempotent: true,
      auth: 'facade', body: updateWebhookEndpointBody, response: webhookEndpointSchema, errors: [400, 401, 404],
      handle: async ({ params, body, scope }) => ({ data: presentWebhookEndpoint(await updateWebhookEndpoint.execute(params.id!, body, scope)) }),
    }),
    route({
      method: 'delete', path: '/webhook-endpoints/:id', operationId: 'deleteWebhookEndpoint', tag: 'Webhooks', summary: 'Delete a webhook endpoint; its pending deliveries are cancelled',
      description: 'Answers the endpoint as it was, with `deleted: true`; its pending deliveries are cancelled. A second DELETE is 404.',
      idempotent: false,
      params: { id: ENDPOINT_ID },
      auth: 'facade', response: deletedWebhookEndpointSchema, errors: [401, 404],
      handle: async ({ params, scope }) => ({ data: { ...presentWebhookEndpoint(await deleteWebhookEndpoint.execute(params.id!, scope)), deleted: true } }),
    }),
    route({
      method: 'post', path: '/webhook-endpoints/:id/test', operationId: 'testWebhookEndpoint', tag: 'Webhooks',
      summary: 'Send a signed webhook.test event to the endpoint now and answer what happened',
      description:
        'A `webhook.test` event (data.object: the endpoint) signed like every delivery, sent now through the same address policy with a ' +
        '10 s timeout, also to a disabled endpoint (you asked for this one send). The answer says whether it was delivered, the status ' +
        'and the error class. It is not written to GET /events and never retried.',
      params: { id: ENDPOINT_ID },
      auth: 'facade', response: webhookTestResultSchema, errors: [401, 404],
      handle: async ({ params, scope }) => ({ data: presentWebhookTestResult(await testWebhookEndpoint.execute(params.id!, scope)) }),
    }),
    route<RotateWebhookEndpointSecretInput>({
      method: 'post', path: '/webhook-endpoints/:id/rotate-secret', operationId: 'rotateWebhookEndpointSecret', tag: 'Webhooks',
      summary: 'Replace the signing secret (the old one keeps signing for a grace period)',
      description:
        'Answers the endpoint with its new `secret` (shown only in this answer) and `previousSecretExpiresAt`. Until then (default 24 h; ' +
        '`expiresInHours` 0 to 168, 0: at once) every delivery carries two `v1=` signatures in X-Signature, new and old: accept either. ' +
        'Rotating again during a grace period keeps only the secret being replaced.',
      params: { id: ENDPOINT_ID },
      auth: 'facade', body: rotateWebhookEndpointSecretBody, response: rotatedWebhookEndpointSchema, errors: [400, 401, 404],
      handle: async ({ params, body, scope }) => ({ data: presentRotatedWebhookEndpoint(await rotateWebhookEndpointSecret.execute(params.id!, body, scope)) }),
    }),
  ];
}
