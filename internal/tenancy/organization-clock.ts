import type { Clock } from '../../ports/clock';
import type { Organization } from './organization';

/** The organization's time: the sandbox-frozen instant when one is set, else the given clock. */
export function organizationClock(clock: Clock, organization: Pick<Organization, 'frozenNow'>): Clock {
  const frozen = organization.frozenNow;
  return frozen ? { now: () => new Date(frozen.getTime()) } : clock;
}
