import type { Clock } from '../../../ports/clock';
import type { Repositories, UnitOfWork } from '../../../ports/unit-of-work';
import { type EventDetail, eventDetail, findEvent } from '../../events/queries/get-event';
import { BusinessRuleViolationError } from '../../shared/errors';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import { findEndpoint } from '../find-endpoint';
import { subscribes } from '../webhook-endpoint';

/**
 * POST /events/{id}/redeliver: the event goes out again, with a fresh retry schedule, to every
 * enabled endpoint of the company that subscribes to its type now (or only to the endpoint
 * named, which must be enabled). It reopens deliveries that succeeded, failed or were cancelled,
 * brings a pending retry forward, and creates the delivery an endpoint never had. The workers
 * send it within about a second; the answer shows the deliveries as scheduled.
 */
export class RedeliverEvent {
  constructor(private readonly deps: { uow: UnitOfWork; repos: Repositories; clock: Clock }) {
    requireDeps('RedeliverEvent', deps);
  }

  async execute(id: string, input: { webhookEndpointId?: string }, scope: TenantScope): Promise<EventDetail> {
    const { repos } = this.deps;
    const event = await findEvent(repos.events, id, scope);
    let targets;
    if (input.webhookEndpointId !== undefined) {
      const endpoint = await findEndpoint(repos.webhookEndpoints, input.webhookEndpointId, scope);
      if (!endpoint.enabled) throw new BusinessRuleViolationError('The webhook endpoint is disabled');
      targets = [endpoint];
    } else {
      targets = (await repos.webhookEndpoints.enabledOfCompanies([scope.company.id])).filter((e) => subscribes(e, event.type));
      if (targets.length === 0) throw new BusinessRuleViolationError(`No enabled webhook endpoint subscribes to ${event.type}`);
    }
    // Delivery times are real time (signatures are checked against the receiver's clock), not the sandbox clock.
    const now = this.deps.clock.now();
    return this.deps.uow.run(async (tx) => {
      await tx.webhookDeliveries.reopen({ rowId: event.id, companyId: event.companyId, resourceId: event.resourceId }, targets.map((e) => e.id), now);
      return eventDetail(tx, event);
    });
  }
}
