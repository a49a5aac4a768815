import type { Knex } from 'knex';
import type { AutopayReason, Debt, DebtStatus, PaymentMethod } from '../../../internal/debts/debt';
import type { Currency } from '../../../internal/shared/currency';
import { type Page, type PageRequest } from '../../../internal/shared/page';
import type { DebitScope, DebtChanges, DebtFilter, DebtRepository, DebtView, ListedDebt, NewDebt } from '../../../ports/debt-repository';
import { PAYMENT_METHOD_COLUMNS, toPaymentMethod } from './knex-payment-method-repository';
import { addToTally, DEBT_TALLY, isLive, liveByCompanyAndStatus, moveInTally, tallyTotal } from './tallies';
import { sqlDialect } from './dialect';
import { endsInSpace, insertedIdOrConflict, lookUp, withoutTrailingSpaces } from './shared-transaction';
import { ownRowsByKey } from './read-batches';
import { lockRowId, transitionRows, transitionRowsFrom } from './row-lock';
import { translatingDuplicates } from './driver-errors';
import { bool, fromMillis, toMillis } from './rows/columns';
import { inTransaction } from './in-transaction';
import { flushDeferredWrites } from './deferred-writes';
import { compiledRead, type PageValues, pageValues, paged } from './compiled-reads';
import { debtorId, type DebtorValues, debtorValues } from './debtor-filter';

type Row = Record<string, any>;

/** What the embedded contact and product show. */
const EMBEDDED = ['c.code as contact_code', 'c.external_client_id as contact_external_client_id', 'p.name as product_name', 'p.active as product_active'];

/** Debt columns plus what the embedded contact, product and payment method show, in one joined read. */
const SELECT = ['d.*', ...EMBEDDED, ...PAYMENT_METHOD_COLUMNS.map((c) => `pm.${c} as pm_${c}`)];

/**
 * A page's columns (ListedDebt): what a list presents, no payment method (nor its join). Two
 * fifths of the columns a page read before were never shown, most of them NULL: 40 → 22 columns,
 * about a sixth less CPU in the driver and in MariaDB for a page of 50 (docs/performance.md).
 */
const LISTED = [
  'd.id',
  'd.company_id',
  'd.external_request_id',
  'd.batch_id',
  'd.contact_id',
  'd.contact_created_inline',
  'd.product_id',
  'd.status',
  'd.amount_cents',
  'd.amount_paid_cents',
  'd.currency',
  'd.due_date',
  'd.allow_overdue_payment',
  'd.allow_partial_payments',
  'd.description',
  'd.additional_data',
  'd.payment_methods',
  'd.created_at',
  ...EMBEDDED,
];

export class KnexDebtRepository implements DebtRepository {
  constructor(private readonly db: Knex | Knex.Transaction) {}

  async insert(debt: NewDebt): Promise<Debt> {
    return inTransaction(this.db, async (trx) => {
      const id = await insertedIdOrConflict(trx, 'Debt', 'debts', toRow(debt));
      if (isLive(debt.status)) await addToTally(trx, DEBT_TALLY, debt.companyId, 1, debt.status);
      return { ...debt, id: Number(id) };
    });
  }

  async insertAll(debts: NewDebt[]): Promise<Debt[]> {
    if (debts.length === 0) return [];
    if (debts.length === 1) return [await this.insert(debts[0]!)];
    return inTransaction(this.db, (trx) => new KnexDebtRepository(trx).insertRows(debts));
  }

  /** insertAll of two debts or more, in the caller's transaction. */
  private async insertRows(debts: NewDebt[]): Promise<Debt[]> {
    // One multi-row INSERT, rows in key order so that two statements with overlapping keys lock
    // them in the same order (one then fails on the duplicate instead of both deadlocking).
    const sorted = [...debts].sort((a, b) => (a.externalRequestId < b.externalRequestId ? -1 : a.externalRequestId > b.externalRequestId ? 1 : 0));
    const inserted = await translatingDuplicates(this.db, 'Debt', (db) => sqlDialect(db).insertedIds(db, db('debts').insert(sorted.map(toRow)), sorted.length));
    const ids = new Map<string, number>();
    if (inserted !== null) {
      sorted.forEach((debt, i) => ids.set(debt.externalRequestId, inserted[i]!));
    } else {
      const rows: { id: number; external_request_id: string }[] = await this.db('debts')
        .where('company_id', debts[0]!.companyId)
        .whereIn('external_request_id', sorted.map((d) => d.externalRequestId))
        .select('id', 'external_request_id');
      for (const r of rows) ids.set(r.external_request_id, Number(r.id));
    }
    for (const { companyId, status, live } of liveByCompanyAndStatus(sorted.map(toRow))) await addToTally(this.db, DEBT_TALLY, companyId, live, status);
    return debts.map((debt) => ({ ...debt, id: ids.get(debt.externalRequestId)! }));
  }

  async insertMissing(debts: NewDebt[]): Promise<number> {
    if (debts.length === 0) return 0;
    return inTransaction(this.db, async (trx) => {
      let total = 0;
      // Per company and status, so that the rows the statement really inserted are the tally's.
      const groups = new Map<string, Row[]>();
      for (const row of debts.map(toRow)) {
        const key = `${row.company_id} ${row.status}`;
        const group = groups.get(key);
        if (group) group.push(row);
        else groups.set(key, [row]);
      }
      for (const rows of groups.values()) {
        const inserted = await sqlDialect(trx).insertSkippingTaken(trx, 'debts', rows, ['company_id', 'external_request_id']);
        if (isLive(rows[0]!.status)) await addToTally(trx, DEBT_TALLY, rows[0]!.company_id, inserted, rows[0]!.status);
        total += inserted;
      }
      return total;
    });
  }

  async idsByExternalRequestId(companyId: number, externalRequestIds: string[]): Promise<Map<string, number>> {
    if (externalRequestIds.length === 0) return new Map();
    const rows: { id: number | string; external_request_id: string }[] = await this.db('debts')
      .where('company_id', companyId)
      .whereIn('external_request_id', externalRequestIds)
      .select('id', 'external_request_id');
    return new Map(rows.map((r) => [r.external_request_id, Number(r.id)]));
  }

  findByExternalRequestId(companyId: number, externalRequestId: string): Promise<DebtView | null> {
    // With the reads of the same moment (lookUp).
    if (endsInSpace(externalRequestId)) return this.first({ 'd.company_id': companyId, 'd.external_request_id': externalRequestId });
    return lookUp(this.db, `debts of ${companyId}`, externalRequestId, async (keys, db) => {
      const found = await new KnexDebtRepository(db).findByExternalRequestIds(companyId, keys);
      return new Map(found.map((debt) => [withoutTrailingSpaces(debt.externalRequestId), debt]));
    });
  }

  findById(companyId: number, id: number): Promise<DebtView | null> {
    // With the reads of the same moment, or of the shared transaction (lookUp): a group of reminders' finishes reads its debts in one SELECT.
    // By the primary key alone, the company's rows kept in code (read-batches.ts: "Plans").
    return lookUp(this.db, `debts of ${companyId} by id`, String(id), async (keys, db) => ownRowsByKey(await views(db).whereIn('d.id', keys.map(Number)), 'company_id', companyId, 'id', toView));
  }

  async findByExternalRequestIds(companyId: number, externalRequestIds: string[]): Promise<DebtView[]> {
    if (externalRequestIds.length === 0) return [];
    const rows = await this.select().where('d.company_id', companyId).whereIn('d.external_request_id', externalRequestIds);
    return rows.map(toView);
  }

  async lockByExternalRequestId(companyId: number, externalRequestId: string): Promise<DebtView | null> {
    const id = await lockRowId(this.db, 'debts', { company_id: companyId, external_request_id: externalRequestId });
    return id === null ? null : this.first({ 'd.id': id });
  }

  lockById(companyId: number, id: number): Promise<DebtView | null> {
    // The row locked (the debts table's alone, not the joined ones), then read: in a shared transaction with the other
    // works' (lookUp), a group of reminders' claims locks its debts in one statement, in the primary key's order. By
    // the primary key alone, the company's rows kept in code (read-batches.ts: "Plans").
    return lookUp(this.db, `debts of ${companyId} locked by id`, String(id), async (keys, db) => {
      const locked: Row[] = await sqlDialect(db).lockRows(db('debts').whereIn('id', keys.map(Number)).select('id').orderBy('id'));
      if (locked.length === 0) return new Map();
      return ownRowsByKey(await views(db).whereIn('d.id', locked.map((row) => Number(row.id))), 'company_id', companyId, 'id', toView);
    });
  }

  async update(companyId: number, id: number, changes: DebtChanges): Promise<DebtView> {
    const patch: Row = { updated_at: toMillis(changes.updatedAt) };
    if (changes.amountCents !== undefined) patch.amount_cents = changes.amountCents;
    if (changes.dueDate !== undefined) patch.due_date = changes.dueDate;
    if (changes.status !== undefined) patch.status = changes.status;
    if (changes.amountPaidCents !== undefined) patch.amount_paid_cents = changes.amountPaidCents;
    return inTransaction(this.db, async (trx) => {
      const repo = new KnexDebtRepository(trx);
      // Read under the row's lock: two transactions changing the status at once count it once.
      const before = changes.status === undefined ? undefined : await sqlDialect(trx).lockRows(trx('debts').where({ company_id: companyId, id }).first('status'));
      await trx('debts').where({ company_id: companyId, id }).update(patch);
      if (before && changes.status !== undefined && changes.status !== before.status) {
        if (isLive(before.status)) await addToTally(trx, DEBT_TALLY, companyId, -1, before.status);
        if (isLive(changes.status)) await addToTally(trx, DEBT_TALLY, companyId, 1, changes.status);
      }
      const view = await repo.first({ 'd.company_id': companyId, 'd.id': id });
      if (!view) throw new Error(`debt ${id} vanished`);
      return view;
    });
  }

  async recordPayment(debtId: number, amountCents: number, source: string, at: Date): Promise<void> {
    await this.db('debt_payments').insert({ debt_id: debtId, amount_cents: amountCents, source, created_at: toMillis(at) });
  }

  async list(companyId: number, filter: DebtFilter, page: PageRequest): Promise<Page<ListedDebt>> {
    const { status, today, debtor, ...narrowing } = filter;
    const values: DebtPageValues = { companyId, ...pageValues(page), ...narrowing, ...debtorValues(debtor) };
    if (status === 'OVERDUE') {
      values.overdueBy = today;
      values.reach = (values.offset ?? 0) + page.limit;
    } else if (status === 'PENDING') values.pendingOn = today;
    else values.status = status;
    // A read in the transaction that wrote sees its own writes (flushDeferredWrites).
    if (isTallied(values)) await flushDeferredWrites(this.db);
    const rows = await debtPage<Row>(this.db, values);
    const sign = lapsedSign(values);
    let count = 0;
    if (rows.length > 0) count = Number(rows[0]!.page_total ?? 0) + sign * Number(rows[0]!.page_lapsed ?? 0);
    else if (values.offset !== undefined) {
      const read = async (query: Knex.QueryBuilder) => Number(((await query) as { n: number | string | null }[])[0]?.n ?? 0);
      count = (await read(debtTotal(this.db, values))) + (sign === 0 ? 0 : sign * (await read(pendingPastDue(this.db, values))));
    }
    return { items: rows.map(toListed), total: count, capped: false };
  }

  async cancelUnpaidOfSubscription(subscriptionId: number, at: Date): Promise<DebtView[]> {
    const cancelled = await transitionRowsFrom(
      this.db, 'debts', { subscription_id: subscriptionId }, (q) => q.whereIn('status', ['PENDING', 'OVERDUE']), { status: 'CANCELLED', updated_at: toMillis(at) }, ['company_id', 'status'],
    );
    if (cancelled.length === 0) return [];
    const views = (await this.select().whereIn('d.id', cancelled.map((row) => row.id)).orderBy('d.id')).map(toView);
    // PENDING and OVERDUE were live; CANCELLED is not.
    for (const { companyId, status, live } of liveByCompanyAndStatus(cancelled)) await addToTally(this.db, DEBT_TALLY, companyId, -live, status);
    return views;
  }

  async liveDueDatesOfSubscription(subscriptionId: number): Promise<string[]> {
    const rows = await this.db('debts').where({ subscription_id: subscriptionId }).whereNot('status', 'CANCELLED').distinct('due_date');
    return rows.map((r: { due_date: string }) => r.due_date);
  }

  async openOfSubscription(subscriptionId: number): Promise<DebtView[]> {
    const rows = await this.select()
      .where('d.subscription_id', subscriptionId)
      .whereNotIn('d.status', ['PAID', 'CANCELLED'])
      .orderBy([{ column: 'd.due_date' }, { column: 'd.id' }]);
    return rows.map(toView);
  }

  async dueForDebit(scope: DebitScope, limit: number): Promise<DebtView[]> {
    const query = this.select()
      .join('adhesions as a', (on) =>
        on.on('a.company_id', 'd.company_id').andOn('a.external_client_id', 'c.external_client_id').andOn('a.product_id', 'd.product_id'),
      )
      .where({ 'd.organization_id': scope.organizationId, 'd.autopay': true, 'a.status': 'ACTIVE' })
      .where('d.due_date', '<=', scope.today)
      .whereIn('d.status', ['PENDING', 'OVERDUE', 'PARTIALLY_PAID'])
      // Not attempted yet, or refused with a retry due by today (retries fall after the due date).
      .where((due) =>
        due
          .whereNotExists((q) => q.select(this.db.raw('1')).from('debit_attempts as t').whereRaw('t.debt_id = d.id'))
          .orWhereExists((q) => q.select(this.db.raw('1')).from('debit_attempts as r').whereRaw('r.debt_id = d.id').where('r.retry_on', '<=', scope.today)),
      );
    if (scope.only) {
      query.where({ 'd.company_id': scope.only.companyId, 'c.external_client_id': scope.only.externalClientId, 'd.product_id': scope.only.productId });
    }
    const rows = await query.orderBy([{ column: 'd.due_date' }, { column: 'd.id' }]).limit(limit);
    return rows.map(toView);
  }

  async withdrawAutopay(companyId: number, ids: number[], reason: AutopayReason, at: Date): Promise<void> {
    if (ids.length === 0) return;
    await this.db('debts')
      .where('company_id', companyId)
      .whereIn('id', ids)
      .update({ autopay: false, autopay_reason: reason, autopay_payment_method_id: null, updated_at: toMillis(at) });
  }

  async markOverdue(organizationId: number, today: string, at: Date, limit: number): Promise<DebtView[]> {
    const ids = await transitionRows(
      this.db, 'debts', { organization_id: organizationId, status: 'PENDING' },
      (q) => q.where('due_date', '<', today), { status: 'OVERDUE', updated_at: toMillis(at) }, { limit, by: 'due_date' },
    );
    if (ids.length === 0) return [];
    const views: DebtView[] = (await this.select().whereIn('d.id', ids).orderBy('d.id')).map(toView);
    await moveInTally(this.db, DEBT_TALLY, views.map((view) => view.companyId), 'PENDING', 'OVERDUE');
    return views;
  }

  private select() {
    return views(this.db);
  }

  private async first(where: Row): Promise<DebtView | null> {
    const row = await this.select().where(where).first();
    return row ? toView(row) : null;
  }
}

/** One page of debts: the values it binds (compiled-reads.ts); a filter left out is undefined. */
interface DebtPageValues extends PageValues, Omit<DebtFilter, 'status' | 'today' | 'debtor'>, DebtorValues {
  companyId: number;
  /** Status OVERDUE: the day before which a PENDING debt's due date fell (persisted OVERDUE or PENDING past due). */
  overdueBy?: string;
  /** Status OVERDUE: how far each of its two index ranges is read (the page's offset and limit). */
  reach?: number;
  /** Status PENDING: the day its due date must not be before. */
  pendingOn?: string;
  /** Any other status. */
  status?: string;
}

/** The values that name the page rather than narrow the list. */
const NOT_NARROWING = new Set(['companyId', 'limit', 'offset']);

/** The values that narrow the list by the debts' status. */
const BY_STATUS = new Set(['overdueBy', 'reach', 'pendingOn', 'status']);

/**
 * Every debt of the company but the CANCELLED ones: nothing narrows it (any value but the page's
 * set, a filter added later included, makes the list filtered).
 */
const listsEverything = (v: DebtPageValues) => Object.entries(v).every(([name, value]) => NOT_NARROWING.has(name) || value === undefined);

/** Narrowed by nothing but a status (or nothing): the total comes from the company's debt tally. */
const isTallied = (v: DebtPageValues) => Object.entries(v).every(([name, value]) => NOT_NARROWING.has(name) || BY_STATUS.has(name) || value === undefined);

/**
 * How the PENDING debts past due (`pendingPastDue`) change a tallied status's count into the
 * effective one: OVERDUE adds them (the overdue job has not marked them yet), PENDING takes them
 * away, and the other statuses are their count as they are.
 */
const lapsedSign = (v: DebtPageValues) => (!isTallied(v) ? 0 : v.overdueBy !== undefined ? 1 : v.pendingOn !== undefined ? -1 : 0);

/**
 * The company's debts newest first along its (company_id, id) index. Left to choose, MariaDB read
 * the primary key backward through every company's debts (see debtPage).
 */
const COMPANY_INDEX = 'debts_company_id_id_index';
const alongCompanyIndex = (db: Knex | Knex.Transaction) => sqlDialect(db).alongIndex(db, 'debts', 'd', COMPANY_INDEX);

/** The values that narrow the list by the debts' amount. */
const BY_AMOUNT = new Set(['minAmountCents', 'maxAmountCents']);
const AMOUNT_INDEX = 'debts_company_id_amount_cents_status_index';

/**
 * Narrowed by an amount bound, and otherwise by a status at most (not OVERDUE, which reads two
 * ranges of its own): the page's ids come from the (company_id, amount_cents, status) index.
 */
const byAmountAlone = (v: DebtPageValues) =>
  (v.minAmountCents !== undefined || v.maxAmountCents !== undefined) &&
  v.overdueBy === undefined &&
  Object.entries(v).every(([name, value]) => NOT_NARROWING.has(name) || BY_STATUS.has(name) || BY_AMOUNT.has(name) || value === undefined);

/** The company's debts that match, `status` narrowing them by their status; `from` the debts' FROM (`d`). */
function matchingDebts(
  db: Knex | Knex.Transaction,
  v: DebtPageValues,
  status: (q: Knex.QueryBuilder) => void,
  from: string | Knex.Raw = 'debts as d',
): Knex.QueryBuilder {
  const query = db.from(from).where('d.company_id', v.companyId);
  status(query);
  if (v.createdFrom !== undefined) query.where('d.created_at', '>=', v.createdFrom);
  if (v.createdTo !== undefined) query.where('d.created_at', '<=', v.createdTo);
  if (v.minAmountCents !== undefined) query.where('d.amount_cents', '>=', v.minAmountCents);
  if (v.maxAmountCents !== undefined) query.where('d.amount_cents', '<=', v.maxAmountCents);
  if (v.debtorExternalClientId !== undefined) query.where('d.contact_id', debtorId(db, v));
  if (v.batchId !== undefined) query.where('d.batch_id', v.batchId);
  if (v.paymentLinkId !== undefined) query.where('d.payment_link_id', v.paymentLinkId);
  if (v.subscriptionId !== undefined) query.where('d.subscription_id', v.subscriptionId);
  return query;
}

/** The debts in the effective status asked for (OVERDUE: persisted, or PENDING past due), all the live ones without. */
function debtsInStatus(db: Knex | Knex.Transaction, v: DebtPageValues, from?: string | Knex.Raw): Knex.QueryBuilder {
  return matchingDebts(db, v, (q) => {
    if (v.overdueBy !== undefined) q.where((w) => w.where('d.status', 'OVERDUE').orWhere((p) => p.where('d.status', 'PENDING').where('d.due_date', '<', v.overdueBy!)));
    else if (v.pendingOn !== undefined) q.where('d.status', 'PENDING').where('d.due_date', '>=', v.pendingOn);
    else if (v.status !== undefined) q.where('d.status', v.status);
    else q.whereNot('d.status', 'CANCELLED');
  }, from);
}

/**
 * The exact total: a count of the matches, or, narrowed by nothing but a status, the company's
 * debt tally (of that status as persisted: OVERDUE and PENDING are then corrected by
 * `pendingPastDue`, see lapsedSign).
 */
function debtTotal(db: Knex | Knex.Transaction, v: DebtPageValues): Knex.QueryBuilder {
  if (!isTallied(v)) return debtsInStatus(db, v).count({ n: '*' });
  const status = v.overdueBy !== undefined ? 'OVERDUE' : v.pendingOn !== undefined ? 'PENDING' : v.status;
  return tallyTotal(db, DEBT_TALLY, v.companyId, status === undefined ? undefined : [status]);
}

/**
 * The company's PENDING debts due before the day the list reads their effective status on, which
 * the overdue job has not marked OVERDUE yet: a few, from the (company_id, status, due_date) index.
 */
function pendingPastDue(db: Knex | Knex.Transaction, v: DebtPageValues): Knex.QueryBuilder {
  return db('debts').where({ company_id: v.companyId, status: 'PENDING' }).where('due_date', '<', (v.overdueBy ?? v.pendingOn)!).count({ n: '*' });
}

/**
 * The page's ids, newest first. With a creation window, sorted once the window's range is read
 * (SqlDialect.sortedAfterRange): PostgreSQL otherwise walked the primary key from the newest debt,
 * through every debt newer than the window (164,000 rows, 41 ms, for the bench's window of 3,602
 * matches a month or two back).
 */
const newest = (db: Knex | Knex.Transaction, v: DebtPageValues, query: Knex.QueryBuilder) => {
  const window = v.createdFrom !== undefined || v.createdTo !== undefined;
  return query.select('d.id').orderBy(window ? sqlDialect(db).sortedAfterRange(db, 'd.id') : 'd.id', 'desc');
};

/**
 * The page's ids first, from the indexes alone; then only those rows are read, with the exact
 * total riding on the same statement (uncorrelated subqueries, run once: the count or the tally,
 * and for OVERDUE and PENDING the debts past due not marked yet): one round trip per list (an
 * empty page past the first asks for the total on its own). The first page of the unfiltered list
 * (and on MariaDB of a batch and of a debtor) reads its rows themselves along an index instead
 * (firstPageAlong).
 */
const debtPage = compiledRead((db, v: DebtPageValues) => {
  const columns: (string | Knex.QueryBuilder)[] = [...LISTED, debtTotal(db, v).as('page_total')];
  if (lapsedSign(v) !== 0) columns.push(pendingPastDue(db, v).as('page_lapsed'));
  if (v.offset === undefined) {
    const along = firstPageIndex(db, v);
    if (along !== undefined) return firstPageAlong(db, v, along, columns);
  }
  let ids: Knex.QueryBuilder;
  if (v.overdueBy !== undefined) {
    // Effective OVERDUE (persisted OVERDUE, or PENDING past due) is two index ranges, each read
    // newest first only as far as the page needs, then merged.
    const persisted = () => matchingDebts(db, v, (q) => q.where('d.status', 'OVERDUE'));
    const late = () => matchingDebts(db, v, (q) => q.where('d.status', 'PENDING').where('d.due_date', '<', v.overdueBy!));
    const merged = db
      .select('id')
      .from(newest(db, v, persisted()).limit(v.reach!).as('o'))
      .unionAll((u) => u.select('id').from(newest(db, v, late()).limit(v.reach!).as('l')));
    ids = paged(db.select('id').from(merged.as('u')).orderBy('id', 'desc'), v);
  } else if (listsEverything(v)) {
    // The newest of the company's debts along its (company_id, id) index, each row checked for
    // CANCELLED, as far as the page needs. Left to choose, MariaDB read the primary key backward
    // through every company's debts (772 rows for a page of 50 when the company held 5 % of the
    // table; a small company's page would read nearly all of it), or the (company_id, created_at,
    // status) index, every entry of the company, then sorted them.
    ids = paged(newest(db, v, debtsInStatus(db, v, alongCompanyIndex(db))), v);
  } else if (byAmountAlone(v)) {
    // The matches from the amount index (it holds the status and, as every InnoDB index, the id),
    // sorted for the page: the entries the total's count reads anyway, so a page costs at most
    // about twice its count. Left to choose, MariaDB walked the company's (company_id, id) index
    // newest first, reading each row to test its amount: quick while the matches are spread
    // evenly through time, and unbounded when the newest debts are out of the range, as amounts
    // that drift with prices make them. A full bench run that had added 180,000 debts of other
    // amounts to the seeded company read 8 pages a second at 430 ms each (2026-12-06). Measured
    // alone, the page statement of a company of 228,000 debts, 38,000 in the range: 45 → 18 ms
    // when they are the oldest, 7 → 15 ms when they are spread evenly (docs/performance.md).
    ids = paged(newest(db, v, debtsInStatus(db, v, sqlDialect(db).alongIndex(db, 'debts', 'd', AMOUNT_INDEX))), v);
  } else ids = paged(newest(db, v, debtsInStatus(db, v)), v);
  return withContactAndProduct(db.from(ids.as('pg')).join('debts as d', 'd.id', 'pg.id'))
    .select(columns)
    .orderBy('d.id', 'desc');
});

/** The index a batch's or a debtor's debts are read along: the key, then the id, then the status. */
const BATCH_INDEX = 'debts_company_id_batch_id_id_status_index';
const DEBTOR_INDEX = 'debts_company_id_contact_id_id_status_index';

/**
 * The index a first page reads its rows along, newest first, or undefined for the ids first
 * (debtPage): the unfiltered list (GET /debts as an integrator polls it) along the company's
 * (company_id, id) index, each row checked for CANCELLED as it is read; a batch's or a debtor's
 * debts (narrowed by nothing else) along their key's index, where the database can be held to it
 * (SqlDialect.takesIndexHints): MariaDB's CPU for a debtor's or a batch's page 12 to 20 % less
 * (docs/performance.md).
 */
function firstPageIndex(db: Knex | Knex.Transaction, v: DebtPageValues): string | undefined {
  if (listsEverything(v)) return COMPANY_INDEX;
  if (!sqlDialect(db).takesIndexHints) return undefined;
  const narrowedBy = (only: string[]) => Object.entries(v).every(([name, value]) => NOT_NARROWING.has(name) || only.includes(name) || value === undefined);
  if (v.batchId !== undefined && narrowedBy(['batchId'])) return BATCH_INDEX;
  if (v.debtorExternalClientId !== undefined && narrowedBy(['debtorOrganizationId', 'debtorExternalClientId'])) return DEBTOR_INDEX;
  return undefined;
}

/**
 * A first page read along `index` (firstPageIndex): the rows themselves, newest first, with the
 * contact and product joined to those rows alone, stopping at the page's last. Its ids first
 * (debtPage's way) read each of the page's rows twice, once for the page's ids and once for the
 * page: about a fifth of MariaDB's CPU for the unfiltered list's statement (docs/performance.md).
 * A later page keeps the ids first, which pass over the rows before it without reading them.
 */
function firstPageAlong(db: Knex | Knex.Transaction, v: DebtPageValues, index: string, columns: (string | Knex.QueryBuilder)[]): Knex.QueryBuilder {
  const rows = withContactAndProduct(debtsInStatus(db, v, sqlDialect(db).alongIndex(db, 'debts', 'd', index)));
  return paged(rows.select(columns).orderBy('d.id', 'desc'), v);
}

function joined(query: Knex.QueryBuilder): Knex.QueryBuilder {
  return withContactAndProduct(query).leftJoin('payment_methods as pm', 'pm.id', 'd.autopay_payment_method_id');
}

function withContactAndProduct(query: Knex.QueryBuilder): Knex.QueryBuilder {
  return query.leftJoin('contacts as c', 'c.id', 'd.contact_id').leftJoin('products as p', 'p.id', 'd.product_id');
}

function toRow(debt: NewDebt): Row {
  return {
    organization_id: debt.organizationId,
    company_id: debt.companyId,
    external_request_id: debt.externalRequestId,
    batch_id: debt.batchId,
    contact_id: debt.contactId,
    payment_link_id: debt.paymentLinkId ?? null,
    subscription_id: debt.subscriptionId ?? null,
    contact_created_inline: debt.contactCreatedInline,
    product_id: debt.productId,
    status: debt.status,
    amount_cents: debt.amountCents,
    amount_paid_cents: debt.amountPaidCents,
    currency: debt.currency,
    due_date: debt.dueDate,
    allow_overdue_payment: debt.allowOverduePayment,
    allow_partial_payments: debt.allowPartialPayments,
    description: debt.description,
    additional_data: debt.additionalData === null ? null : JSON.stringify(debt.additionalData),
    payment_methods: debt.paymentMethods === null ? null : JSON.stringify(debt.paymentMethods),
    autopay: debt.autopay,
    autopay_reason: debt.autopayReason,
    autopay_payment_method_id: debt.autopayPaymentMethodId,
    created_at: toMillis(debt.createdAt),
    updated_at: toMillis(debt.updatedAt),
  };
}

function toView(row: Row): DebtView {
  const methodId = row.autopay_payment_method_id ?? null;
  return {
    ...toListed(row),
    organizationId: Number(row.organization_id),
    paymentLinkId: row.payment_link_id === null || row.payment_link_id === undefined ? null : Number(row.payment_link_id),
    subscriptionId: row.subscription_id === null || row.subscription_id === undefined ? null : Number(row.subscription_id),
    autopay: bool(row.autopay),
    autopayReason: (row.autopay_reason as AutopayReason | null) ?? null,
    autopayPaymentMethodId: methodId === null ? null : Number(methodId),
    updatedAt: fromMillis(row.updated_at),
    autopayInstrument: row.pm_id === null || row.pm_id === undefined ? null : toPaymentMethod(prefixed(row, 'pm_')),
  };
}

/** A page's row (LISTED): one object, built once, as a list turns every row of a page into one. */
function toListed(row: Row): ListedDebt {
  const contactId = row.contact_id === null ? null : Number(row.contact_id);
  const productId = row.product_id === null ? null : Number(row.product_id);
  return {
    id: Number(row.id),
    companyId: Number(row.company_id),
    externalRequestId: row.external_request_id,
    batchId: row.batch_id ?? null,
    contactId,
    contactCreatedInline: bool(row.contact_created_inline),
    productId,
    status: row.status as DebtStatus,
    amountCents: Number(row.amount_cents),
    amountPaidCents: Number(row.amount_paid_cents),
    currency: row.currency as Currency,
    dueDate: row.due_date,
    allowOverduePayment: bool(row.allow_overdue_payment),
    allowPartialPayments: bool(row.allow_partial_payments),
    description: row.description ?? null,
    additionalData: row.additional_data ? JSON.parse(row.additional_data) : null,
    paymentMethods: row.payment_methods ? (JSON.parse(row.payment_methods) as PaymentMethod[]) : null,
    createdAt: fromMillis(row.created_at),
    contact: contactId === null ? null : { code: row.contact_code, externalClientId: row.contact_external_client_id },
    product: productId === null ? null : { id: productId, name: row.product_name, active: bool(row.product_active) },
  };
}

/** The columns of one joined table, read back under their own names. */
function prefixed(row: Row, prefix: string): Row {
  const out: Row = {};
  for (const [key, value] of Object.entries(row)) if (key.startsWith(prefix)) out[key.slice(prefix.length)] = value;
  return out;
}

/** The debts' views: each debt with its contact's, product's and payment method's columns. */
function views(db: Knex | Knex.Transaction): Knex.QueryBuilder {
  return joined(db('debts as d')).select(SELECT);
}
