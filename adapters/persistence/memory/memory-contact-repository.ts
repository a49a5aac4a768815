import { type Contact, foldForSearch, phoneMatches } from '../../../internal/contacts/contact';
import { ConflictError } from '../../../internal/shared/errors';
import { COUNT_SCAN_CAP, offsetOf, type Page, type PageRequest } from '../../../internal/shared/page';
import type { ContactChanges, ContactFilter, ContactRepository, NewContact } from '../../../ports/contact-repository';
import { copy, type MemoryStore } from './memory-store';

export class MemoryContactRepository implements ContactRepository {
  constructor(private readonly store: MemoryStore) {}

  private get rows(): Contact[] {
    return this.store.tables.contacts;
  }

  async insert(contact: NewContact): Promise<Contact> {
    if (this.rows.some((c) => c.organizationId === contact.organizationId && c.externalClientId === contact.externalClientId)) {
      throw new ConflictError('Contact already exists');
    }
    const stored: Contact = { ...copy(contact), id: this.store.nextId(), active: true, updatedAt: contact.createdAt };
    this.rows.push(stored);
    return copy(stored);
  }

  async findByCode(organizationId: number, code: string): Promise<Contact | null> {
    return copy(this.rows.find((c) => c.organizationId === organizationId && c.code === code) ?? null);
  }

  async findByExternalClientId(organizationId: number, externalClientId: string): Promise<Contact | null> {
    return copy(this.rows.find((c) => c.organizationId === organizationId && c.externalClientId === externalClientId) ?? null);
  }

  async findByExternalClientIds(organizationId: number, externalClientIds: string[]): Promise<Contact[]> {
    const keys = new Set(externalClientIds);
    return copy(this.rows.filter((c) => c.organizationId === organizationId && keys.has(c.externalClientId)));
  }

  async update(organizationId: number, id: number, changes: ContactChanges): Promise<Contact> {
    const row = this.rows.find((c) => c.organizationId === organizationId && c.id === id);
    if (!row) throw new Error(`contact ${id} vanished`);
    if (changes.name !== undefined) row.name = changes.name;
    if (changes.email !== undefined) row.email = changes.email;
    if (changes.phones !== undefined) row.phones = copy(changes.phones);
    row.updatedAt = changes.updatedAt;
    return copy(row);
  }

  async list(organizationId: number, filter: ContactFilter, page: PageRequest): Promise<Page<Contact>> {
    const matches = this.rows
      .filter((c) => c.organizationId === organizationId && matchesFilter(c, filter))
      .sort((a, b) => b.id - a.id);
    const start = offsetOf(page);
    return {
      items: copy(matches.slice(start, start + page.limit)),
      total: Math.min(matches.length, COUNT_SCAN_CAP),
      capped: matches.length > COUNT_SCAN_CAP,
    };
  }
}

function matchesFilter(c: Contact, f: ContactFilter): boolean {
  return (
    (f.name === undefined || foldForSearch(c.name).includes(foldForSearch(f.name))) &&
    (f.email === undefined || c.email.toLowerCase() === f.email.toLowerCase()) &&
    (f.externalClientId === undefined || c.externalClientId === f.externalClientId) &&
    (f.code === undefined || c.code === f.code) &&
    (f.phoneDigits === undefined || c.phones.some((p) => phoneMatches(p.number, f.phoneDigits!)))
  );
}
