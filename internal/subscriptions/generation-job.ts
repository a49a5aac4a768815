import type { Job } from '../../ports/job-queue';
import type { Subscription } from './subscription';

/** The job that generates a subscription's cycles (resume 0) or the remaining ones after a resume. */
export function generationJob(subscription: Pick<Subscription, 'id' | 'code'>, resume: number, fromDate: string | null): Required<Job> {
  return {
    name: 'subscriptions.generate-cycles',
    jobId: `sub-${subscription.code}-generate-${resume}`,
    data: { subscriptionId: subscription.id, resume, fromDate },
  };
}
