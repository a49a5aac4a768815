import type { DebtView, NewDebt } from '../../ports/debt-repository';
import type { Repositories } from '../../ports/unit-of-work';
import type { Contact } from '../contacts/contact';
import type { Debt } from './debt';
import { productGroup } from '../direct-debit/adhesion-requests';
import type { AutopayVerdict } from '../direct-debit/autopay';
import { eventOf } from '../events/domain-event';
import type { Product } from '../products/product';
import { DomainError } from '../shared/errors';
import type { TenantScope } from '../shared/tenant-scope';
import type { ContactData } from './debt-draft';
import { pairKey, type Resolution } from './debt-write-resolution';
import type { DebtWriteItem, DebtWriteMode, DebtWriteOutcome, WriteDeps } from './debt-write';
import { newDebt, viewOf } from './new-debt';
import { debtorKey, type ResolvedDebtor, unknownDebtor, upsertContact } from './resolve-debtor';

/**
 * The transaction of a debt write: the debtors (read in one query, inline contacts written once
 * per request), one multi-row insert of the new debts, their debt.created events and the adhesion
 * requests of the debts written, in the caller's unit of work.
 */

/** The debts a write created or found, by externalRequestId. */
export type WrittenDebts = Map<string, DebtWriteOutcome & { debt: DebtView }>;

/** The new debts, their debt.created events and adhesion requests, in the caller's transaction. */
export async function insertDebts(deps: WriteDeps, tx: Repositories, resolution: Resolution, mode: DebtWriteMode): Promise<WrittenDebts> {
  const { viable, verdicts, productOfItem, requests, errors } = resolution;
  const debtors = await debtorsOf(deps, tx, viable);
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
  const out: WrittenDebts = new Map();
  if (rows.length === 0) return out;
  // A debt this write inserted, as it reads now, without reading it back.
  const created = (debt: Debt) => {
    const { debtor, product, verdict } = parts.get(debt.externalRequestId)!;
    const instrument = verdict && 'eligible' in verdict ? verdict.eligible : null;
    out.set(debt.externalRequestId, { debt: viewOf(debt, debtor.contact, product, instrument), created: true });
  };
  if (mode.kind === 'batch') {
    const companyId = rows[0]!.companyId;
    const keys = rows.map((r) => r.externalRequestId);
    if ((await tx.debts.insertMissing(rows)) === rows.length) {
      const ids = await tx.debts.idsByExternalRequestId(companyId, keys);
      for (const row of rows) created({ ...row, id: ids.get(row.externalRequestId)! });
    } else {
      // What this batch wrote carries its batchId; a key a concurrent request took carries another.
      for (const debt of await tx.debts.findByExternalRequestIds(companyId, keys)) out.set(debt.externalRequestId, { debt, created: debt.batchId === batchId });
    }
  } else {
    for (const debt of await tx.debts.insertAll(rows)) created(debt);
  }
  for (const request of requests.values()) await tx.outbox.add(request, rows[0]!.createdAt, { group: productGroup(request.productId) });
  const written = [...out.values()].filter((o) => o.created);
  await tx.events.append(written.map(({ debt }) => eventOf(parts.get(debt.externalRequestId)!.scope, 'debt.created', { kind: 'debt', debt }, debt.createdAt)));
  return out;
}

/**
 * Every debtor, read in one query. Each request's contactData is written once per contact (the
 * last one it sent wins), requests in the order they came: the first creates the contact
 * (`createdInline` for that request's debts), later ones update it.
 */
async function debtorsOf(deps: WriteDeps, tx: Repositories, items: DebtWriteItem[]): Promise<(item: DebtWriteItem) => ResolvedDebtor | DomainError> {
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
      const resolved = await upsertContact({ ...tx, ids: deps.ids }, data, latest.get(key) ?? null, scope);
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
