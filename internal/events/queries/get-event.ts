import type { EventLog, LoggedEvent } from '../../../ports/event-log';
import type { Repositories } from '../../../ports/unit-of-work';
import { NotFoundError } from '../../shared/errors';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import type { DeliveryAttempt, WebhookDelivery } from '../../webhooks/delivery';
import type { WebhookEndpoint } from '../../webhooks/webhook-endpoint';

export interface EventDelivery {
  delivery: WebhookDelivery;
  /** The endpoint as it is now (possibly deleted since). */
  endpoint: WebhookEndpoint;
  attempts: DeliveryAttempt[];
}

export interface EventDetail {
  event: LoggedEvent;
  deliveries: EventDelivery[];
}

const EVENT_ID = /^evt_[A-Za-z0-9]{1,36}$/;

/** An event of the caller's company by its eventId; 404 for anything else (another company's included). */
export async function findEvent(events: EventLog, id: string, scope: TenantScope): Promise<LoggedEvent> {
  const event = EVENT_ID.test(id) ? await events.findByEventId(scope.company.id, id) : null;
  if (!event) throw new NotFoundError('Event');
  return event;
}

/** GET /events/{id}: the event with its delivery to each endpoint and every attempt. */
export class GetEvent {
  constructor(private readonly deps: { repos: Repositories }) {
    requireDeps('GetEvent', deps);
  }

  async execute(id: string, scope: TenantScope): Promise<EventDetail> {
    const { events } = this.deps.repos;
    return eventDetail(this.deps.repos, await findEvent(events, id, scope));
  }
}

export async function eventDetail(repos: Pick<Repositories, 'webhookDeliveries' | 'webhookEndpoints'>, event: LoggedEvent): Promise<EventDetail> {
  const rows = await repos.webhookDeliveries.ofEvent(event.id);
  const endpoints = new Map((await repos.webhookEndpoints.findByIds(rows.map((r) => r.delivery.endpointId))).map((e) => [e.id, e]));
  return {
    event,
    deliveries: rows.flatMap(({ delivery, attempts }) => {
      const endpoint = endpoints.get(delivery.endpointId);
      return endpoint ? [{ delivery, endpoint, attempts }] : [];
    }),
  };
}
