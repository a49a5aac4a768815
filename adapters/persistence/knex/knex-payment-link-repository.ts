import type { Knex } from 'knex';
import { meetsListConditions, type PaymentLink, type PaymentLinkStatus } from '../../../internal/payment-links/payment-link';
import type { Currency } from '../../../internal/shared/currency';
import { COUNT_SCAN_CAP, cappedTotal, type Page, type PageRequest, pageOfMatches, totalFromPage } from '../../../internal/shared/page';
import type {
  NewPaymentLink, PaymentLinkChanges, PaymentLinkFilter, PaymentLinkRepository, PaymentLinkView,
} from '../../../ports/payment-link-repository';
import { lockRowId, transitionRows } from './row-lock';
import { sqlDialect } from './dialect';
import { endsInSpace, insertedIdOrConflict, lookUp, withoutTrailingSpaces } from './shared-transaction';
import { ownRowsByKey } from './read-batches';
import { inTransaction } from './in-transaction';
import { compiledRead, type PageValues, pageValues, paged } from './compiled-reads';
import { flushDeferredWrites } from './deferred-writes';
import { addToTally, changingStatus, moveInTally, PAYMENT_LINK_TALLY, readTally, tallyTotal } from './tallies';
import { bool, fromMillis, fromMillisOrNull, toMillis, toMillisOrNull } from './rows/columns';

type Row = Record<string, any>;

const SELECT = ['l.*', 'p.name as product_name', 'p.active as product_active'];

export class KnexPaymentLinkRepository implements PaymentLinkRepository {
  constructor(private readonly db: Knex | Knex.Transaction) {}

  async insert(link: NewPaymentLink): Promise<PaymentLink> {
    // The link and its company's tally of its status agree (one transaction).
    return inTransaction(this.db, async (trx) => {
      const id = await insertedIdOrConflict(trx, 'Payment link', 'payment_links', toRow(link));
      await addToTally(trx, PAYMENT_LINK_TALLY, link.companyId, 1, link.status);
      return { ...link, id: Number(id) };
    });
  }

  findByCode(companyId: number, code: string): Promise<PaymentLinkView | null> {
    // With the reads of the same moment (lookUp).
    if (endsInSpace(code)) return this.first({ 'l.company_id': companyId, 'l.code': code });
    return lookUp(this.db, `payment links of ${companyId}`, code, async (codes, db) => {
      // By the unique code alone, then the company's (read-batches.ts: "Plans").
      const rows: Row[] = await views(db).whereIn('l.code', codes);
      return ownRowsByKey(rows, 'company_id', companyId, 'code', toView);
    });
  }

  findByExternalPaymentLinkId(organizationId: number, externalPaymentLinkId: string): Promise<PaymentLinkView | null> {
    // With the reads of the same moment (lookUp). The key is unique in its organization, whose index leads with it (read-batches.ts: "Plans").
    if (endsInSpace(externalPaymentLinkId)) return this.first({ 'l.organization_id': organizationId, 'l.external_payment_link_id': externalPaymentLinkId });
    return lookUp(this.db, `payment links of organization ${organizationId} by externalPaymentLinkId`, externalPaymentLinkId, async (keys, db) => {
      const rows: Row[] = await views(db).where('l.organization_id', organizationId).whereIn('l.external_payment_link_id', keys);
      return new Map(rows.map((row) => [withoutTrailingSpaces(row.external_payment_link_id), toView(row)]));
    });
  }

  lockByCode(companyId: number, code: string): Promise<PaymentLinkView | null> {
    return this.lock({ company_id: companyId, code });
  }

  lockById(companyId: number, id: number): Promise<PaymentLinkView | null> {
    return this.lock({ company_id: companyId, id });
  }

  findById(companyId: number, id: number): Promise<PaymentLinkView | null> {
    return this.first({ 'l.company_id': companyId, 'l.id': id });
  }

  findByShortCode(shortCode: string): Promise<PaymentLinkView | null> {
    return this.first({ 'l.short_code': shortCode });
  }

  async listByUrlIdentifier(companyId: number, urlIdentifier: string, limit: number): Promise<PaymentLinkView[]> {
    const rows = await views(this.db)
      .where({ 'l.company_id': companyId, 'l.url_identifier': urlIdentifier })
      .whereNull('l.short_code')
      .orderBy('l.id', 'desc')
      .limit(limit);
    return rows.map(toView);
  }

  private async lock(where: Row): Promise<PaymentLinkView | null> {
    const id = await lockRowId(this.db, 'payment_links', where);
    return id === null ? null : this.first({ 'l.id': id });
  }

  async update(companyId: number, id: number, changes: PaymentLinkChanges): Promise<PaymentLinkView> {
    const patch: Row = { updated_at: toMillis(changes.updatedAt) };
    if (changes.description !== undefined) patch.description = changes.description;
    if (changes.expiresAt !== undefined) patch.expires_at = toMillis(changes.expiresAt);
    if (changes.metadata !== undefined) patch.metadata = JSON.stringify(changes.metadata);
    if (changes.status !== undefined) patch.status = changes.status;
    if (changes.paymentsCount !== undefined) patch.payments_count = changes.paymentsCount;
    if (changes.status === undefined) return this.write(companyId, id, patch);
    // A status change moves the link from one count of the company's tally to the other.
    return changingStatus(this.db, PAYMENT_LINK_TALLY, 'payment_links', companyId, id, (trx) => new KnexPaymentLinkRepository(trx).write(companyId, id, patch));
  }

  private async write(companyId: number, id: number, patch: Row): Promise<PaymentLinkView> {
    await this.db('payment_links').where({ company_id: companyId, id }).update(patch);
    const view = await this.first({ 'l.company_id': companyId, 'l.id': id });
    if (!view) throw new Error(`payment link ${id} vanished`);
    return view;
  }

  async list(companyId: number, filter: PaymentLinkFilter, page: PageRequest): Promise<Page<PaymentLinkView>> {
    // A link's key or its code names one link at most: read by it, as GET /payment-links/{id} reads (with the
    // reads of the same moment), the rest of the filter met in code. Both at once go to the page's statement.
    if ((filter.key === undefined) !== (filter.code === undefined)) return this.pageOfOne(companyId, filter, page);
    const now = filter.now.getTime();
    const values: LinkPageValues = {
      companyId,
      ...pageValues(page),
      keyOrganizationId: filter.key?.organizationId,
      externalPaymentLinkId: filter.key?.externalPaymentLinkId,
      code: filter.code,
      createdFrom: filter.createdFrom,
      createdTo: filter.createdTo,
    };
    if (filter.status === 'ACTIVE') values.activeAt = now;
    else if (filter.status === 'EXPIRED') values.expiredAt = now;
    else values.status = filter.status;
    // A read in the transaction that wrote sees its own writes (flushDeferredWrites).
    await flushDeferredWrites(this.db);
    const rows = await linkPage<Row>(this.db, values);
    const tallied = isTallied(values);
    const lapsedSign = filter.status === 'ACTIVE' ? -1 : filter.status === 'EXPIRED' ? 1 : 0;
    const told = totalFromPage(page, rows.length);
    let matches: number;
    if (told !== null) matches = told;
    else if (tallied && rows.length > 0) matches = Number(rows[0]!.page_total ?? 0) + lapsedSign * Number(rows[0]!.page_lapsed ?? 0);
    else if (tallied) {
      const statuses = filter.status === undefined ? undefined : [filter.status];
      matches = (await readTally(this.db, PAYMENT_LINK_TALLY, companyId, statuses)) + lapsedSign * Number(((await lapsedLinks(this.db, companyId, now)) as { n: number | string }[])[0]?.n ?? 0);
    } else matches = Number((await cappedLinkCount<{ n: number | string }>(this.db, { ...values, limit: COUNT_SCAN_CAP + 1, offset: undefined }))[0]?.n ?? 0);
    return { items: rows.map(toView), ...cappedTotal(matches) };
  }

  private async pageOfOne(companyId: number, filter: PaymentLinkFilter, page: PageRequest): Promise<Page<PaymentLinkView>> {
    // The read by a key matches it as the page's statement would (on MySQL, "a" finds "a "; read-batches.ts).
    const link = filter.code !== undefined ? await this.findByCode(companyId, filter.code) : await this.findByExternalPaymentLinkId(filter.key!.organizationId, filter.key!.externalPaymentLinkId);
    return pageOfMatches(link !== null && link.companyId === companyId && meetsListConditions(link, filter) ? [link] : [], page);
  }

  async markExpired(organizationId: number, now: Date, limit: number): Promise<PaymentLinkView[]> {
    // The links and their companies' tallies (ACTIVE to EXPIRED) agree (one transaction).
    return inTransaction(this.db, async (trx) => {
      const ids = await transitionRows(
        trx, 'payment_links', { organization_id: organizationId, status: 'ACTIVE' },
        (q) => q.where('expires_at', '<=', now.getTime()), { status: 'EXPIRED', updated_at: toMillis(now) }, { limit, by: 'expires_at' },
      );
      if (ids.length === 0) return [];
      const marked: PaymentLinkView[] = (await views(trx).whereIn('l.id', ids).orderBy('l.id')).map(toView);
      await moveInTally(trx, PAYMENT_LINK_TALLY, marked.map((link) => link.companyId), 'ACTIVE', 'EXPIRED');
      return marked;
    });
  }

  private async first(where: Row): Promise<PaymentLinkView | null> {
    const row = await views(this.db).where(where).first();
    return row ? toView(row) : null;
  }
}

function toRow(link: NewPaymentLink): Row {
  return {
    organization_id: link.organizationId,
    company_id: link.companyId,
    code: link.code,
    external_payment_link_id: link.externalPaymentLinkId,
    debt_external_request_id: link.debtExternalRequestId,
    status: link.status,
    amount_cents: link.amountCents,
    currency: link.currency,
    description: link.description,
    single_use: link.singleUse,
    expires_at: toMillisOrNull(link.expiresAt),
    success_url: link.successUrl,
    metadata: link.metadata === null ? null : JSON.stringify(link.metadata),
    identifier_value: link.identifierValue,
    url_identifier: link.urlIdentifier,
    short_code: link.shortCode,
    product_id: link.productId,
    product_created_inline: link.productCreatedInline,
    contact_id: link.contactId,
    payments_count: link.paymentsCount,
    created_at: toMillis(link.createdAt),
    updated_at: toMillis(link.updatedAt),
  };
}

/** One page of links: the values it binds (compiled-reads.ts); a filter left out is undefined. */
interface LinkPageValues extends PageValues {
  companyId: number;
  /** Status ACTIVE: the instant a link's expiresAt must be after (or none). */
  activeAt?: number;
  /** Status EXPIRED: the instant by which an ACTIVE link's expiresAt has passed, or marked EXPIRED. */
  expiredAt?: number;
  /** Any other status. */
  status?: string;
  /** The key (PaymentLinkKey): both present or neither. */
  keyOrganizationId?: number;
  externalPaymentLinkId?: string;
  code?: string;
  createdFrom?: number;
  createdTo?: number;
}

/** Filtered by nothing but a status: the total comes from the company's link tally. */
const isTallied = (v: LinkPageValues) => v.externalPaymentLinkId === undefined && v.code === undefined && v.createdFrom === undefined && v.createdTo === undefined;

function matchingLinks(db: Knex | Knex.Transaction, v: LinkPageValues): Knex.QueryBuilder {
  const query = db('payment_links as l').where('l.company_id', v.companyId);
  if (v.activeAt !== undefined) query.where('l.status', 'ACTIVE').where((q) => q.whereNull('l.expires_at').orWhere('l.expires_at', '>', v.activeAt!));
  if (v.expiredAt !== undefined) query.where((q) => q.where('l.status', 'EXPIRED').orWhere((a) => a.where('l.status', 'ACTIVE').where('l.expires_at', '<=', v.expiredAt!)));
  if (v.status !== undefined) query.where('l.status', v.status);
  // The key with its organization: MariaDB reads the one link by the (organization_id,
  // external_payment_link_id) unique key while it plans, instead of ranging over the company's
  // (company_id, external_payment_link_id, id) index for it (0.06 against 0.09 ms of its CPU a
  // page, among 45,000 links of the company). The company's own condition still holds.
  if (v.externalPaymentLinkId !== undefined) query.where('l.organization_id', v.keyOrganizationId!).where('l.external_payment_link_id', v.externalPaymentLinkId);
  if (v.code !== undefined) query.where('l.code', v.code);
  if (v.createdFrom !== undefined) query.where('l.created_at', '>=', v.createdFrom);
  if (v.createdTo !== undefined) query.where('l.created_at', '<=', v.createdTo);
  return query;
}

/** The company's ACTIVE links past expiresAt at `now` that the expiry job has not marked yet, from the (company_id, status, expires_at) index. */
function lapsedLinks(db: Knex | Knex.Transaction, companyId: number, now: number): Knex.QueryBuilder {
  return db('payment_links').where({ company_id: companyId, status: 'ACTIVE' }).where('expires_at', '<=', now).count({ n: '*' });
}

/**
 * Filtered by nothing but a status, the total comes from the company's link tally, riding on the
 * page's statement (uncorrelated subqueries, run once): the status's count, less (ACTIVE) or plus
 * (EXPIRED) the lapsed links. With another filter, a page that is not full tells the total, else
 * cappedLinkCount (at most COUNT_SCAN_CAP + 1 matches).
 */
const linkPage = compiledRead((db, v: LinkPageValues) => {
  const columns: (string | Knex.QueryBuilder)[] = [...SELECT];
  if (isTallied(v)) {
    const status = v.activeAt !== undefined ? 'ACTIVE' : v.expiredAt !== undefined ? 'EXPIRED' : v.status;
    columns.push(tallyTotal(db, PAYMENT_LINK_TALLY, v.companyId, status === undefined ? undefined : [status]).as('page_total'));
    const lapsedAt = v.activeAt ?? v.expiredAt;
    if (lapsedAt !== undefined) columns.push(lapsedLinks(db, v.companyId, lapsedAt).as('page_lapsed'));
  }
  const query = matchingLinks(db, v)
    .leftJoin('products as p', 'p.id', 'l.product_id')
    .select(columns)
    // NULL sorts lowest (MySQL and SQLite do so anyway; PostgreSQL is told NULLS LAST), so links
    // without an externalPaymentLinkId come last in descending order; on MySQL the
    // (company_id, external_payment_link_id, id) index serves the sort without a filesort.
    .orderBy([sqlDialect(db).nullsLowest('l.external_payment_link_id', 'desc'), { column: 'l.id', order: 'desc' }]);
  return paged(query, v);
});

const cappedLinkCount = compiledRead((db, v: LinkPageValues) => db.count({ n: '*' }).from(paged(matchingLinks(db, v).select('l.id'), v).as('capped')));

/** Links as read (SELECT): each with its product's name and active flag. */
function views(db: Knex | Knex.Transaction): Knex.QueryBuilder {
  return db('payment_links as l').leftJoin('products as p', 'p.id', 'l.product_id').select(SELECT);
}

/** One object per row (a page maps every row through here): the link and its product's name. */
function toView(row: Row): PaymentLinkView {
  const productId = row.product_id === null ? null : Number(row.product_id);
  return {
    id: Number(row.id),
    organizationId: Number(row.organization_id),
    companyId: Number(row.company_id),
    code: row.code,
    externalPaymentLinkId: row.external_payment_link_id ?? null,
    debtExternalRequestId: row.debt_external_request_id,
    status: row.status as PaymentLinkStatus,
    amountCents: Number(row.amount_cents),
    currency: row.currency as Currency,
    description: row.description,
    singleUse: bool(row.single_use),
    expiresAt: fromMillisOrNull(row.expires_at),
    successUrl: row.success_url ?? null,
    metadata: row.metadata ? JSON.parse(row.metadata) : null,
    identifierValue: row.identifier_value ?? null,
    urlIdentifier: row.url_identifier,
    shortCode: row.short_code ?? null,
    productId,
    productCreatedInline: bool(row.product_created_inline),
    contactId: row.contact_id === null ? null : Number(row.contact_id),
    paymentsCount: Number(row.payments_count),
    createdAt: fromMillis(row.created_at),
    updatedAt: fromMillis(row.updated_at),
    product: productId === null ? null : { id: productId, name: row.product_name, active: bool(row.product_active) },
  };
}
