import type { Clock } from '../../ports/clock';
import type { DebtView, NewDebt } from '../../ports/debt-repository';
import type { IdGenerator } from '../../ports/id-generator';
import type { Job, JobQueue } from '../../ports/job-queue';
import type { Repositories, UnitOfWork } from '../../ports/unit-of-work';
import type { Contact } from '../contacts/contact';
import { adhesionRequestJob, emitAdhesionRequests, newAdhesionJobId, productGroup } from '../direct-debit/adhesion-requests';
import { autopayAfterEmission, type AutopayVerdict } from '../direct-debit/autopay';
import { autopayVerdicts, needsDefaultMethod } from '../direct-debit/autopay-verdicts';
import { eventOf } from '../events/domain-event';
import type { Product } from '../products/product';
import { ConflictError, DomainError } from '../shared/errors';
import type { TenantScope } from '../shared/tenant-scope';
import type { ContactData, DebtDraft } from './debt-draft';
import { newDebt, viewOf } from './new-debt';
import { debtorKey, type ResolvedDebtor, unknownDebtor, upsertContact } from './resolve-debtor';
import { checkUsable } from './resolve-product';
import { withdrawnAutopay } from './withdrawn-autopay';

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

/** A write that keeps meeting concurrent inserts of the same keys gives up after this many runs. */
const MAX_RUNS = 5;

type Deps = { uow: UnitOfWork; repos: Repositories; queue: JobQueue; clock: Clock; ids: IdGenerator };

/** One adhesion request per user and product of a write. */
type AdhesionRequests = Map<string, Required<Job> & { productId: number }>;

interface Resolution {
  errors: Map<string, DomainError>;
  productOfItem: Map<string, Product | null>;
  viable: DebtWriteItem[];
  verdicts: (AutopayVerdict | null)[];
  requests: AdhesionRequests;
}

/**
 * Creates debts of one company: the one code path behind POST /v2/debts (single and batch) and
 * legacy POST /debts. Items succeed or fail independently; products, debtors and default payment
 * methods are read once for all items (one query per kind), every new debt is written by one
 * multi-row insert with its debt.created event in the same transaction, and direct debit is
 * evaluated once per user and product, with one adhesion request for each.
 */
export class DebtWriter {
  constructor(private readonly deps: Deps) {}

  /** One outcome per item, in order. Items must belong to one company and have distinct keys. */
  async write(items: DebtWriteItem[], mode: DebtWriteMode): Promise<DebtWriteOutcome[]> {
    if (items.length === 0) return [];
    let stored = mode.kind === 'batch' ? await this.stored(items) : new Map<string, DebtView>();
    for (let run = 1; ; run++) {
      try {
        return await this.run(items, stored, mode);
      } catch (error) {
        // A concurrent request took one of the keys, or created one of the inline contacts,
        // first: run again; it now reads as stored.
        if (!(error instanceof ConflictError) || run >= MAX_RUNS) throw error;
        stored = await this.stored(items);
      }
    }
  }

  private async run(items: DebtWriteItem[], stored: Map<string, DebtView>, mode: DebtWriteMode): Promise<DebtWriteOutcome[]> {
    const fresh = items.filter((i) => !stored.has(i.externalRequestId));
    const resolution = await this.resolve(fresh);
    const written = await this.deps.uow.run((tx) => this.insert(tx, resolution, mode));
    const emitted = await this.emit(written, resolution);
    if (mode.kind === 'single' && resolution.errors.size > 0) {
      // A replay answers what was created, whatever the body now says: the stored debt wins
      // over any failure of this body (unknown debtor, missing product).
      for (const debt of (await this.stored(items.filter((i) => resolution.errors.has(i.externalRequestId)))).values()) {
        resolution.errors.delete(debt.externalRequestId);
        stored.set(debt.externalRequestId, debt);
      }
    }
    return items.map((item): DebtWriteOutcome => {
      const key = item.externalRequestId;
      const error = resolution.errors.get(key);
      if (error) return { error };
      const debt = stored.get(key);
      return debt ? { debt, created: false } : emitted.get(key)!;
    });
  }

  /** Products (an item failing on its product writes nothing, not even its inline contact) and direct-debit verdicts. */
  private async resolve(fresh: DebtWriteItem[]): Promise<Resolution> {
    const products = await this.products(fresh);
    const errors = new Map<string, DomainError>();
    const productOfItem = new Map<string, Product | null>();
    for (const item of fresh) {
      const outcome = item.product !== undefined ? item.product : attempt(() => productOf(item.draft, products));
      if (outcome instanceof DomainError) errors.set(item.externalRequestId, outcome);
      else productOfItem.set(item.externalRequestId, outcome);
    }
    const viable = fresh.filter((i) => productOfItem.has(i.externalRequestId));
    const verdicts = await this.verdicts(viable, productOfItem);
    return { errors, productOfItem, viable, verdicts, requests: this.adhesionRequests(viable, verdicts, productOfItem) };
  }

  /** The new debts, their debt.created events and adhesion requests, in the caller's transaction. */
  private async insert(tx: Repositories, resolution: Resolution, mode: DebtWriteMode): Promise<Map<string, DebtWriteOutcome & { debt: DebtView }>> {
    const { viable, verdicts, productOfItem, requests, errors } = resolution;
    const debtors = await this.debtors(tx, viable);
    const rows: NewDebt[] = [];
    const parts = new Map<string, { debtor: ResolvedDebtor; product: Product | null; verdict: AutopayVerdict | null; scope: TenantScope }>();
    const batchId = mode.kind === 'batch' ? mode.batchId : null;
    const asking = new Set<string>();
    viable.forEach((item, index) => {
      const debtor = debtors(item);
      if (debtor instanceof DomainError) {
        errors.set(item.externalRequestId, debtor);
        return;
      }
      const product = productOfItem.get(item.externalRequestId)!;
      const verdict = verdicts[index]!;
      parts.set(item.externalRequestId, { debtor, product, verdict, scope: item.scope });
      if (product && verdict && 'eligible' in verdict) asking.add(pairKey(debtorKey(item.draft.debtor), product.id));
      rows.push(newDebt(item.draft, { externalRequestId: item.externalRequestId, batchId, ...debtor, product, autopay: verdict }, item.scope));
    });
    // Only the debts written ask for adhesion (a user with a method but no contact gets none).
    for (const key of requests.keys()) if (!asking.has(key)) requests.delete(key);
    const out = new Map<string, DebtWriteOutcome & { debt: DebtView }>();
    if (rows.length === 0) return out;
    if (mode.kind === 'batch') {
      await tx.debts.insertMissing(rows);
      // What this batch wrote carries its batchId; a key a concurrent request took carries another.
      const all = await tx.debts.findByExternalRequestIds(rows[0]!.companyId, rows.map((r) => r.externalRequestId));
      for (const debt of all) out.set(debt.externalRequestId, { debt, created: debt.batchId === batchId });
    } else {
      for (const debt of await tx.debts.insertAll(rows)) {
        const { debtor, product, verdict } = parts.get(debt.externalRequestId)!;
        const instrument = verdict && 'eligible' in verdict ? verdict.eligible : null;
        out.set(debt.externalRequestId, { debt: viewOf(debt, debtor.contact, product, instrument), created: true });
      }
    }
    for (const request of requests.values()) await tx.outbox.add(request, rows[0]!.createdAt, { group: productGroup(request.productId) });
    const created = [...out.values()].filter((o) => o.created);
    await tx.events.append(created.map(({ debt }) => eventOf(parts.get(debt.externalRequestId)!.scope, 'debt.created', { kind: 'debt', debt }, debt.createdAt)));
    return out;
  }

  private async stored(items: DebtWriteItem[]): Promise<Map<string, DebtView>> {
    if (items.length === 0) return new Map();
    const debts = await this.deps.repos.debts.findByExternalRequestIds(
      items[0]!.scope.company.id,
      items.map((i) => i.externalRequestId),
    );
    return new Map(debts.map((d) => [d.externalRequestId, d]));
  }

  /**
   * Verdicts of the items that ask for one (v2 always; legacy only with autopay), users read once.
   * An item that does not ask has no verdict, unless it has no product: NO_PRODUCT is true of it
   * whether or not it asked ("debt has no product, so it is not evaluated").
   */
  private async verdicts(items: DebtWriteItem[], productOfItem: Map<string, Product | null>): Promise<(AutopayVerdict | null)[]> {
    const evaluated = items.filter((i) => i.draft.evaluateAutopay || !productOfItem.get(i.externalRequestId));
    if (evaluated.length === 0) return items.map(() => null);
    const verdicts = await autopayVerdicts(
      this.deps.repos.paymentMethods,
      evaluated[0]!.scope.company,
      evaluated.map((i) => ({ externalClientId: debtorKey(i.draft.debtor), product: productOfItem.get(i.externalRequestId)! })),
    );
    const byKey = new Map(evaluated.map((item, index) => [item.externalRequestId, verdicts[index]!]));
    return items.map((i) => byKey.get(i.externalRequestId) ?? null);
  }

  private adhesionRequests(items: DebtWriteItem[], verdicts: (AutopayVerdict | null)[], productOfItem: Map<string, Product | null>): AdhesionRequests {
    const requests: AdhesionRequests = new Map();
    items.forEach((item, index) => {
      const verdict = verdicts[index];
      const product = productOfItem.get(item.externalRequestId);
      if (!verdict || !('eligible' in verdict) || !product) return;
      const user = debtorKey(item.draft.debtor);
      const key = pairKey(user, product.id);
      if (requests.has(key)) return;
      const request = { companyId: item.scope.company.id, externalClientId: user, productId: product.id, paymentMethodId: verdict.eligible.id };
      requests.set(key, { ...adhesionRequestJob(request, newAdhesionJobId(this.deps.ids)), productId: product.id });
    });
    return requests;
  }

  /**
   * After the commit: emits each product's adhesion requests; the debts whose request could not
   * go out answer, and keep, ADHESION_EVENT_FAILED.
   */
  private async emit(written: Map<string, DebtWriteOutcome & { debt: DebtView }>, resolution: Resolution): Promise<Map<string, DebtWriteOutcome & { debt: DebtView }>> {
    const scope = resolution.viable[0]?.scope;
    if (!scope || !needsDefaultMethod(scope.company, true)) return written;
    const { requests } = resolution;
    const productIds = new Set([...resolution.productOfItem.values()].flatMap((p) => (p ? [p.id] : [])));
    const failed = new Set<string>();
    for (const productId of productIds) {
      const own = [...requests.values()].filter((r) => r.productId === productId).map((r) => r.jobId);
      const emitted = await emitAdhesionRequests({ ...this.deps, outbox: this.deps.repos.outbox }, productId, own).catch(() => new Set<string>());
      for (const [key, request] of requests) if (request.productId === productId && !emitted.has(request.jobId)) failed.add(key);
    }
    // Step 6 of the evaluation: the debts written with autopay true keep it only if their
    // adhesion request went out.
    const verdictOf = new Map(resolution.viable.map((item, index) => [item.externalRequestId, resolution.verdicts[index]]));
    const withdrawn = [...written.values()].flatMap(({ debt, created }) => {
      const verdict = verdictOf.get(debt.externalRequestId);
      if (!created || !debt.autopay || !verdict || !debt.contact || debt.productId === null) return [];
      const outcome = autopayAfterEmission(verdict, !failed.has(pairKey(debt.contact.externalClientId, debt.productId)));
      return outcome.autopay ? [] : [{ debt, reason: outcome.reason }];
    });
    if (withdrawn.length === 0) return written;
    // One reason for them all: ADHESION_EVENT_FAILED is the only way step 6 says no.
    await this.deps.repos.debts.withdrawAutopay(scope.company.id, withdrawn.map((o) => o.debt.id), withdrawn[0]!.reason, scope.clock.now());
    for (const { debt } of withdrawn) written.set(debt.externalRequestId, { debt: withdrawnAutopay(debt), created: true });
    return written;
  }

  /** Every product the items reference, in at most two queries. */
  private async products(items: DebtWriteItem[]) {
    const numbers = new Set<number>();
    const external = new Set<string>();
    for (const { draft, product } of items) {
      if (product !== undefined || !draft.product) continue;
      if ('productNumber' in draft.product) numbers.add(draft.product.productNumber);
      if ('externalProductId' in draft.product) external.add(draft.product.externalProductId);
    }
    const companyId = items[0]?.scope.company.id ?? 0;
    const { products } = this.deps.repos;
    const [byId, byExternal] = await Promise.all([
      numbers.size > 0 ? products.findByIds(companyId, [...numbers]) : [],
      external.size > 0 ? products.findByExternalProductIds(companyId, [...external]) : [],
    ]);
    return { byId: new Map(byId.map((p) => [p.id, p])), byExternal: new Map(byExternal.map((p) => [p.externalProductId!, p])) };
  }

  /**
   * Every debtor, read in one query. Each request's contactData is written once per contact (the
   * last one it sent wins), requests in the order they came: the first creates the contact
   * (`createdInline` for that request's debts), later ones update it.
   */
  private async debtors(tx: Repositories, items: DebtWriteItem[]): Promise<(item: DebtWriteItem) => ResolvedDebtor | DomainError> {
    const keys = new Set<string>();
    const inline = new Map<TenantScope, Map<string, ContactData>>();
    for (const { draft, scope } of items) {
      const key = debtorKey(draft.debtor);
      keys.add(key);
      if (!('contactData' in draft.debtor)) continue;
      if (!inline.has(scope)) inline.set(scope, new Map());
      inline.get(scope)!.set(key, draft.debtor.contactData);
    }
    const organizationId = items[0]?.scope.organizationId ?? 0;
    const found = keys.size > 0 ? await tx.contacts.findByExternalClientIds(organizationId, [...keys]) : [];
    const latest = new Map<string, Contact>(found.map((c) => [c.externalClientId, c]));
    const written = new Map<TenantScope, Map<string, ResolvedDebtor>>();
    for (const [scope, contacts] of inline) {
      const mine = new Map<string, ResolvedDebtor>();
      for (const [key, data] of contacts) {
        const resolved = await upsertContact({ ...tx, ids: this.deps.ids }, data, latest.get(key) ?? null, scope);
        latest.set(key, resolved.contact);
        mine.set(key, resolved);
      }
      written.set(scope, mine);
    }
    return (item) => {
      const key = debtorKey(item.draft.debtor);
      const own = written.get(item.scope)?.get(key);
      if (own) return own;
      const contact = latest.get(key);
      return contact ? { contact, createdInline: false } : unknownDebtor(key);
    };
  }
}

function pairKey(externalClientId: string, productId: number): string {
  return `${productId}\u0000${externalClientId}`;
}

function productOf(draft: DebtDraft, products: { byId: Map<number, Product>; byExternal: Map<string, Product> }): Product | null {
  if (!draft.product) return null;
  if ('productNumber' in draft.product) return checkUsable(products.byId.get(draft.product.productNumber));
  if ('externalProductId' in draft.product) return checkUsable(products.byExternal.get(draft.product.externalProductId));
  throw new Error('a productName is resolved before the write (legacy contract)');
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
