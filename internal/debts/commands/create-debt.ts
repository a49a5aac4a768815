import type { Clock } from '../../../ports/clock';
import type { DebtView } from '../../../ports/debt-repository';
import type { IdGenerator } from '../../../ports/id-generator';
import type { JobQueue } from '../../../ports/job-queue';
import type { Repositories, UnitOfWork } from '../../../ports/unit-of-work';
import { adhesionRequestJob, emitAdhesionRequests, newAdhesionJobId, productGroup } from '../../direct-debit/adhesion-requests';
import { autopayBeforeMethods, autopayFromDefault } from '../../direct-debit/autopay';
import { needsDefaultMethod } from '../../direct-debit/autopay-verdicts';
import { eventOf } from '../../events/domain-event';
import type { Product } from '../../products/product';
import { ConflictError, DomainError } from '../../shared/errors';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import type { DebtDraft } from '../debt-draft';
import { newDebt, viewOf } from '../new-debt';
import { debtorKey, findDebtor, resolveDebtor } from '../resolve-debtor';
import { resolveProduct } from '../resolve-product';
import { withdrawnAutopay } from '../withdrawn-autopay';

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
 * Direct debit: a debt the evaluation finds eligible is written with autopay true, its
 * instrument, and its adhesion request in the outbox, all in its transaction; after the commit
 * the request is emitted to the queue, and if that fails the debt answers ADHESION_EVENT_FAILED.
 */
export class CreateDebt {
  constructor(private readonly deps: { uow: UnitOfWork; repos: Repositories; queue: JobQueue; clock: Clock; ids: IdGenerator }) {
    requireDeps('CreateDebt', deps);
  }

  async execute(draft: DebtDraft, externalRequestId: string | undefined, scope: TenantScope): Promise<CreateDebtResult> {
    const requestId = externalRequestId ?? this.deps.ids.alphanumeric(GENERATED_REQUEST_ID_LENGTH);
    const stored = () => (externalRequestId === undefined ? null : this.deps.repos.debts.findByExternalRequestId(scope.company.id, requestId));
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
    const { repos, uow, ids } = this.deps;
    const user = debtorKey(draft.debtor);
    const readsMethod = draft.evaluateAutopay && needsDefaultMethod(scope.company, draft.product !== null);
    // Independent reads run together. A referenced contact is only read; inline contactData is
    // written in the debt's transaction.
    const [product, debtor, defaultMethod] = await Promise.all([
      resolveProduct({ products: repos.products, uow }, draft.product, scope),
      'externalClientId' in draft.debtor ? findDebtor(repos.contacts, draft.debtor.externalClientId, scope) : null,
      readsMethod ? repos.paymentMethods.findDefault(scope.company.id, user) : null,
    ]);
    const verdict = draft.evaluateAutopay ? (autopayBeforeMethods(scope.company, product) ?? autopayFromDefault(defaultMethod)) : null;
    const eligible = verdict && 'eligible' in verdict ? verdict.eligible : null;
    const request =
      eligible && adhesionRequestJob({ companyId: scope.company.id, externalClientId: user, productId: product!.id, paymentMethodId: eligible.id }, newAdhesionJobId(ids));

    const view = await uow.run(async (tx) => {
      const { contact, createdInline } = debtor ?? (await resolveDebtor({ ...tx, ids }, draft.debtor, scope));
      const debt = await tx.debts.insert(newDebt(draft, { externalRequestId, batchId: null, contact, createdInline, product, autopay: verdict }, scope));
      const written = viewOf(debt, contact, product, eligible);
      if (request) await tx.outbox.add(request, debt.createdAt, { group: productGroup(product!.id) });
      await tx.events.append([eventOf(scope, 'debt.created', { kind: 'debt', debt: written }, debt.createdAt)]);
      return written;
    });
    // Any debt of a product of a direct-debit company emits the product's pending requests.
    return product && needsDefaultMethod(scope.company, true) ? this.emit(view, product, request?.jobId ?? null, scope) : view;
  }

  /**
   * Emits the product's adhesion requests (this debt's, and any an earlier failure deferred).
   * Without its own, the debt is not debited: it answers, and keeps, ADHESION_EVENT_FAILED.
   */
  private async emit(view: DebtView, product: Product, jobId: string | null, scope: TenantScope): Promise<DebtView> {
    const emitted = await emitAdhesionRequests({ ...this.deps, outbox: this.deps.repos.outbox }, product.id, jobId ? [jobId] : []).catch(
      () => new Set<string>(),
    );
    if (jobId === null || emitted.has(jobId)) return view;
    await this.deps.repos.debts.withdrawAutopay(scope.company.id, [view.id], 'ADHESION_EVENT_FAILED', scope.clock.now());
    return withdrawnAutopay(view);
  }
}
