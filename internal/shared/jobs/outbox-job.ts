import type { Job } from '../../../ports/job-queue';
import type { OutboxEntry } from '../../../ports/job-outbox';

/** The job an outbox entry holds, as the queue takes it (name, payload, jobId). */
export function jobOf(entry: OutboxEntry): Required<Job> {
  // The name and payload were typed together when the entry was written (JobPayloads).
  return { name: entry.name, data: entry.data, jobId: entry.jobId } as Required<Job>;
}
