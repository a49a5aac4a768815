import type { DebtView } from '../../ports/debt-repository';
import { ConflictError } from '../shared/errors';
import { emitAdhesions } from './debt-write-emission';
import { resolveDebtWrite } from './debt-write-resolution';
import { insertDebts } from './debt-write-transaction';
import type { DebtWriteItem, DebtWriteMode, DebtWriteOutcome, WriteDeps } from './debt-write';

export type { DebtWriteItem, DebtWriteMode, DebtWriteOutcome, WriteDeps } from './debt-write';

/** A write that keeps meeting concurrent inserts of the same keys gives up after this many runs. */
const MAX_RUNS = 5;

/**
 * Creates debts of one company: the one code path behind POST /v2/debts (single and batch) and
 * legacy POST /debts. Items succeed or fail independently; products, debtors and default payment
 * methods are read once for all items (one query per kind), every new debt is written by one
 * multi-row insert with its debt.created event in the same transaction, and direct debit is
 * evaluated once per user and product, with one adhesion request for each. Three steps, a file
 * each: the reads before the transaction (debt-write-resolution.ts), the transaction
 * (debt-write-transaction.ts) and, after the commit, the adhesion requests (debt-write-emission.ts).
 */
export class DebtWriter {
  constructor(private readonly deps: WriteDeps) {}

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
    const resolution = await resolveDebtWrite(this.deps, fresh);
    const written = await this.deps.uow.run((tx) => insertDebts(this.deps, tx, resolution, mode));
    const emitted = await emitAdhesions(this.deps, written, resolution);
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

  private async stored(items: DebtWriteItem[]): Promise<Map<string, DebtView>> {
    if (items.length === 0) return new Map();
    const debts = await this.deps.repos.debts.findByExternalRequestIds(
      items[0]!.scope.company.id,
      items.map((i) => i.externalRequestId),
    );
    return new Map(debts.map((d) => [d.externalRequestId, d]));
  }
}
