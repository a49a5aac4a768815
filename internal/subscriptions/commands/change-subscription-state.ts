import type { SubscriptionView } from '../../../ports/subscription-repository';
import type { Repositories, UnitOfWork } from '../../../ports/unit-of-work';
import { eventOf } from '../../events/domain-event';
import type { EventType } from '../../events/event-type';
import { utcDateOf } from '../../shared/calendar-date';
import { BusinessRuleViolationError } from '../../shared/errors';
import type { DispatchOutbox } from '../../shared/jobs/dispatch-outbox';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import { cancelPendingInstructions } from '../../payment-instructions/cancel-pending-instructions';
import { findSubscription } from '../find-subscription';
import { generationJob } from '../generation-job';
import { effectiveSubscriptionStatus, type SubscriptionStatus } from '../subscription';

/** `dispatchOutbox`: the process's one outbox dispatcher (it hands a resume's job over after the commit). */
type Deps = { uow: UnitOfWork; repos: Repositories; dispatchOutbox: DispatchOutbox };

/**
 * POST /subscriptions/{id}/cancel, /pause and /resume: the state table as data. Cancel and
 * pause cancel the unpaid debts; resume generates the remaining cycles (due today or later) as
 * `<externalSubscriptionId>-resume-<n>-cycle-<m>`, through the outbox like creation. Each writes
 * its subscription event, then debt.cancelled for every debt it cancelled.
 */
const TRANSITIONS = {
  cancel: { from: ['ACTIVE', 'PAUSED'], to: 'CANCELLED', event: 'subscription.cancelled' },
  pause: { from: ['ACTIVE'], to: 'PAUSED', event: 'subscription.paused' },
  resume: { from: ['PAUSED'], to: 'ACTIVE', event: 'subscription.resumed' },
} as const satisfies Record<string, { from: readonly SubscriptionStatus[]; to: SubscriptionStatus; event: EventType }>;

export type SubscriptionAction = keyof typeof TRANSITIONS;

export class ChangeSubscriptionState {
  constructor(private readonly deps: Deps) {
    requireDeps('ChangeSubscriptionState', deps);
  }

  async execute(action: SubscriptionAction, id: string, scope: TenantScope): Promise<SubscriptionView> {
    const { from, to, event } = TRANSITIONS[action];
    const { updated, job } = await this.deps.uow.run(async (tx) => {
      const subscription = await findSubscription(tx.subscriptions, id, scope, { lock: true });
      const now = scope.clock.now();
      const today = utcDateOf(now);
      const status = effectiveSubscriptionStatus(subscription, today);
      if (!(from as readonly string[]).includes(status)) {
        throw new BusinessRuleViolationError(`A ${status} subscription cannot be ${action === 'cancel' ? 'cancelled' : `${action}d`}`);
      }
      const cancelled = action !== 'resume' ? await tx.debts.cancelUnpaidOfSubscription(subscription.id, now) : [];
      const resumeCount = action === 'resume' ? subscription.resumeCount + 1 : undefined;
      const job = resumeCount ? generationJob(subscription, resumeCount, today) : null;
      if (job) await tx.outbox.add(job, now);
      const changed = await tx.subscriptions.update(scope.company.id, subscription.id, { status: to, resumeCount, updatedAt: now });
      await tx.events.append([
        eventOf(scope, event, { kind: 'subscription', subscription: changed }, now),
        ...cancelled.map((debt) => eventOf(scope, 'debt.cancelled', { kind: 'debt', debt }, now)),
      ]);
      await cancelPendingInstructions(tx, cancelled.map((debt) => debt.id), scope, now);
      return { updated: changed, job };
    });
    // The resume's generation job, handed over now; if the queue is away the periodic run retries it.
    if (job) await this.deps.dispatchOutbox.afterCommit(job).catch(() => undefined);
    return updated;
  }
}
