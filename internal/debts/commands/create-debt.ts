import type { ContactRepository } from '../../../ports/contact-repository';
import type { DebtRepository, DebtView } from '../../../ports/debt-repository';
import type { IdGenerator } from '../../../ports/id-generator';
import type { ProductRepository } from '../../../ports/product-repository';
import type { UnitOfWork } from '../../../ports/unit-of-work';
import type { Product } from '../../products/product';
import { ConflictError, DomainError } from '../../shared/errors';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import type { DebtDraft } from '../debt-draft';
import { newDebt, viewOf } from '../new-debt';
import { type ResolvedDebtor, resolveDebtor } from '../resolve-debtor';
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
    const stored = () => (externalRequestId === undefined ? null : this.deps.debts.findByExternalRequestId(scope.company.id, requestId));
    // A legacy productName may create a product, so that path checks for a replay first (a
    // replay must create nothing). Otherwise the happy path skips the lookup: the unique key
    // catches a replay at the INSERT.
    if (draft.product !== null && 'productName' in draft.product) {
      const replayed = await stored();
      if (replayed) return { debt: replayed, created: false };
    }
    try {
      return { debt: await this.create(draft, requestId, scope), created: true };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      // A replay answers what was created, whatever the body now says: the stored debt wins
      // over any failure of this body (taken key, unknown debtor, missing product).
      const replayed = await stored();
      if (replayed) return { debt: replayed, created: false };
      // A concurrent request created the same inline contact first: run again, it now exists.
      if (error instanceof ConflictError) return { debt: await this.create(draft, requestId, scope), created: true };
      throw error;
    }
  }

  private async create(draft: DebtDraft, externalRequestId: string, scope: TenantScope): Promise<DebtView> {
    // Independent reads run together; a product created from a legacy productName stands even
    // if the debt then fails, like one made through POST /products.
    const [product, debtor] = await Promise.all([
      resolveProduct(this.deps.products, draft.product, scope),
      // A referenced contact is only read; inline contactData is written in the transaction.
      'externalClientId' in draft.debtor ? resolveDebtor(this.deps, draft.debtor, scope) : null,
    ]);
    return this.insert(draft, externalRequestId, product, debtor, scope);
  }

  /** One INSERT for a referenced contact; a transaction when contactData writes the contact too. */
  private async insert(
    draft: DebtDraft,
    externalRequestId: string,
    product: Product | null,
    debtor: ResolvedDebtor | null,
    scope: TenantScope,
  ): Promise<DebtView> {
    const write = async (tx: { contacts: ContactRepository; debts: DebtRepository }, resolved: ResolvedDebtor) => {
      const { contact, createdInline } = resolved;
      const debt = await tx.debts.insert(newDebt(draft, { externalRequestId, batchId: null, contact, createdInline, product }, scope));
      return viewOf(debt, contact, product);
    };
    if (debtor) return write(this.deps, debtor);
    return this.deps.uow.run(async (tx) => write(tx, await resolveDebtor({ contacts: tx.contacts, ids: this.deps.ids }, draft.debtor, scope)));
  }
}
