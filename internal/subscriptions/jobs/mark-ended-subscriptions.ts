import { runStatusSweep, type StatusSweepDeps } from '../../shared/jobs/status-sweep';
import { utcDateOf } from '../../shared/calendar-date';
import { requireDeps } from '../../shared/use-case-deps';

/**
 * Scheduled job: persists ENDED for ACTIVE subscriptions whose last cycle is due before the
 * organization's today (on its clock), with one subscription.ended event each in the same
 * transaction (paced chunks: runStatusSweep). Reads never wait for it (they compute ENDED
 * themselves); it is what reports the end to integrators, once.
 */
export class MarkEndedSubscriptions {
  constructor(private readonly deps: StatusSweepDeps) {
    requireDeps('MarkEndedSubscriptions', deps);
  }

  async execute(): Promise<{ ended: number }> {
    const ended = await runStatusSweep(this.deps, {
      mark: ({ subscriptions }, organization, now, limit) => subscriptions.markEnded(organization.id, utcDateOf(now), now, limit),
      event: (subscription) => ({ type: 'subscription.ended', subject: { kind: 'subscription', subscription } }),
    });
    return { ended };
  }
}
