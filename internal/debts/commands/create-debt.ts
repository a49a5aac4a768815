import type { ContactRepository } from '../../../ports/contact-repository';
import type { DebtRepository, DebtView } from '../../../ports/debt-repository';
import type { IdGenerator } from '../../../ports/id-generator';
import type { ProductRepository } from '../../../ports/product-repository';
import type { UnitOfWork } from '../../../ports/unit-of-work';
import type { Product } from '../../products/product';
import { ConflictError } from '../../shared/errors';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import type { DebtDraft } from '../debt-draft';
import { newDebt, viewOf } from '../new-debt';
import { resolveDebtor } from '../resolve-debtor';
import { resolveProduct } from '../resolve-product';

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
 */
export class CreateDebt {
  constructor(
    private readonly deps: {
      uow: UnitOfWork;
      contacts: ContactRepository;
      products: ProductRepository;
      debts: DebtRepository;
      ids: IdGenerator;
    },
  ) {
    requireDeps('CreateDebt', deps);
  }

  async execute(draft: DebtDraft, externalRequestId: string | undefined, scope: TenantScope): Promise<CreateDebtResult> {
    const requestId = externalRequestId ?? this.deps.ids.alphanumeric(GENERATED_REQUEST_ID_LENGTH);
    if (externalRequestId !== undefined) {
      const stored = await this.deps.debts.findByExternalRequestId(scope.company.id, requestId);
      if (stored) return { debt: stored, created: false };
    }
    // A legacy productName may create the product: that stands even if the debt then fails,
    // like a product created through POST /products.
    const product = await resolveProduct(this.deps.products, draft.product, scope);
    try {
      return { debt: await this.insert(draft, requestId, product, scope), created: true };
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
      // Either another request took this externalRequestId first (return its debt), or it
      // created the same inline contact first (run again: the contact now exists).
      const stored = await this.deps.debts.findByExternalRequestId(scope.company.id, requestId);
      if (stored) return { debt: stored, created: false };
      return { debt: await this.insert(draft, requestId, product, scope), created: true };
    }
  }

  private insert(draft: DebtDraft, externalRequestId: string, product: Product | null, scope: TenantScope): Promise<DebtView> {
    return this.deps.uow.run(async (tx) => {
      const { contact, createdInline } = await resolveDebtor({ contacts: tx.contacts, ids: this.deps.ids }, draft.debtor, scope);
      const debt = await tx.debts.insert(newDebt(draft, { externalRequestId, batchId: null, contact, createdInline, product }, scope));
      return viewOf(debt, contact, product);
    });
  }
}
