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
    // The reads are independent: run them together. A stored debt wins over any other outcome
    // (a replay answers what was created, whatever the body now says).
    // A legacy productName may create the product, so it waits until the replay check has
    // passed; a product created then stands even if the debt fails, like one made through
    // POST /products.
    const writesProduct = draft.product !== null && 'productName' in draft.product;
    const [stored, readProduct, debtor] = await Promise.allSettled([
      externalRequestId === undefined ? null : this.deps.debts.findByExternalRequestId(scope.company.id, requestId),
      writesProduct ? null : resolveProduct(this.deps.products, draft.product, scope),
      // A referenced contact is only read; inline contactData is written in the transaction below.
      'externalClientId' in draft.debtor ? resolveDebtor(this.deps, draft.debtor, scope) : null,
    ]);
    if (stored.status === 'rejected') throw stored.reason;
    if (stored.value) return { debt: stored.value, created: false };
    if (readProduct.status === 'rejected') throw readProduct.reason;
    if (debtor.status === 'rejected') throw debtor.reason;
    const product = { value: writesProduct ? await resolveProduct(this.deps.products, draft.product, scope) : readProduct.value };
    try {
      return { debt: await this.insert(draft, requestId, product.value, debtor.value, scope), created: true };
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
      // Either another request took this externalRequestId first (return its debt), or it
      // created the same inline contact first (run again: the contact now exists).
      const winner = await this.deps.debts.findByExternalRequestId(scope.company.id, requestId);
      if (winner) return { debt: winner, created: false };
      return { debt: await this.insert(draft, requestId, product.value, debtor.value, scope), created: true };
    }
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
