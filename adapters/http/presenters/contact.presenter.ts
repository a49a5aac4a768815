import { type Contact, contactIdOf } from '../../../internal/contacts/contact';
import { toIsoUtc } from '../../../internal/shared/calendar-date';

export function presentContact(contact: Contact) {
  return {
    contactId: contactIdOf(contact),
    externalClientId: contact.externalClientId,
    name: contact.name,
    email: contact.email,
    phones: contact.phones.map((p) => ({ number: p.number, type: p.type, primary: p.primary, description: p.description })),
    active: contact.active,
    createdAt: toIsoUtc(contact.createdAt),
    updatedAt: toIsoUtc(contact.updatedAt),
  };
}
