import type { Contact, Phone } from '../internal/contacts/contact';
import type { Page, PageRequest } from '../internal/shared/page';

export interface NewContact {
  organizationId: number;
  code: string;
  externalClientId: string;
  name: string;
  email: string;
  phones: Phone[];
  createdAt: Date;
}

export interface ContactChanges {
  name?: string;
  email?: string;
  phones?: Phone[];
  updatedAt: Date;
}

/**
 * A debtor as integrators name it: the externalClientId of a contact of the organization. A list
 * filtered by one finds that contact itself (in the list's own statement, where the database has
 * one), and nothing when the organization has no such contact.
 */
export interface DebtorKey {
  organizationId: number;
  externalClientId: string;
}

export interface ContactFilter {
  /** Case-insensitive substring of the name. */
  name?: string;
  /** Exact, case-insensitive. */
  email?: string;
  /** Digits a phone number must end with. */
  phoneDigits?: string;
  externalClientId?: string;
  code?: string;
}

export interface ContactRepository {
  /** @throws ConflictError when the organization already has the externalClientId. */
  insert(contact: NewContact): Promise<Contact>;
  /** @returns null when no contact of the organization has that code. */
  findByCode(organizationId: number, code: string): Promise<Contact | null>;
  findByExternalClientId(organizationId: number, externalClientId: string): Promise<Contact | null>;
  /** One query for many keys (batches resolve each debtor once). */
  findByExternalClientIds(organizationId: number, externalClientIds: string[]): Promise<Contact[]>;
  update(organizationId: number, id: number, changes: ContactChanges): Promise<Contact>;
  /** Newest first; `total` stops at COUNT_SCAN_CAP and then reports `capped`. */
  list(organizationId: number, filter: ContactFilter, page: PageRequest): Promise<Page<Contact>>;
}
