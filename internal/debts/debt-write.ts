import type { Clock } from '../../ports/clock';
import type { DebtView } from '../../ports/debt-repository';
import type { IdGenerator } from '../../ports/id-generator';
import type { JobQueue } from '../../ports/job-queue';
import type { Repositories, UnitOfWork } from '../../ports/unit-of-work';
import type { Product } from '../products/product';
import type { DomainError } from '../shared/errors';
import type { TenantScope } from '../shared/tenant-scope';
import type { DebtDraft } from './debt-draft';

/** The words of a debt write (debt-writer.ts), shared by its steps. */

/** One debt to create, on behalf of the request behind `scope`. */
export interface DebtWriteItem {
  externalRequestId: string;
  draft: DebtDraft;
  /**
   * The request it comes from (its id, user and API key go on its events). Items of one request
   * share the scope object: an inline contact is written once per request.
   */
  scope: TenantScope;
  /** A product the caller already resolved (a legacy productName); otherwise the draft's reference is read. */
  product?: Product | null;
}

export type DebtWriteOutcome = { debt: DebtView; created: boolean; error?: undefined } | { debt?: undefined; error: DomainError };

/**
 * How the debts are written.
 * - `batch`: the stored debts are read first; the new ones go in with one insert that skips keys
 *   a concurrent request took meanwhile (those answer the stored debt); each carries `batchId`.
 * - `single`: independent single creations (possibly several requests at once). The keys are
 *   expected to be new, so nothing is read first: a taken key fails the insert, and the write
 *   runs again reading the stored debts first (which then answer as replays).
 */
export type DebtWriteMode = { kind: 'batch'; batchId: string } | { kind: 'single' };

/** What each step of a write uses. */
export type WriteDeps = { uow: UnitOfWork; repos: Repositories; queue: JobQueue; clock: Clock; ids: IdGenerator };
