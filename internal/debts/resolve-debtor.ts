import type { ContactRepository } from '../../ports/contact-repository';
import type { EventLog } from '../../ports/event-log';
import type { IdGenerator } from '../../ports/id-generator';
import { CONTACT_CODE_LENGTH, type Contact, normalizePhones } from '../contacts/contact';
import { eventOf } from '../events/domain-event';
import { BusinessRuleViolationError } from '../shared/errors';
import type { TenantScope } from '../shared/tenant-scope';
import type { ContactData, DebtorRef } from './debt-draft';

export interface ResolvedDebtor {
  contact: Contact;
  /** True when this request created the contact from contactData. */
  createdInline: boolean;
}

/** What writing an inline contact needs: the transaction's contacts and events, and ids. */
export interface DebtorDeps {
  contacts: ContactRepository;
  events: EventLog;
  ids: IdGenerator;
}

/** An existing contact by externalClientId (else 422), or contactData created or updated. */
export async function resolveDebtor(deps: DebtorDeps, ref: DebtorRef, scope: TenantScope): Promise<ResolvedDebtor> {
  if ('externalClientId' in ref) return findDebtor(deps.contacts, ref.externalClientId, scope);
  return upsertContact(deps, ref.contactData, await deps.contacts.findByExternalClientId(scope.organizationId, debtorKey(ref)), scope);
}

/** A referenced contact, only read: 422 when the organization has none with that externalClientId. */
async function findDebtor(contacts: ContactRepository, externalClientId: string, scope: TenantScope): Promise<ResolvedDebtor> {
  const contact = await contacts.findByExternalClientId(scope.organizationId, externalClientId.trim());
  if (!contact) throw unknownDebtor(externalClientId);
  return { contact, createdInline: false };
}

/** The externalClientId a debtor reference names (trimmed, as contacts store it). */
export function debtorKey(ref: DebtorRef): string {
  return ('externalClientId' in ref ? ref.externalClientId : ref.contactData.externalClientId).trim();
}

export function unknownDebtor(externalClientId: string): BusinessRuleViolationError {
  return new BusinessRuleViolationError(`No contact with externalClientId ${externalClientId}`);
}

/**
 * contactData: update the known contact (name, email, and phones when sent), or create it; the
 * contact.created / contact.updated event goes into the caller's transaction.
 */
export async function upsertContact(deps: DebtorDeps, data: ContactData, existing: Contact | null, scope: TenantScope): Promise<ResolvedDebtor> {
  const now = scope.clock.now();
  const phones = data.phones && normalizePhones(data.phones, 'contactData.phones');
  if (existing) {
    const contact = await deps.contacts.update(scope.organizationId, existing.id, {
      name: data.name.trim(),
      email: data.email,
      phones,
      updatedAt: now,
    });
    await deps.events.append([eventOf(scope, 'contact.updated', { kind: 'contact', contact }, now)]);
    return { contact, createdInline: false };
  }
  const contact = await deps.contacts.insert({
    organizationId: scope.organizationId,
    code: deps.ids.alphanumeric(CONTACT_CODE_LENGTH),
    externalClientId: data.externalClientId.trim(),
    name: data.name.trim(),
    email: data.email,
    phones: phones ?? [],
    createdAt: now,
  });
  await deps.events.append([eventOf(scope, 'contact.created', { kind: 'contact', contact }, now)]);
  return { contact, createdInline: true };
}
