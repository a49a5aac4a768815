import type { Clock } from '../../../ports/clock';
import type { DebtView } from '../../../ports/debt-repository';
import type { IdGenerator } from '../../../ports/id-generator';
import type { JobQueue } from '../../../ports/job-queue';
import type { Repositories, UnitOfWork } from '../../../ports/unit-of-work';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import type { DebtDraft } from '../debt-draft';
import { DebtWriter } from '../debt-writer';
import { GroupedDebtCreations } from '../grouped-creations';
import { ProductNameUnresolved, resolveProduct } from '../resolve-product';

export const GENERATED_REQUEST_ID_LENGTH = 24;

export interface CreateDebtResult {
  debt: DebtView;
  /** False when the externalRequestId already named a debt, which is returned as stored. */
  created: boolean;
}

/**
 * POST /v2/debts (single) and legacy POST /debts. The externalRequestId (Idempotency-Key) is the
 * debt's identity: a repeated one returns the stored debt and creates nothing, also when two
 * requests race (the unique key decides; the loser reads the winner's debt).
 *
 * The debt is written by the DebtWriter (the batch's code path), grouped with the other single
 * creations of the company that arrive at the same moment (GroupedDebtCreations): its debt.created
 * event and, for direct debit, its adhesion request in the outbox go in its transaction; after the
 * commit the request is emitted, and if that fails the debt answers ADHESION_EVENT_FAILED.
 */
export class CreateDebt {
  private readonly groups: GroupedDebtCreations;

  constructor(private readonly deps: { uow: UnitOfWork; repos: Repositories; queue: JobQueue; clock: Clock; ids: IdGenerator }) {
    requireDeps('CreateDebt', deps);
    this.groups = new GroupedDebtCreations(new DebtWriter(deps));
  }

  async execute(draft: DebtDraft, externalRequestId: string | undefined, scope: TenantScope): Promise<CreateDebtResult> {
    const key = externalRequestId ?? this.deps.ids.alphanumeric(GENERATED_REQUEST_ID_LENGTH);
    let outcome = await this.groups.submit({ externalRequestId: key, draft, scope });
    if (outcome.error instanceof ProductNameUnresolved && draft.product !== null && 'productName' in draft.product) {
      // A legacy productName is read with the group's other products and used when it names an
      // active product (a replay is answered its stored debt by the write either way). Otherwise
      // the request may create it, which a replay must not: the stored debt is looked for first.
      // The product stands even if the debt then fails, like one made with POST /products.
      const replayed = externalRequestId === undefined ? null : await this.deps.repos.debts.findByExternalRequestId(scope.company.id, key);
      if (replayed) return { debt: replayed, created: false };
      const product = await resolveProduct({ products: this.deps.repos.products, uow: this.deps.uow }, draft.product, scope);
      outcome = await this.groups.submit({ externalRequestId: key, draft, scope, product });
    }
    if (outcome.error) throw outcome.error;
    return outcome;
  }
}
