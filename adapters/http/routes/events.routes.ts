import type { Application } from '../../../internal/application';
import type { ListEventsInput } from '../../../internal/events/queries/list-events';
import type { PageRequest } from '../../../internal/shared/page';
import { pageMeta } from '../presenters/page.presenter';
import { presentEvent, presentEventDetail } from '../presenters/webhook.presenter';
import { route } from '../route';
import { eventDetailSchema, eventSchema, listEventsQuery, redeliverEventBody } from '../schemas/webhook.schemas';

/** /events → internal/events/queries and internal/webhooks/commands/redeliver-event. */
export function eventRoutes(app: Application) {
  const { redeliverEvent } = app.commands;
  const { listEvents, getEvent } = app.queries;
  return [
    route<unknown, ListEventsInput & PageRequest>({
      method: 'get', path: '/events', operationId: 'listEvents', tag: 'Events', summary: 'List events, newest first',
      description: 'Every state change of the organization, newest first; each as it was delivered.',
      auth: 'facade', query: listEventsQuery, response: eventSchema, list: 'page', errors: [400, 401],
      handle: async ({ query, scope }) => {
        const { page, limit, ...filter } = query;
        const result = await listEvents.execute(filter, { page, limit }, scope);
        return { data: result.items.map(presentEvent), meta: pageMeta({ page, limit }, result) };
      },
    }),
    route({
      method: 'get', path: '/events/:id', operationId: 'getEvent', tag: 'Events', summary: 'Retrieve an event with its deliveries and their attempts',
      description: 'The event as delivered, with its delivery to each endpoint: status, next attempt and every attempt.',
      params: { id: 'The eventId (`evt_…`)' },
      auth: 'facade', response: eventDetailSchema, errors: [401, 404],
      handle: async ({ params, scope }) => ({ data: presentEventDetail(await getEvent.execute(params.id!, scope)) }),
    }),
    route<{ webhookEndpointId?: string }>({
      method: 'post', path: '/events/:id/redeliver', operationId: 'redeliverEvent', tag: 'Events', summary: 'Send an event again to its endpoints (or one); answers the deliveries as scheduled',
      description:
        'Schedules a new delivery now to every endpoint that subscribes to its type (or to the one named, even if it no longer ' +
        'subscribes); 422 when there is none or the endpoint is disabled.',
      params: { id: 'The eventId (`evt_…`)' },
      auth: 'facade', body: redeliverEventBody, response: eventDetailSchema, status: 202, errors: [400, 401, 404, 422],
      handle: async ({ params, body, scope }) => ({ data: presentEventDetail(await redeliverEvent.execute(params.id!, body, scope)) }),
    }),
  ];
}
