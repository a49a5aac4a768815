import type { Job } from '../../ports/job-queue';
import { adhesionRequestJob, newAdhesionJobId } from '../direct-debit/adhesion-requests';
import type { AutopayVerdict } from '../direct-debit/autopay';
import { autopayVerdicts } from '../direct-debit/autopay-verdicts';
import type { Product } from '../products/product';
import { DomainError } from '../shared/errors';
import type { DebtDraft } from './debt-draft';
import type { DebtWriteItem, WriteDeps } from './debt-write';
import { debtorKey } from './resolve-debtor';
import { checkUsable, ProductNameUnresolved } from './resolve-product';

/**
 * The read side of a debt write, before its transaction: every product the items name (one query
 * per kind of reference), each item's direct-debit verdict (users read once) and the adhesion
 * request of each user and product it will ask for.
 */

/** One adhesion request per user and product of a write. */
export type AdhesionRequests = Map<string, Required<Job> & { productId: number }>;

export interface Resolution {
  /** Items that fail on their product: nothing of theirs is written, not even an inline contact. */
  errors: Map<string, DomainError>;
  productOfItem: Map<string, Product | null>;
  /** The items that go on to the transaction, in order; `verdicts` is by the same index. */
  viable: DebtWriteItem[];
  verdicts: (AutopayVerdict | null)[];
  requests: AdhesionRequests;
}

/** Products (an item failing on its product writes nothing, not even its inline contact) and direct-debit verdicts. */
export async function resolveDebtWrite(deps: WriteDeps, fresh: DebtWriteItem[]): Promise<Resolution> {
  const products = await productsOf(deps, fresh);
  const errors = new Map<string, DomainError>();
  const productOfItem = new Map<string, Product | null>();
  for (const item of fresh) {
    const outcome = item.product !== undefined ? item.product : attempt(() => productOf(item.draft, products));
    if (outcome instanceof DomainError) errors.set(item.externalRequestId, outcome);
    else productOfItem.set(item.externalRequestId, outcome);
  }
  const viable = fresh.filter((i) => productOfItem.has(i.externalRequestId));
  const verdicts = await verdictsOf(deps, viable, productOfItem);
  return { errors, productOfItem, viable, verdicts, requests: adhesionRequestsOf(deps, viable, verdicts, productOfItem) };
}

/**
 * Verdicts of the items that ask for one (v2 always; legacy only with autopay), users read once.
 * An item that does not ask has no verdict, unless it has no product: NO_PRODUCT is true of it
 * whether or not it asked ("debt has no product, so it is not evaluated").
 */
async function verdictsOf(deps: WriteDeps, items: DebtWriteItem[], productOfItem: Map<string, Product | null>): Promise<(AutopayVerdict | null)[]> {
  const evaluated = items.filter((i) => i.draft.evaluateAutopay || !productOfItem.get(i.externalRequestId));
  if (evaluated.length === 0) return items.map(() => null);
  const verdicts = await autopayVerdicts(
    deps.repos.paymentMethods,
    evaluated[0]!.scope.company,
    evaluated.map((i) => ({ externalClientId: debtorKey(i.draft.debtor), product: productOfItem.get(i.externalRequestId)! })),
  );
  const byKey = new Map(evaluated.map((item, index) => [item.externalRequestId, verdicts[index]!]));
  return items.map((i) => byKey.get(i.externalRequestId) ?? null);
}

function adhesionRequestsOf(deps: WriteDeps, items: DebtWriteItem[], verdicts: (AutopayVerdict | null)[], productOfItem: Map<string, Product | null>): AdhesionRequests {
  const requests: AdhesionRequests = new Map();
  items.forEach((item, index) => {
    const verdict = verdicts[index];
    const product = productOfItem.get(item.externalRequestId);
    if (!verdict || !('eligible' in verdict) || !product) return;
    const user = debtorKey(item.draft.debtor);
    const key = pairKey(user, product.id);
    if (requests.has(key)) return;
    const request = { companyId: item.scope.company.id, externalClientId: user, productId: product.id, paymentMethodId: verdict.eligible.id };
    requests.set(key, { ...adhesionRequestJob(request, newAdhesionJobId(deps.ids)), productId: product.id });
  });
  return requests;
}

/** Every product the items reference, in at most one query per kind of reference. */
async function productsOf(deps: WriteDeps, items: DebtWriteItem[]) {
  const numbers = new Set<number>();
  const external = new Set<string>();
  const names = new Set<string>();
  for (const { draft, product } of items) {
    if (product !== undefined || !draft.product) continue;
    if ('productNumber' in draft.product) numbers.add(draft.product.productNumber);
    if ('externalProductId' in draft.product) external.add(draft.product.externalProductId);
    if ('productName' in draft.product) names.add(draft.product.productName);
  }
  const companyId = items[0]?.scope.company.id ?? 0;
  const { products } = deps.repos;
  const [byId, byExternal, byName] = await Promise.all([
    numbers.size > 0 ? products.findByIds(companyId, [...numbers]) : [],
    external.size > 0 ? products.findByExternalProductIds(companyId, [...external]) : [],
    names.size > 0 ? products.findByNames(companyId, [...names]) : [],
  ]);
  return {
    byId: new Map(byId.map((p) => [p.id, p])),
    byExternal: new Map(byExternal.map((p) => [p.externalProductId!, p])),
    byName: new Map(byName.map((p) => [p.name, p])),
  };
}

/** The key of a user and product pair (one adhesion request each). */
export function pairKey(externalClientId: string, productId: number): string {
  return `${productId}\u0000${externalClientId}`;
}

function productOf(draft: DebtDraft, products: Awaited<ReturnType<typeof productsOf>>): Product | null {
  if (!draft.product) return null;
  if ('productNumber' in draft.product) return checkUsable(products.byId.get(draft.product.productNumber));
  if ('externalProductId' in draft.product) return checkUsable(products.byExternal.get(draft.product.externalProductId));
  // A legacy productName: an active product so named is used; any other the caller resolves (CreateDebt).
  const named = products.byName.get(draft.product.productName);
  if (named?.active) return named;
  throw new ProductNameUnresolved();
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
