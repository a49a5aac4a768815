import type { Knex } from 'knex';
import type { PaymentMethod } from '../../../internal/debts/debt';
import type { Currency } from '../../../internal/shared/currency';
import { type Page, type PageRequest, totalFromPage } from '../../../internal/shared/page';
import type { IntervalUnit } from '../../../internal/subscriptions/schedule';
import type { Subscription, SubscriptionStatus } from '../../../internal/subscriptions/subscription';
import type {
  NewSubscription, SubscriptionChanges, SubscriptionFilter, SubscriptionRepository, SubscriptionView,
} from '../../../ports/subscription-repository';
import { compiledRead, type PageValues, pageValues, paged } from './compiled-reads';
import { debtorId, type DebtorValues, debtorValues } from './debtor-filter';
import { flushDeferredWrites } from './deferred-writes';
import { sqlDialect } from './dialect';
import { inTransaction } from './in-transaction';
import { lockRowId, transitionRows } from './row-lock';
import { addToTally, changingStatus, moveInTally, SUBSCRIPTION_DEBTOR_TALLY, SUBSCRIPTION_TALLY, tallyTotal } from './tallies';
import { endsInSpace, insertedIdOrConflict, lookUp } from './shared-transaction';
import { ownRowsByKey } from './read-batches';
import { bool, fromMillis, toMillis } from './rows/columns';

type Row = Record<string, any>;

const SELECT = [
  's.*',
  'c.code as contact_code',
  'c.external_client_id as contact_external_client_id',
  'p.name as product_name',
  'p.active as product_active',
];

export class KnexSubscriptionRepository implements SubscriptionRepository {
  constructor(private readonly db: Knex | Knex.Transaction) {}

  async insert(subscription: NewSubscription): Promise<Subscription> {
    // The subscription and its company's tallies, of its status and of its debtor, agree (one transaction).
    return inTransaction(this.db, async (trx) => {
      const id = await insertedIdOrConflict(trx, 'Subscription', 'subscriptions', toRow(subscription));
      await addToTally(trx, SUBSCRIPTION_TALLY, subscription.companyId, 1, subscription.status);
      await addToTally(trx, SUBSCRIPTION_DEBTOR_TALLY, subscription.companyId, 1, subscription.contactId);
      return { ...subscription, id: Number(id) };
    });
  }

  findByCode(companyId: number, code: string): Promise<SubscriptionView | null> {
    // With the reads of the same moment (lookUp).
    if (endsInSpace(code)) return this.first({ 's.company_id': companyId, 's.code': code });
    return lookUp(this.db, `subscriptions of ${companyId}`, code, async (codes, db) => {
      // By the unique code alone, then the company's (read-batches.ts: "Plans").
      const rows: Row[] = await joined(db('subscriptions as s')).select(SELECT).whereIn('s.code', codes);
      return ownRowsByKey(rows, 'company_id', companyId, 'code', toView);
    });
  }

  findById(id: number): Promise<SubscriptionView | null> {
    return this.first({ 's.id': id });
  }

  findByExternalSubscriptionId(organizationId: number, externalSubscriptionId: string): Promise<SubscriptionView | null> {
    return this.first({ 's.organization_id': organizationId, 's.external_subscription_id': externalSubscriptionId });
  }

  async lockByCode(companyId: number, code: string): Promise<SubscriptionView | null> {
    const id = await lockRowId(this.db, 'subscriptions', { company_id: companyId, code });
    return id === null ? null : this.first({ 's.id': id });
  }

  async update(companyId: number, id: number, changes: SubscriptionChanges): Promise<SubscriptionView> {
    const patch: Row = { updated_at: toMillis(changes.updatedAt) };
    if (changes.amountCents !== undefined) patch.amount_cents = changes.amountCents;
    if (changes.description !== undefined) patch.description = changes.description;
    if (changes.enforcePaymentOrder !== undefined) patch.enforce_payment_order = changes.enforcePaymentOrder;
    if (changes.allowOverduePayment !== undefined) patch.allow_overdue_payment = changes.allowOverduePayment;
    if (changes.autopay !== undefined) patch.autopay = changes.autopay;
    if (changes.paymentMethods !== undefined) patch.payment_methods = changes.paymentMethods === null ? null : JSON.stringify(changes.paymentMethods);
    if (changes.additionalData !== undefined) patch.additional_data = JSON.stringify(changes.additionalData);
    if (changes.status !== undefined) patch.status = changes.status;
    if (changes.resumeCount !== undefined) patch.resume_count = changes.resumeCount;
    if (changes.status === undefined) return this.write(companyId, id, patch);
    // A status change moves the subscription from one count of the company's tally to the other.
    return changingStatus(this.db, SUBSCRIPTION_TALLY, 'subscriptions', companyId, id, (trx) => new KnexSubscriptionRepository(trx).write(companyId, id, patch));
  }

  private async write(companyId: number, id: number, patch: Row): Promise<SubscriptionView> {
    await this.db('subscriptions').where({ company_id: companyId, id }).update(patch);
    const view = await this.first({ 's.company_id': companyId, 's.id': id });
    if (!view) throw new Error(`subscription ${id} vanished`);
    return view;
  }

  async markEnded(organizationId: number, today: string, at: Date, limit: number): Promise<SubscriptionView[]> {
    // The subscriptions and their companies' tallies (ACTIVE to ENDED) agree (one transaction).
    return inTransaction(this.db, async (trx) => {
      const ids = await transitionRows(
        trx, 'subscriptions', { organization_id: organizationId, status: 'ACTIVE' },
        (q) => q.where('last_due_date', '<', today), { status: 'ENDED', updated_at: toMillis(at) }, { limit, by: 'last_due_date' },
      );
      if (ids.length === 0) return [];
      const rows = await joined(trx('subscriptions as s')).select(SELECT).whereIn('s.id', ids).orderBy('s.id');
      const views: SubscriptionView[] = rows.map(toView);
      await moveInTally(trx, SUBSCRIPTION_TALLY, views.map((view) => view.companyId), 'ACTIVE', 'ENDED');
      return views;
    });
  }

  async list(companyId: number, filter: SubscriptionFilter, page: PageRequest): Promise<Page<SubscriptionView>> {
    const values: SubscriptionPageValues = { companyId, ...pageValues(page), ...debtorValues(filter.debtor) };
    if (filter.status === 'ACTIVE') values.activeOn = filter.today;
    else if (filter.status === 'ENDED') values.endedBy = filter.today;
    else values.status = filter.status;
    // A read in the transaction that wrote sees its own writes (flushDeferredWrites).
    if (isTallied(values) || isDebtorTallied(values)) await flushDeferredWrites(this.db);
    const rows = await subscriptionPage<Row>(this.db, values);
    const lapsedSign = filter.status === 'ACTIVE' ? -1 : filter.status === 'ENDED' ? 1 : 0;
    const told = totalFromPage(page, rows.length);
    const count = async (query: Knex.QueryBuilder) => Number(((await query) as { n: number | string | null }[])[0]?.n ?? 0);
    let matches: number;
    if (told !== null) matches = told;
    else if (rows.length > 0) matches = Number(rows[0]!.page_total ?? 0) + lapsedSign * Number(rows[0]!.page_lapsed ?? 0);
    else matches = (await count(subscriptionTotal(this.db, values))) + (isTallied(values) && lapsedSign !== 0 ? lapsedSign * (await count(lapsedSubscriptions(this.db, companyId, filter.today))) : 0);
    return { items: rows.map(toView), total: matches, capped: false };
  }

  private async first(where: Row): Promise<SubscriptionView | null> {
    const row = await joined(this.db('subscriptions as s')).select(SELECT).where(where).first();
    return row ? toView(row) : null;
  }
}

/** One page of subscriptions: the values it binds (compiled-reads.ts); a filter left out is undefined. */
interface SubscriptionPageValues extends PageValues, DebtorValues {
  companyId: number;
  /** Status ACTIVE: the day (YYYY-MM-DD) its last cycle must not be before. */
  activeOn?: string;
  /** Status ENDED: the day before which an ACTIVE subscription's last cycle fell, or marked ENDED. */
  endedBy?: string;
  /** Any other status. */
  status?: string;
}

/** Filtered by nothing but a status (or nothing): the total comes from the company's subscription tally. */
const isTallied = (v: SubscriptionPageValues) => v.debtorExternalClientId === undefined;

/** Filtered by a debtor alone: the total comes from the company's tally of that debtor's subscriptions. */
const isDebtorTallied = (v: SubscriptionPageValues) =>
  v.debtorExternalClientId !== undefined && v.activeOn === undefined && v.endedBy === undefined && v.status === undefined;

function matchingSubscriptions(db: Knex | Knex.Transaction, v: SubscriptionPageValues, from: string | Knex.Raw = 'subscriptions as s'): Knex.QueryBuilder {
  const query = db.from(from).where('s.company_id', v.companyId);
  if (v.activeOn !== undefined) query.where('s.status', 'ACTIVE').where((q) => q.whereNull('s.last_due_date').orWhere('s.last_due_date', '>=', v.activeOn!));
  // Persisted by the mark-ended job, or still ACTIVE past its last cycle.
  if (v.endedBy !== undefined) query.where((q) => q.where('s.status', 'ENDED').orWhere((a) => a.where('s.status', 'ACTIVE').where('s.last_due_date', '<', v.endedBy!)));
  if (v.status !== undefined) query.where('s.status', v.status);
  if (v.debtorExternalClientId !== undefined) query.where('s.contact_id', debtorId(db, v));
  return query;
}

/** The company's ACTIVE subscriptions past their last cycle that the mark-ended job has not marked yet, from the (company_id, status, last_due_date) index. */
function lapsedSubscriptions(db: Knex | Knex.Transaction, companyId: number, today: string): Knex.QueryBuilder {
  return db('subscriptions').where({ company_id: companyId, status: 'ACTIVE' }).where('last_due_date', '<', today).count({ n: '*' });
}

/** The status's count from the tally, the debtor's from theirs, or with a debtor and a status a count of the matches. */
function subscriptionTotal(db: Knex | Knex.Transaction, v: SubscriptionPageValues): Knex.QueryBuilder {
  if (isDebtorTallied(v)) {
    return db(SUBSCRIPTION_DEBTOR_TALLY.table).where(SUBSCRIPTION_DEBTOR_TALLY.owner, v.companyId).where(SUBSCRIPTION_DEBTOR_TALLY.by!, debtorId(db, v)).sum({ n: 'live' });
  }
  if (!isTallied(v)) return matchingSubscriptions(db, v).count({ n: '*' });
  const status = v.activeOn !== undefined ? 'ACTIVE' : v.endedBy !== undefined ? 'ENDED' : v.status;
  return tallyTotal(db, SUBSCRIPTION_TALLY, v.companyId, status === undefined ? undefined : [status]);
}

/**
 * The page's ids from the subscriptions alone (on MariaDB the first page of the unfiltered list, of
 * a debtor's or of one stored status reads its rows along an index instead: firstPageIndex), along
 * the (company_id, external_subscription_id)
 * index (a debtor's along (company_id, contact_id, external_subscription_id), migration
 * 20261207210000_subscription_contact_index), then only those rows joined to their contact and
 * product: joined first, MariaDB drove the join from the contact (one debtor with many
 * subscriptions) and sorted all of them for every page. The page's ids carry their sort key
 * (`page_key`), and the 50 ids are put in order by it before the join: ordered by the joined
 * rows' own column, MariaDB wrote the joined page (its TEXT columns too) to a temporary table and
 * sorted that, a third or more of the statement's MariaDB CPU (docs/performance.md). The exact
 * total is a subquery of the same statement (uncorrelated: run once), and a page that is not full
 * tells it. Filtered by nothing but a status (or nothing), it comes from the company's
 * subscription tally: the status's count, less (ACTIVE) or plus (ENDED) the lapsed subscriptions.
 * Filtered by a debtor alone, it comes from the company's tally of that debtor's subscriptions;
 * by a debtor and a status, a count of the matches.
 */
const subscriptionPage = compiledRead((db, v: SubscriptionPageValues) => {
  const columns: (string | Knex.QueryBuilder)[] = [...SELECT, subscriptionTotal(db, v).as('page_total')];
  const lapsedOn = v.activeOn ?? v.endedBy;
  if (isTallied(v) && lapsedOn !== undefined) columns.push(lapsedSubscriptions(db, v.companyId, lapsedOn).as('page_lapsed'));
  const along = v.offset === undefined ? firstPageIndex(db, v) : undefined;
  if (along !== undefined) return firstPageAlong(db, v, along, columns);
  const ids = paged(matchingSubscriptions(db, v).select('s.id', 's.external_subscription_id as page_key').orderBy('s.external_subscription_id', 'desc'), v);
  return joined(db.from(ids.as('pg')).join('subscriptions as s', 's.id', 'pg.id'))
    .select(columns)
    .orderBy('pg.page_key', 'desc');
});

/** The indexes a first page reads its rows along: the company's subscriptions, a debtor's, and a status's, each in the list's order. */
const COMPANY_INDEX = 'subscriptions_company_id_external_subscription_id_index';
const DEBTOR_INDEX = 'subscriptions_company_contact_external_id_index';
const STATUS_INDEX = 'subscriptions_company_status_external_id_index';

/**
 * The index the first page reads its rows along, where the database can be held to it
 * (SqlDialect.takesIndexHints, MariaDB), or undefined for the ids first: the unfiltered list along
 * the company's, a debtor's subscriptions (no status) along theirs, and one status's (ACTIVE, or
 * any stored status; no debtor) along (company_id, status, external_subscription_id), migration
 * 20261208100000. ENDED, which is also ACTIVE past the last cycle, and a debtor with a status keep
 * the ids first. Any filter still applies (matchingSubscriptions): the index only chooses the way,
 * as the debts' first page does (knex-debt-repository.ts).
 */
function firstPageIndex(db: Knex | Knex.Transaction, v: SubscriptionPageValues): string | undefined {
  if (!sqlDialect(db).takesIndexHints || v.endedBy !== undefined) return undefined;
  const byStatus = v.activeOn !== undefined || v.status !== undefined;
  if (v.debtorExternalClientId !== undefined) return byStatus ? undefined : DEBTOR_INDEX;
  return byStatus ? STATUS_INDEX : COMPANY_INDEX;
}

/**
 * A first page read along `index` (firstPageIndex): the subscriptions themselves in the list's
 * order, each joined to its contact and product, stopping at the page's last. The ids first read
 * each of the page's subscriptions twice and sorted the 50 ids before the join. The joins are LEFT
 * so that MariaDB starts from the subscriptions (it cannot begin an outer join from its inner
 * table): joined inner, it drove the join from a debtor's contact and sorted all of the company's
 * subscriptions. The foreign keys give every subscription its contact and product, so the rows are
 * the same.
 */
function firstPageAlong(db: Knex | Knex.Transaction, v: SubscriptionPageValues, index: string, columns: (string | Knex.QueryBuilder)[]): Knex.QueryBuilder {
  const rows = matchingSubscriptions(db, v, sqlDialect(db).alongIndex(db, 'subscriptions', 's', index))
    .leftJoin('contacts as c', 'c.id', 's.contact_id')
    .leftJoin('products as p', 'p.id', 's.product_id');
  return paged(rows.select(columns).orderBy('s.external_subscription_id', 'desc'), v);
}

function joined(query: Knex.QueryBuilder): Knex.QueryBuilder {
  return query.join('contacts as c', 'c.id', 's.contact_id').join('products as p', 'p.id', 's.product_id');
}

function toRow(s: NewSubscription): Row {
  return {
    organization_id: s.organizationId,
    company_id: s.companyId,
    code: s.code,
    external_subscription_id: s.externalSubscriptionId,
    contact_id: s.contactId,
    contact_created_inline: s.contactCreatedInline,
    product_id: s.productId,
    product_created_inline: s.productCreatedInline,
    status: s.status,
    amount_cents: s.amountCents,
    currency: s.currency,
    interval_unit: s.schedule.intervalUnit,
    interval_count: s.schedule.intervalCount,
    start_date: s.schedule.startDate,
    total_cycles: s.schedule.totalCycles,
    end_date: s.schedule.endDate,
    billing_day: s.schedule.billingDay?.day ?? null,
    billing_month: s.schedule.billingDay?.month ?? null,
    last_due_date: s.lastDueDate,
    enforce_payment_order: s.enforcePaymentOrder,
    autopay: s.autopay,
    allow_overdue_payment: s.allowOverduePayment,
    allow_partial_payments: s.allowPartialPayments,
    payment_methods: s.paymentMethods === null ? null : JSON.stringify(s.paymentMethods),
    description: s.description,
    additional_data: s.additionalData === null ? null : JSON.stringify(s.additionalData),
    resume_count: s.resumeCount,
    created_at: toMillis(s.createdAt),
    updated_at: toMillis(s.updatedAt),
  };
}

function toView(row: Row): SubscriptionView {
  const billingDay = row.billing_day === null ? null : { day: Number(row.billing_day), ...(row.billing_month === null ? {} : { month: Number(row.billing_month) }) };
  // One object per row: a Subscription spread into its view cost a page of 50 about 0.2 ms of CPU (0.56 against 0.34 ms per page read).
  const productId = Number(row.product_id);
  return {
    id: Number(row.id),
    organizationId: Number(row.organization_id),
    companyId: Number(row.company_id),
    code: row.code,
    externalSubscriptionId: row.external_subscription_id,
    contactId: Number(row.contact_id),
    contactCreatedInline: bool(row.contact_created_inline),
    productId,
    productCreatedInline: bool(row.product_created_inline),
    status: row.status as SubscriptionStatus,
    amountCents: Number(row.amount_cents),
    currency: row.currency as Currency,
    schedule: {
      intervalUnit: row.interval_unit as IntervalUnit,
      intervalCount: Number(row.interval_count),
      startDate: row.start_date,
      totalCycles: row.total_cycles === null ? null : Number(row.total_cycles),
      endDate: row.end_date ?? null,
      billingDay,
    },
    lastDueDate: row.last_due_date ?? null,
    enforcePaymentOrder: bool(row.enforce_payment_order),
    autopay: bool(row.autopay),
    allowOverduePayment: bool(row.allow_overdue_payment),
    allowPartialPayments: bool(row.allow_partial_payments),
    paymentMethods: row.payment_methods ? (JSON.parse(row.payment_methods) as PaymentMethod[]) : null,
    description: row.description ?? null,
    additionalData: row.additional_data ? JSON.parse(row.additional_data) : null,
    resumeCount: Number(row.resume_count),
    createdAt: fromMillis(row.created_at),
    updatedAt: fromMillis(row.updated_at),
    contact: { code: row.contact_code, externalClientId: row.contact_external_client_id },
    product: { id: productId, name: row.product_name, active: bool(row.product_active) },
  };
}
