import type { Knex } from 'knex';
import type { Contact, Phone } from '../../../internal/contacts/contact';
import { foldForSearch, phoneDigits } from '../../../internal/contacts/contact';
import { COUNT_SCAN_CAP, cappedTotal, offsetOf, type Page, type PageRequest, totalFromPage } from '../../../internal/shared/page';
import type { ContactChanges, ContactFilter, ContactRepository, NewContact } from '../../../ports/contact-repository';
import { insertedId, sqlDialect } from './dialect';
import { translatingDuplicates } from './driver-errors';
import { bool, fromMillis, likeContains, toMillis } from './rows/columns';
import { inTransaction } from './in-transaction';

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
    if (contact.phones.length === 0) {
      // One statement needs no transaction of its own.
      const id = await translatingDuplicates(this.db, 'Contact', (db) => insertedId(db, 'contacts', row));
      return toContact({ ...row, id: id!, active: 1 });
    }
    return inTransaction(this.db, async (trx) => {
      const id = await translatingDuplicates(trx, 'Contact', (db) => insertedId(db, 'contacts', row));
      await this.writePhones(trx, id!, contact.organizationId, contact.phones);
      return toContact({ ...row, id: id!, active: 1 });
    });
  }

  async findByCode(organizationId: number, code: string): Promise<Contact | null> {
    const row = await this.db<ContactRow>('contacts').where({ organization_id: organizationId, code }).first();
    return row ? toContact(row) : null;
  }

  async findByExternalClientId(organizationId: number, externalClientId: string): Promise<Contact | null> {
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
        await trx('contact_phones').where({ contact_id: id }).delete();
        await this.writePhones(trx, id, organizationId, changes.phones);
      }
      const row = await trx<ContactRow>('contacts').where({ organization_id: organizationId, id }).first();
      return toContact(row!);
    });
  }

  async list(organizationId: number, filter: ContactFilter, page: PageRequest): Promise<Page<Contact>> {
    // Newest first along the organization's index, not the primary key (a name that matches
    // little would otherwise read the whole table).
    const table = sqlDialect(this.db).orderedByOwnIndex(this.db, 'contacts');
    const query = this.db.from(table).where('contacts.organization_id', organizationId);
    if (filter.name !== undefined) {
      query.whereRaw("contacts.name_search LIKE ? ESCAPE '!'", [likeContains(foldForSearch(filter.name))]);
    }
    if (filter.email !== undefined) query.whereRaw('LOWER(contacts.email) = ?', [filter.email.toLowerCase()]);
    if (filter.externalClientId !== undefined) query.where('contacts.external_client_id', filter.externalClientId);
    if (filter.code !== undefined) query.where('contacts.code', filter.code);
    if (filter.phoneDigits !== undefined) {
      query.whereExists((sub) =>
        sub
          .select(this.db.raw('1'))
          .from('contact_phones')
          .whereRaw('contact_phones.contact_id = contacts.id')
          .where('contact_phones.organization_id', organizationId)
          .where('contact_phones.digits_reversed', 'like', `${reversed(filter.phoneDigits!)}%`),
      );
    }
    // The page's ids from that index alone, then only those rows.
    const ids = query.clone().select('contacts.id').orderBy('contacts.id', 'desc').limit(page.limit).offset(offsetOf(page));
    const rows = await this.db.from(ids.as('pg')).join('contacts', 'contacts.id', 'pg.id').select<ContactRow[]>('contacts.*').orderBy('contacts.id', 'desc');
    // A page that is not full tells the total (a selective search then scans the index once);
    // otherwise count at most COUNT_SCAN_CAP + 1 matches: a bounded scan even for a broad filter.
    const told = totalFromPage(page, rows.length);
    const matches =
      told ??
      Number((await this.db.count<{ n: number }[]>({ n: '*' }).from(query.clone().select('contacts.id').limit(COUNT_SCAN_CAP + 1).as('capped')))[0]?.n ?? 0);
    return { items: rows.map(toContact), ...cappedTotal(matches) };
  }

  private async writePhones(trx: Knex.Transaction, contactId: number, organizationId: number, phones: Phone[]) {
    if (phones.length === 0) return;
    await trx('contact_phones').insert(
      phones.map((p, position) => ({
        contact_id: contactId,
        organization_id: organizationId,
        position,
        digits_reversed: reversed(phoneDigits(p.number)),
      })),
    );
  }
}

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
