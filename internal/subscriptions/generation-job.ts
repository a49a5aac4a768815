import type { Job } from '../../ports/job-queue';
import type { Subscription } from './subscription';

/** The job that generates a subscription's cycles (resume 0) or the remaining ones after a resume. */
export function generationJob(subscription: Pick<Subscription, 'id' | 'code'>, resume: number, fromDate: string | null): Required<Job> {
  return {
    name: 'subscriptions.generate-cycles',
    jobId: generationJobId(subscription, resume),
    data: { subscriptionId: subscription.id, resume, fromDate },
  };
}

/** The jobId of that job: one per subscription and resume, so the queue runs each once. */
export function generationJobId(subscription: Pick<Subscription, 'code'>, resume: number): string {
  return `sub-${subscription.code}-generate-${resume}`;
}
