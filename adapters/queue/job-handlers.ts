import type { Application } from '../../internal/application';
import type { JobHandlers } from '../../ports/job-queue';

/** Job name → use case, shared by the BullMQ workers and the in-process queue. */
export function jobHandlers(app: Application): JobHandlers {
  return {
    'tenancy.purge-expired-refresh-tokens': () => app.jobs.purgeExpiredRefreshTokens.execute(),
  };
}

/** Repeating jobs the workers schedule. */
export const SCHEDULES = [{ name: 'tenancy.purge-expired-refresh-tokens' as const, everyMs: 60 * 60 * 1000 }];
