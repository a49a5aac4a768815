import { runStatusSweep, type StatusSweepDeps } from '../../shared/jobs/status-sweep';
import { utcDateOf } from '../../shared/calendar-date';
import { requireDeps } from '../../shared/use-case-deps';

/**
 * Scheduled job: persists OVERDUE for PENDING debts past their due date, per organization on
 * that organization's clock, with one debt.overdue event each in the same transaction (paced
 * chunks: runStatusSweep). Reads never wait for it (they apply the rule themselves); it keeps the
 * stored status, and so indexes, exports and integrators' webhooks, true.
 */
export class MarkOverdueDebts {
  constructor(private readonly deps: StatusSweepDeps) {
    requireDeps('MarkOverdueDebts', deps);
  }

  async execute(): Promise<{ marked: number }> {
    const marked = await runStatusSweep(this.deps, {
      mark: ({ debts }, organization, now, limit) => debts.markOverdue(organization.id, utcDateOf(now), now, limit),
      event: (debt) => ({ type: 'debt.overdue', subject: { kind: 'debt', debt } }),
    });
    return { marked };
  }
}
