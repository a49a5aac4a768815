import type { Clock } from '../../../ports/clock';
import type { JobPace } from '../../../ports/job-pace';
import type { TenancyRepository } from '../../../ports/tenancy-repository';
import type { Repositories, UnitOfWork } from '../../../ports/unit-of-work';
import { eventOf, type EventSubject } from '../../events/domain-event';
import type { EventType } from '../../events/event-type';
import type { Organization } from '../../tenancy/organization';
import { organizationClock } from '../../tenancy/organization-clock';
import { companiesById, workerScope } from '../../tenancy/worker-scope';

/** Rows a sweep marks (and their events written) per transaction. */
export const SWEEP_CHUNK = 500;

export interface StatusSweepDeps {
  tenancy: TenancyRepository;
  uow: UnitOfWork;
  clock: Clock;
  jobPace: JobPace;
}

/** One sweep: which rows of an organization it marks, and the event each gets. */
export interface StatusSweep<T extends { companyId: number }> {
  /** Marks up to `limit` rows of the organization due at `now` (its clock) and answers them as marked, in `repos`' transaction. */
  mark(repos: Repositories, organization: Organization, now: Date, limit: number): Promise<T[]>;
  /** The event a marked row reports. */
  event(row: T): { type: EventType; subject: EventSubject };
}

/**
 * The loop of every scheduled status sweep (overdue debts, expired links and payment instructions,
 * ended subscriptions): per organization, on that organization's clock, chunks of SWEEP_CHUNK rows,
 * each marked with its events in one transaction, until a chunk comes back short. The chunks are
 * paced (JobPace): a backlog is spread over time, not run flat out against the requests of the
 * moment, and a process shutting down ends the run after its chunk in flight. A run stopped
 * midway rolls back only its open chunk; the next run finds those rows still due and marks each
 * once. Answers how many rows it marked.
 */
export async function runStatusSweep<T extends { companyId: number }>(deps: StatusSweepDeps, sweep: StatusSweep<T>): Promise<number> {
  const paced = deps.jobPace.pacer();
  let marked = 0;
  for (const organization of await deps.tenancy.listOrganizations()) {
    for (;;) {
      const count = await paced(() =>
        deps.uow.run(async (repos) => {
          const now = organizationClock(deps.clock, organization).now();
          const rows = await sweep.mark(repos, organization, now, SWEEP_CHUNK);
          const companies = await companiesById(repos.tenancy, rows.map((row) => row.companyId));
          await repos.events.append(
            rows.map((row) => {
              const { type, subject } = sweep.event(row);
              return eventOf(workerScope(organization, companies.get(row.companyId)!, deps.clock), type, subject, now);
            }),
          );
          return rows.length;
        }),
      );
      // The process is stopping (JobPace.stop): what is left waits for the next run.
      if (count === null) return marked;
      marked += count;
      if (count < SWEEP_CHUNK) break;
    }
  }
  return marked;
}
