import type { Clock } from '../../../ports/clock';
import type { DebtView, NewDebt } from '../../../ports/debt-repository';
import type { IdGenerator } from '../../../ports/id-generator';
import type { Job, JobQueue } from '../../../ports/job-queue';
import type { Repositories, UnitOfWork } from '../../../ports/unit-of-work';
import type { Contact } from '../../contacts/contact';
import { adhesionRequestJob, emitAdhesionRequests, newAdhesionJobId, productGroup } from '../../direct-debit/adhesion-requests';
import type { AutopayVerdict } from '../../direct-debit/autopay';
import { autopayVerdicts, needsDefaultMethod } from '../../direct-debit/autopay-verdicts';
import { eventOf } from '../../events/domain-event';
import type { Product } from '../../products/product';
import { ConflictError, DomainError } from '../../shared/errors';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import type { ContactData, DebtDraft } from '../debt-draft';
import { newDebt } from '../new-debt';
import { debtorKey, type ResolvedDebtor, unknownDebtor, upsertContact } from '../resolve-debtor';
import { checkUsable } from '../resolve-product';
import { withdrawnAutopay } from '../withdrawn-autopay';

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

/** One adhesion request per user and product of the batch. */
type AdhesionRequests = Map<string, Required<Job> & { productId: number }>;

/**
 * POST /v2/debts with `{ debts: [...] }`. Items succeed or fail independently; an item whose
 * externalRequestId exists returns that debt. Debtors, products and default payment methods are
 * read once per batch (one query per kind), and every new debt is written by one multi-row insert
 * that skips keys a concurrent request took, so retries and races create each debt exactly once.
 * Direct debit is evaluated once per user and product, with one adhesion request for each.
 */
export class CreateDebtBatch {
  constructor(private readonly deps: { uow: UnitOfWork; repos: Repositories; queue: JobQueue; clock: Clock; ids: IdGenerator }) {
    requireDeps('CreateDebtBatch', deps);
  }

  async execute(items: BatchItem[], scope: TenantScope): Promise<BatchResult> {
    const { repos } = this.deps;
    const batchId = 'bat_' + this.deps.ids.alphanumeric(20);
    const stored = byKey(await repos.debts.findByExternalRequestIds(scope.company.id, items.map((i) => i.externalRequestId)));
    const fresh = items.filter((i) => !stored.has(i.externalRequestId));
    const products = await this.products(fresh, scope);

    // Products first: an item that fails on its product must not write its inline contact.
    const errors = new Map<string, DomainError>();
    const productOfItem = new Map<string, Product | null>();
    for (const item of fresh) {
      const outcome = attempt(() => productOf(item.draft, products));
      if (outcome instanceof DomainError) errors.set(item.externalRequestId, outcome);
      else productOfItem.set(item.externalRequestId, outcome);
    }
    const viable = fresh.filter((i) => productOfItem.has(i.externalRequestId));
    const verdicts = await autopayVerdicts(
      repos.paymentMethods,
      scope.company,
      viable.map((i) => ({ externalClientId: debtorKey(i.draft.debtor), product: productOfItem.get(i.externalRequestId)! })),
    );
    const requests = this.adhesionRequests(viable, verdicts, productOfItem, scope);

    const write = () => this.deps.uow.run((tx) => this.write(tx, { batchId, viable, verdicts, productOfItem, requests, errors }, scope));
    // A concurrent request created one of the inline contacts first: run again, it now exists.
    const created = await write().catch((error) => (error instanceof ConflictError ? write() : Promise.reject(error)));
    const emitted = await this.emit(created, productOfItem, requests, scope);

    const outcomes = items.map((item): BatchOutcome => {
      const error = errors.get(item.externalRequestId);
      if (error) return { error };
      return { debt: stored.get(item.externalRequestId) ?? emitted.get(item.externalRequestId)! };
    });
    return { batchId, outcomes };
  }

  /** The batch's own debts, with their debt.created events and adhesion requests, in one transaction. */
  private async write(
    tx: Repositories,
    batch: {
      batchId: string;
      viable: BatchItem[];
      verdicts: AutopayVerdict[];
      productOfItem: Map<string, Product | null>;
      requests: AdhesionRequests;
      errors: Map<string, DomainError>;
    },
    scope: TenantScope,
  ): Promise<Map<string, DebtView>> {
    const { batchId, viable, verdicts, productOfItem, requests, errors } = batch;
    for (const item of viable) errors.delete(item.externalRequestId);
    const debtors = await this.debtors(tx, viable, scope);
    const rows: NewDebt[] = [];
    viable.forEach((item, index) => {
      const debtor = attempt(() => debtorOf(item.draft, debtors));
      if (debtor instanceof DomainError) {
        errors.set(item.externalRequestId, debtor);
        return;
      }
      const product = productOfItem.get(item.externalRequestId)!;
      rows.push(newDebt(item.draft, { externalRequestId: item.externalRequestId, batchId, ...debtor, product, autopay: verdicts[index] }, scope));
    });
    await tx.debts.insertMissing(rows);
    // What this batch wrote carries its batchId; a key a concurrent request took carries another.
    const all = byKey(await tx.debts.findByExternalRequestIds(scope.company.id, viable.map((i) => i.externalRequestId)));
    const mine = [...all.values()].filter((d) => d.batchId === batchId);
    const now = scope.clock.now();
    for (const request of requests.values()) await tx.outbox.add(request, now, { group: productGroup(request.productId) });
    await tx.events.append(mine.map((debt) => eventOf(scope, 'debt.created', { kind: 'debt', debt }, debt.createdAt)));
    return all;
  }

  private adhesionRequests(items: BatchItem[], verdicts: AutopayVerdict[], productOfItem: Map<string, Product | null>, scope: TenantScope): AdhesionRequests {
    const requests: AdhesionRequests = new Map();
    items.forEach((item, index) => {
      const verdict = verdicts[index]!;
      const product = productOfItem.get(item.externalRequestId);
      if (!('eligible' in verdict) || !product) return;
      const user = debtorKey(item.draft.debtor);
      const key = pairKey(user, product.id);
      if (requests.has(key)) return;
      const request = { companyId: scope.company.id, externalClientId: user, productId: product.id, paymentMethodId: verdict.eligible.id };
      requests.set(key, { ...adhesionRequestJob(request, newAdhesionJobId(this.deps.ids)), productId: product.id });
    });
    return requests;
  }

  /**
   * After the commit: emits each product's adhesion requests; the batch's debts whose request
   * could not go out answer, and keep, ADHESION_EVENT_FAILED.
   */
  private async emit(
    debts: Map<string, DebtView>,
    productOfItem: Map<string, Product | null>,
    requests: AdhesionRequests,
    scope: TenantScope,
  ): Promise<Map<string, DebtView>> {
    if (!needsDefaultMethod(scope.company, true)) return debts;
    const productIds = new Set([...productOfItem.values()].flatMap((p) => (p ? [p.id] : [])));
    const failed = new Set<string>();
    for (const productId of productIds) {
      const own = [...requests.values()].filter((r) => r.productId === productId).map((r) => r.jobId);
      const emitted = await emitAdhesionRequests({ ...this.deps, outbox: this.deps.repos.outbox }, productId, own).catch(() => new Set<string>());
      for (const [key, request] of requests) if (request.productId === productId && !emitted.has(request.jobId)) failed.add(key);
    }
    const withdrawn = [...debts.values()].filter((d) => d.autopay && d.contact && d.productId && failed.has(pairKey(d.contact.externalClientId, d.productId)));
    if (withdrawn.length === 0) return debts;
    await this.deps.repos.debts.withdrawAutopay(scope.company.id, withdrawn.map((d) => d.id), 'ADHESION_EVENT_FAILED', scope.clock.now());
    for (const debt of withdrawn) debts.set(debt.externalRequestId, withdrawnAutopay(debt));
    return debts;
  }

  /** Every product the batch references, in at most two queries. */
  private async products(items: BatchItem[], scope: TenantScope) {
    const numbers = new Set<number>();
    const external = new Set<string>();
    for (const { draft } of items) {
      if (draft.product && 'productNumber' in draft.product) numbers.add(draft.product.productNumber);
      if (draft.product && 'externalProductId' in draft.product) external.add(draft.product.externalProductId);
    }
    const { products } = this.deps.repos;
    const [byId, byExternal] = await Promise.all([
      products.findByIds(scope.company.id, [...numbers]),
      products.findByExternalProductIds(scope.company.id, [...external]),
    ]);
    return { byId: new Map(byId.map((p) => [p.id, p])), byExternal: new Map(byExternal.map((p) => [p.externalProductId!, p])) };
  }

  /** Every debtor, read in one query; each distinct contactData written once (the last one sent wins). */
  private async debtors(tx: Repositories, items: BatchItem[], scope: TenantScope): Promise<Map<string, ResolvedDebtor>> {
    const inline = new Map<string, ContactData>();
    const keys = new Set<string>();
    for (const { draft } of items) {
      const key = debtorKey(draft.debtor);
      keys.add(key);
      if ('contactData' in draft.debtor) inline.set(key, draft.debtor.contactData);
    }
    const found = await tx.contacts.findByExternalClientIds(scope.organizationId, [...keys]);
    const debtors = new Map<string, ResolvedDebtor>(found.map((c: Contact) => [c.externalClientId, { contact: c, createdInline: false }]));
    for (const [key, data] of inline) {
      debtors.set(key, await upsertContact({ ...tx, ids: this.deps.ids }, data, debtors.get(key)?.contact ?? null, scope));
    }
    return debtors;
  }
}

function pairKey(externalClientId: string, productId: number): string {
  return `${productId}\u0000${externalClientId}`;
}

function debtorOf(draft: DebtDraft, debtors: Map<string, ResolvedDebtor>): ResolvedDebtor {
  const debtor = debtors.get(debtorKey(draft.debtor));
  if (!debtor) throw unknownDebtor(debtorKey(draft.debtor));
  return debtor;
}

function productOf(draft: DebtDraft, products: { byId: Map<number, Product>; byExternal: Map<string, Product> }): Product | null {
  if (!draft.product) return null;
  if ('productNumber' in draft.product) return checkUsable(products.byId.get(draft.product.productNumber));
  if ('externalProductId' in draft.product) return checkUsable(products.byExternal.get(draft.product.externalProductId));
  throw new Error('batch items reference products by id or externalProductId only');
}

function byKey(debts: DebtView[]): Map<string, DebtView> {
  return new Map(debts.map((d) => [d.externalRequestId, d]));
}

/** The value, or the DomainError that stopped it (anything else is thrown). */
function attempt<T>(work: () => T): T | DomainError {
  try {
    return work();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
}
