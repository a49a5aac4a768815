import type { Clock } from '../../../ports/clock';
import type { DebtView } from '../../../ports/debt-repository';
import type { IdGenerator } from '../../../ports/id-generator';
import type { JobQueue } from '../../../ports/job-queue';
import type { Repositories, UnitOfWork } from '../../../ports/unit-of-work';
import type { DomainError } from '../../shared/errors';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import type { DebtDraft } from '../debt-draft';
import { DebtWriter } from '../debt-writer';

export const MAX_BATCH_SIZE = 50;

export interface BatchItem {
  externalRequestId: string;
  draft: DebtDraft;
}

export type BatchOutcome = { debt: DebtView; error?: undefined } | { debt?: undefined; error: DomainError };

export interface BatchResult {
  batchId: string;
  /** One per item, in the order sent. */
  outcomes: BatchOutcome[];
}

/**
 * POST /v2/debts with `{ debts: [...] }`. Items succeed or fail independently; an item whose
 * externalRequestId exists returns that debt. Written by the DebtWriter: debtors, products and
 * default payment methods read once per batch (one query per kind), every new debt in one
 * multi-row insert that skips keys a concurrent request took, so retries and races create each
 * debt exactly once; direct debit evaluated once per user and product.
 */
export class CreateDebtBatch {
  private readonly writer: DebtWriter;

  constructor(private readonly deps: { uow: UnitOfWork; repos: Repositories; queue: JobQueue; clock: Clock; ids: IdGenerator }) {
    requireDeps('CreateDebtBatch', deps);
    this.writer = new DebtWriter(deps);
  }

  async execute(items: BatchItem[], scope: TenantScope): Promise<BatchResult> {
    const batchId = 'bat_' + this.deps.ids.alphanumeric(20);
    const outcomes = await this.writer.write(
      items.map((item) => ({ ...item, scope })),
      { kind: 'batch', batchId },
    );
    return { batchId, outcomes: outcomes.map((o): BatchOutcome => (o.error ? { error: o.error } : { debt: o.debt })) };
  }
}
