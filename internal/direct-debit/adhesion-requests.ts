import type { Clock } from '../../ports/clock';
import type { IdGenerator } from '../../ports/id-generator';
import type { JobOutbox } from '../../ports/job-outbox';
import type { Job, JobQueue } from '../../ports/job-queue';
import { jobOf } from '../shared/jobs/outbox-job';
import type { AdhesionRequest } from './adhesion-request';

export type { AdhesionRequest } from './adhesion-request';

/** Adhesion requests wait in the outbox grouped by product. */
export function productGroup(productId: number): string {
  return `adhesion-requests:product:${productId}`;
}

/** A fresh jobId for one emission; fixed before the transaction, so a retry of it writes one entry. */
export function newAdhesionJobId(ids: IdGenerator): string {
  return `adh-${ids.alphanumeric(24)}`;
}

/** The outbox entry of one emission. */
export function adhesionRequestJob(request: AdhesionRequest, jobId: string): Required<Job> {
  return { name: 'direct-debit.request-adhesion', jobId, data: { ...request } };
}

/**
 * After the commit that wrote them, hands every pending adhesion request of the product to the
 * queue: this call's own, and those deferred by earlier failures ("retried when the next debt of
 * that product is created"). Returns the jobIds handed over. When the queue refuses, the rest
 * stay pending and this call's own ones are deferred to the product's next debt; the caller then
 * answers ADHESION_EVENT_FAILED for them.
 */
export async function emitAdhesionRequests(
  deps: { outbox: JobOutbox; queue: JobQueue; clock: Clock },
  productId: number,
  own: string[],
): Promise<Set<string>> {
  const entries = await deps.outbox.pendingInGroup(productGroup(productId), 500);
  const handed: typeof entries = [];
  try {
    for (const entry of entries) {
      await deps.queue.enqueue(jobOf(entry));
      handed.push(entry);
    }
  } catch {
    // The queue is away: what was not handed over waits (see above).
  }
  await deps.outbox.markDispatched(
    handed.map((e) => e.jobId),
    deps.clock.now(),
  );
  const handedIds = new Set(handed.map((e) => e.jobId));
  const failedOwn = entries.filter((e) => own.includes(e.jobId) && !handedIds.has(e.jobId));
  await deps.outbox.defer(failedOwn.map((e) => e.jobId));
  // An own entry already handed over by the periodic dispatcher is not pending any more: it went out.
  for (const jobId of own) if (!entries.some((e) => e.jobId === jobId)) handedIds.add(jobId);
  return handedIds;
}
