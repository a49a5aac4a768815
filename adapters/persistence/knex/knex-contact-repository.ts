import type { Knex } from 'knex';
import type { Contact, Phone } from '../../../internal/contacts/contact';
import { foldForSearch, phoneDigits } from '../../../internal/contacts/contact';
import { COUNT_SCAN_CAP, cappedTotal, type Page, type PageRequest, totalFromPage } from '../../../internal/shared/page';
import type { ContactChanges, ContactFilter, ContactRepository, NewContact } from '../../../ports/contact-repository';
import { type Dialect, sqlDialect } from './dialect';
import { endsInSpace, insertedIdOrConflict, lookUp, withoutTrailingSpaces } from './shared-transaction';
import { bool, fromMillis, toMillis } from './rows/columns';
import { inTransaction } from './in-transaction';
import { ownRowsByKey } from './read-batches';
import { compiledRead, type PageValues, pageValues, paged } from './compiled-reads';
import { flushDeferredWrites, insertRows } from './deferred-writes';
import { addToTally, CONTACT_TALLY, readTally, tallyTotal } from './tallies';

interface ContactRow {
  id: number;
  organization_id: number;
  code: string;
  external_client_id: string;
  name: string;
  name_search: string;
  email: string;
  phones: string;
  active: number | boolean;
  created_at: number;
  updated_at: number;
}

export class KnexContactRepository implements ContactRepository {
  constructor(private readonly db: Knex | Knex.Transaction) {}

  async insert(contact: NewContact): Promise<Contact> {
    const at = toMillis(contact.createdAt);
    const row = {
      organization_id: contact.organizationId,
      code: contact.code,
      external_client_id: contact.externalClientId,
      name: contact.name,
      name_search: foldForSearch(contact.name),
      email: contact.email,
      phones: JSON.stringify(contact.phones),
      active: true,
      created_at: at,
      updated_at: at,
    };
    // The contact, its phones' index rows and the organization's tally agree (one transaction).
    return inTransaction(this.db, async (trx) => {
      const id = await insertedIdOrConflict(trx, 'Contact', 'contacts', row);
      await this.writePhones(trx, id!, contact.organizationId, contact.phones);
      await addToTally(trx, CONTACT_TALLY, contact.organizationId, 1);
      return toContact({ ...row, id: id!, active: 1 });
    });
  }

  /** By the internal number, within the organization (what other records refer to; the reminders' port). */
  findById(organizationId: number, id: number): Promise<Contact | null> {
    // With the reads of the same moment, or of the shared transaction (lookUp): a group of reminders' claims reads its contacts in one SELECT.
    // By the primary key alone, the organization's rows kept in code (read-batches.ts: "Plans").
    return lookUp(this.db, `contacts of ${organizationId} by id`, String(id), async (ids, db) =>
      ownRowsByKey(await db<ContactRow>('contacts').whereIn('id', ids.map(Number)), 'organization_id', organizationId, 'id', toContact),
    );
  }

  async findByCode(organizationId: number, code: string): Promise<Contact | null> {
    // With the reads of the same moment (lookUp).
    if (!endsInSpace(code)) {
      return lookUp(this.db, `contacts of ${organizationId} by code`, code, async (codes, db) => {
        // By the unique code alone, then the organization's (read-batches.ts: "Plans").
        return ownRowsByKey(await db<ContactRow>('contacts').whereIn('code', codes), 'organization_id', organizationId, 'code', toContact);
      });
    }
    const row = await this.db<ContactRow>('contacts').where({ organization_id: organizationId, code }).first();
    return row ? toContact(row) : null;
  }

  async findByExternalClientId(organizationId: number, externalClientId: string): Promise<Contact | null> {
    // With the reads of the same moment, or of the shared transaction (lookUp).
    if (!endsInSpace(externalClientId)) {
      return lookUp(this.db, `contacts of ${organizationId}`, externalClientId, async (keys, db) => {
        const found = await new KnexContactRepository(db).findByExternalClientIds(organizationId, keys);
        return new Map(found.map((contact) => [withoutTrailingSpaces(contact.externalClientId), contact]));
      });
    }
    const row = await this.db<ContactRow>('contacts')
      .where({ organization_id: organizationId, external_client_id: externalClientId })
      .first();
    return row ? toContact(row) : null;
  }

  async findByExternalClientIds(organizationId: number, externalClientIds: string[]): Promise<Contact[]> {
    if (externalClientIds.length === 0) return [];
    const rows = await this.db<ContactRow>('contacts').where('organization_id', organizationId).whereIn('external_client_id', externalClientIds);
    return rows.map(toContact);
  }

  async update(organizationId: number, id: number, changes: ContactChanges): Promise<Contact> {
    const patch: Partial<ContactRow> = { updated_at: toMillis(changes.updatedAt) };
    if (changes.name !== undefined) {
      patch.name = changes.name;
      patch.name_search = foldForSearch(changes.name);
    }
    if (changes.email !== undefined) patch.email = changes.email;
    if (changes.phones !== undefined) patch.phones = JSON.stringify(changes.phones);
    return inTransaction(this.db, async (trx) => {
      const changed = await trx('contacts').where({ organization_id: organizationId, id }).update(patch);
      if (changed === 0) throw new Error(`contact ${id} vanished`);
      if (changes.phones !== undefined) {
        // Phone rows this transaction still holds back (a contact created in it) go in first.
        await flushDeferredWrites(trx);
        await trx('contact_phones').where({ contact_id: id }).delete();
        await this.writePhones(trx, id, organizationId, changes.phones);
      }
      const row = await trx<ContactRow>('contacts').where({ organization_id: organizationId, id }).first();
      return toContact(row!);
    });
  }

  async list(organizationId: number, filter: ContactFilter, page: PageRequest): Promise<Page<Contact>> {
    const dialect = sqlDialect(this.db);
    const values: ContactPageValues = { organizationId, ...pageValues(page) };
    if (filter.name !== undefined) {
      const contains = dialect.containsText('contacts.name_search', foldForSearch(filter.name));
      values.nameContains = contains.bindings[0];
    }
    if (filter.email !== undefined) values.email = filter.email.toLowerCase();
    values.externalClientId = filter.externalClientId;
    values.code = filter.code;
    if (filter.phoneDigits !== undefined) values.phonesStartingWith = `${reversed(filter.phoneDigits)}%`;
    // A read in the transaction that wrote sees its own writes, its phone rows and tally held back
    // to the commit included (deferred-writes.ts).
    await flushDeferredWrites(this.db);
    const rows = await contactPage<ContactRow & { page_total?: unknown }>(this.db, values);
    const unfiltered = !isFiltered(values);
    const told = totalFromPage(page, rows.length);
    let matches: number;
    if (told !== null) matches = told;
    else if (unfiltered) matches = rows.length > 0 ? Number(rows[0]!.page_total ?? 0) : await readTally(this.db, CONTACT_TALLY, organizationId);
    else matches = Number((await cappedContactCount<{ n: number | string }>(this.db, { ...values, limit: COUNT_SCAN_CAP + 1, offset: undefined }))[0]?.n ?? 0);
    return { items: rows.map(toContact), ...cappedTotal(matches) };
  }

  /** The phone search's index rows: held back to the commit in a unit of work (deferred-writes.ts). */
  private async writePhones(trx: Knex.Transaction, contactId: number, organizationId: number, phones: Phone[]) {
    await insertRows(
      trx,
      'contact_phones',
      phones.map((p, position) => ({
        contact_id: contactId,
        organization_id: organizationId,
        position,
        digits_reversed: reversed(phoneDigits(p.number)),
      })),
    );
  }
}

/** One page of contacts: the values it binds; a filter left out is undefined (compiled-reads.ts). */
interface ContactPageValues extends PageValues {
  organizationId: number;
  /** The dialect's containsText binding for the folded name. */
  nameContains?: string;
  /** Lower-cased. */
  email?: string;
  externalClientId?: string;
  code?: string;
  /** The reversed digits and `%`. */
  phonesStartingWith?: string;
}

const isFiltered = (v: ContactPageValues) =>
  v.nameContains !== undefined || v.email !== undefined || v.externalClientId !== undefined || v.code !== undefined || v.phonesStartingWith !== undefined;

/**
 * The lower-cased email as the organization's (organization_id, lower-cased email) index holds it
 * (migration 20261207200000): the expression itself on PostgreSQL and SQLite, whose planners match
 * it to their index on it; on MariaDB/MySQL the VIRTUAL column computed from it, which that index
 * is on. The email filter compares it with the filter lower-cased, so it reads one index entry.
 */
const LOWER_EMAIL: Record<Dialect, string> = { mysql: 'contacts.email_lower', postgres: 'LOWER(contacts.email)', sqlite: 'LOWER(contacts.email)' };

/** The organization's contacts that match, newest first along its own index, not the primary key (a name that matches little would otherwise read the whole table). */
function matchingContacts(db: Knex | Knex.Transaction, v: ContactPageValues): Knex.QueryBuilder {
  const dialect = sqlDialect(db);
  const query = db.from(dialect.orderedByOwnIndex(db, 'contacts')).where('contacts.organization_id', v.organizationId);
  if (v.nameContains !== undefined) query.whereRaw(dialect.containsText('contacts.name_search', '').sql, [v.nameContains]);
  if (v.email !== undefined) query.whereRaw(`${LOWER_EMAIL[dialect.name]} = ?`, [v.email]);
  if (v.externalClientId !== undefined) query.where('contacts.external_client_id', v.externalClientId);
  if (v.code !== undefined) query.where('contacts.code', v.code);
  if (v.phonesStartingWith !== undefined) {
    query.whereExists((sub) =>
      sub
        .select(db.raw('1'))
        .from('contact_phones')
        .whereRaw('contact_phones.contact_id = contacts.id')
        .where('contact_phones.organization_id', v.organizationId)
        .where('contact_phones.digits_reversed', 'like', v.phonesStartingWith!),
    );
  }
  return query;
}

/**
 * The page's ids from that index alone, then only those rows, so a page deep in the list or a
 * broad filter skips and tests index entries, not rows. The unfiltered first page, the list most
 * asked for, reads its rows along the index straight away: it skips nothing, and the derived
 * table of ids cost MariaDB a quarter more for it (0.31 against 0.24 ms of CPU for a page of 50 of
 * 12,000 contacts; already at offset 200 the plain read costs more, 0.47 against 0.38).
 * Without a filter the total is the organization's contact tally, riding on the page's statement
 * (an uncorrelated subquery, run once); with one, a page that is not full tells it, else
 * cappedContactCount (at most COUNT_SCAN_CAP + 1 matches, even for a broad filter).
 */
const contactPage = compiledRead((db, v: ContactPageValues) => {
  const columns: (string | Knex.QueryBuilder)[] = ['contacts.*'];
  if (!isFiltered(v)) columns.push(tallyTotal(db, CONTACT_TALLY, v.organizationId).as('page_total'));
  if (!isFiltered(v) && v.offset === undefined) return paged(matchingContacts(db, v).select(columns).orderBy('contacts.id', 'desc'), v);
  const ids = paged(matchingContacts(db, v).select('contacts.id').orderBy('contacts.id', 'desc'), v);
  return db.from(ids.as('pg')).join('contacts', 'contacts.id', 'pg.id').select(columns).orderBy('contacts.id', 'desc');
});

const cappedContactCount = compiledRead((db, v: ContactPageValues) =>
  db.count({ n: '*' }).from(paged(matchingContacts(db, v).select('contacts.id'), v).as('capped')),
);

function toContact(row: ContactRow): Contact {
  return {
    id: Number(row.id),
    organizationId: Number(row.organization_id),
    code: row.code,
    externalClientId: row.external_client_id,
    name: row.name,
    email: row.email,
    phones: JSON.parse(row.phones) as Phone[],
    active: bool(row.active),
    createdAt: fromMillis(row.created_at),
    updatedAt: fromMillis(row.updated_at),
  };
}

/** Digits only, so reversing cannot create LIKE wildcards. */
function reversed(digits: string): string {
  return [...digits].reverse().join('');
}
