import type { ContactRepository } from '../../ports/contact-repository';
import type { IdGenerator } from '../../ports/id-generator';
import { CONTACT_CODE_LENGTH, type Contact, normalizePhones } from '../contacts/contact';
import { BusinessRuleViolationError } from '../shared/errors';
import type { TenantScope } from '../shared/tenant-scope';
import type { ContactData, DebtorRef } from './debt-draft';

export interface ResolvedDebtor {
  contact: Contact;
  /** True when this request created the contact from contactData. */
  createdInline: boolean;
}

/** An existing contact by externalClientId (else 422), or contactData created or updated. */
export async function resolveDebtor(
  deps: { contacts: ContactRepository; ids: IdGenerator },
  ref: DebtorRef,
  scope: TenantScope,
): Promise<ResolvedDebtor> {
  if ('externalClientId' in ref) {
    const contact = await deps.contacts.findByExternalClientId(scope.organizationId, ref.externalClientId.trim());
    if (!contact) throw unknownDebtor(ref.externalClientId);
    return { contact, createdInline: false };
  }
  return upsertContact(deps, ref.contactData, await deps.contacts.findByExternalClientId(scope.organizationId, ref.contactData.externalClientId.trim()), scope);
}

export function unknownDebtor(externalClientId: string): BusinessRuleViolationError {
  return new BusinessRuleViolationError(`No contact with externalClientId ${externalClientId}`);
}

/** contactData: update the known contact (name, email, and phones when sent), or create it. */
export async function upsertContact(
  deps: { contacts: ContactRepository; ids: IdGenerator },
  data: ContactData,
  existing: Contact | null,
  scope: TenantScope,
): Promise<ResolvedDebtor> {
  const now = scope.clock.now();
  const phones = data.phones && normalizePhones(data.phones, 'contactData.phones');
  if (existing) {
    const contact = await deps.contacts.update(scope.organizationId, existing.id, {
      name: data.name.trim(),
      email: data.email,
      phones,
      updatedAt: now,
    });
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
  return { contact, createdInline: true };
}
