import type { Contact } from '../../contacts/contact';
import type { DebtView } from '../../../ports/debt-repository';
import type { IdGenerator } from '../../../ports/id-generator';
import type { Repositories, UnitOfWork } from '../../../ports/unit-of-work';
import type { Product } from '../../products/product';
import { ConflictError, DomainError } from '../../shared/errors';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import type { ContactData, DebtDraft } from '../debt-draft';
import { newDebt } from '../new-debt';
import { type ResolvedDebtor, unknownDebtor, upsertContact } from '../resolve-debtor';
import { checkUsable } from '../resolve-product';

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
 * externalRequestId exists returns that debt. Debtors and products are read once per batch
 * (one query per kind), and every new debt is written by one multi-row insert that skips keys
 * a concurrent request took, so retries and races create each debt exactly once.
 */
export class CreateDebtBatch {
  constructor(private readonly deps: { uow: UnitOfWork; repos: Repositories; ids: IdGenerator }) {
    requireDeps('CreateDebtBatch', deps);
  }

  async execute(items: BatchItem[], scope: TenantScope): Promise<BatchResult> {
    const { repos } = this.deps;
    const companyId = scope.company.id;
    const batchId = 'bat_' + this.deps.ids.alphanumeric(20);
    const keys = items.map((i) => i.externalRequestId);
    const stored = byKey(await repos.debts.findByExternalRequestIds(companyId, keys));
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

    const write = () => this.deps.uow.run(async (tx) => {
      for (const item of viable) errors.delete(item.externalRequestId);
      const debtors = await this.debtors(tx, viable, scope);
      const rows = [];
      for (const item of viable) {
        const debtor = attempt(() => debtorOf(item.draft, debtors));
        if (debtor instanceof DomainError) {
          errors.set(item.externalRequestId, debtor);
          continue;
        }
        const product = productOfItem.get(item.externalRequestId)!;
        rows.push(newDebt(item.draft, { externalRequestId: item.externalRequestId, batchId, ...debtor, product }, scope));
      }
      await tx.debts.insertMissing(rows);
    });
    // A concurrent request created one of the inline contacts first: run again, it now exists.
    await write().catch((error) => (error instanceof ConflictError ? write() : Promise.reject(error)));

    const written = byKey(await repos.debts.findByExternalRequestIds(companyId, fresh.map((i) => i.externalRequestId)));
    const outcomes = items.map((item): BatchOutcome => {
      const error = errors.get(item.externalRequestId);
      if (error) return { error };
      return { debt: stored.get(item.externalRequestId) ?? written.get(item.externalRequestId)! };
    });
    return { batchId, outcomes };
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
      const key = debtorKey(draft);
      keys.add(key);
      if ('contactData' in draft.debtor) inline.set(key, draft.debtor.contactData);
    }
    const found = await tx.contacts.findByExternalClientIds(scope.organizationId, [...keys]);
    const debtors = new Map<string, ResolvedDebtor>(found.map((c: Contact) => [c.externalClientId, { contact: c, createdInline: false }]));
    for (const [key, data] of inline) {
      debtors.set(key, await upsertContact({ contacts: tx.contacts, ids: this.deps.ids }, data, debtors.get(key)?.contact ?? null, scope));
    }
    return debtors;
  }
}

function debtorKey(draft: DebtDraft): string {
  return ('externalClientId' in draft.debtor ? draft.debtor.externalClientId : draft.debtor.contactData.externalClientId).trim();
}

function debtorOf(draft: DebtDraft, debtors: Map<string, ResolvedDebtor>): ResolvedDebtor {
  const debtor = debtors.get(debtorKey(draft));
  if (!debtor) throw unknownDebtor(debtorKey(draft));
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
