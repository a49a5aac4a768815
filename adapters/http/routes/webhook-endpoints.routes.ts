import type { Application } from '../../../internal/application';
import type { PageRequest } from '../../../internal/shared/page';
import type { CreateWebhookEndpointInput } from '../../../internal/webhooks/commands/create-webhook-endpoint';
import type { RotateWebhookEndpointSecretInput } from '../../../internal/webhooks/commands/rotate-webhook-endpoint-secret';
import type { UpdateWebhookEndpointInput } from '../../../internal/webhooks/commands/update-webhook-endpoint';
import { pageMeta } from '../presenters/page.presenter';
import { presentRotatedWebhookEndpoint, presentWebhookEndpoint, presentWebhookTestResult } from '../presenters/webhook.presenter';
import { route } from '../route';
import {
  createWebhookEndpointBody, listWebhookEndpointsQuery, rotatedWebhookEndpointSchema, rotateWebhookEndpointSecretBody, updateWebhookEndpointBody,
  webhookEndpointSchema, webhookTestResultSchema,
} from '../schemas/webhook.schemas';

/** /webhook-endpoints → internal/webhooks/{commands,queries}. */
export function webhookEndpointRoutes(app: Application) {
  const { createWebhookEndpoint, updateWebhookEndpoint, deleteWebhookEndpoint, rotateWebhookEndpointSecret, testWebhookEndpoint } = app.commands;
  const { getWebhookEndpoint, listWebhookEndpoints } = app.queries;
  return [
    route<CreateWebhookEndpointInput>({
      method: 'post', path: '/webhook-endpoints', operationId: 'createWebhookEndpoint', tag: 'Webhooks', summary: 'Create a webhook endpoint; the answer is the only one with its signing secret',
      auth: 'facade', body: createWebhookEndpointBody, response: webhookEndpointSchema, status: 201, errors: [400, 401, 422],
      handle: async ({ body, scope }) => ({ data: presentWebhookEndpoint(await createWebhookEndpoint.execute(body, scope), { withSecret: true }) }),
    }),
    route<unknown, PageRequest>({
      method: 'get', path: '/webhook-endpoints', operationId: 'listWebhookEndpoints', tag: 'Webhooks', summary: 'List webhook endpoints, newest first',
      auth: 'facade', query: listWebhookEndpointsQuery, response: webhookEndpointSchema, errors: [400, 401],
      handle: async ({ query, scope }) => {
        const { page, limit } = query;
        const result = await listWebhookEndpoints.execute({ page, limit }, scope);
        return { data: result.items.map((e) => presentWebhookEndpoint(e)), meta: pageMeta({ page, limit }, result) };
      },
    }),
    route({
      method: 'get', path: '/webhook-endpoints/:id', operationId: 'getWebhookEndpoint', tag: 'Webhooks', summary: 'Retrieve a webhook endpoint (whe_ prefix optional)',
      auth: 'facade', response: webhookEndpointSchema, errors: [401, 404],
      handle: async ({ params, scope }) => ({ data: presentWebhookEndpoint(await getWebhookEndpoint.execute(params.id!, scope)) }),
    }),
    route<UpdateWebhookEndpointInput>({
      method: 'patch', path: '/webhook-endpoints/:id', operationId: 'updateWebhookEndpoint', tag: 'Webhooks', summary: 'Change url, enabledEvents, enabled or description; disabling cancels pending deliveries',
      auth: 'facade', body: updateWebhookEndpointBody, response: webhookEndpointSchema, errors: [400, 401, 404],
      handle: async ({ params, body, scope }) => ({ data: presentWebhookEndpoint(await updateWebhookEndpoint.execute(params.id!, body, scope)) }),
    }),
    route({
      method: 'delete', path: '/webhook-endpoints/:id', operationId: 'deleteWebhookEndpoint', tag: 'Webhooks', summary: 'Delete a webhook endpoint; its pending deliveries are cancelled',
      auth: 'facade', response: webhookEndpointSchema, errors: [401, 404],
      handle: async ({ params, scope }) => ({ data: { ...presentWebhookEndpoint(await deleteWebhookEndpoint.execute(params.id!, scope)), deleted: true } }),
    }),
    route({
      method: 'post', path: '/webhook-endpoints/:id/test', operationId: 'testWebhookEndpoint', tag: 'Webhooks',
      summary: 'Send a signed webhook.test event to the endpoint now (disabled ones too) and answer what happened; not logged, not retried',
      auth: 'facade', response: webhookTestResultSchema, errors: [401, 404],
      handle: async ({ params, scope }) => ({ data: presentWebhookTestResult(await testWebhookEndpoint.execute(params.id!, scope)) }),
    }),
    route<RotateWebhookEndpointSecretInput>({
      method: 'post', path: '/webhook-endpoints/:id/rotate-secret', operationId: 'rotateWebhookEndpointSecret', tag: 'Webhooks',
      summary: 'Replace the signing secret; the answer is the only one with the new secret, and the old one also signs until previousSecretExpiresAt',
      auth: 'facade', body: rotateWebhookEndpointSecretBody, response: rotatedWebhookEndpointSchema, errors: [400, 401, 404],
      handle: async ({ params, body, scope }) => ({ data: presentRotatedWebhookEndpoint(await rotateWebhookEndpointSecret.execute(params.id!, body, scope)) }),
    }),
  ];
}
