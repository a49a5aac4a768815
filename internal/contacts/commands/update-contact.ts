import type { ContactRepository } from '../../../ports/contact-repository';
import { NotFoundError } from '../../shared/errors';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import { type Contact, contactCodeFromId, normalizePhones, type PhoneInput } from '../contact';

export interface UpdateContactInput {
  name?: string;
  email?: string;
  /** Replaces the whole list. */
  phones?: PhoneInput[];
}

/** PATCH /contacts/{id}: name, email and phones; the edge rejects every other field. */
export class UpdateContact {
  constructor(private readonly deps: { contacts: ContactRepository }) {
    requireDeps('UpdateContact', deps);
  }

  async execute(id: string, input: UpdateContactInput, scope: TenantScope): Promise<Contact> {
    const code = contactCodeFromId(id);
    const contact = code ? await this.deps.contacts.findByCode(scope.organizationId, code) : null;
    if (!contact) throw new NotFoundError('Contact');
    return this.deps.contacts.update(scope.organizationId, contact.id, {
      name: input.name?.trim(),
      email: input.email,
      phones: input.phones && normalizePhones(input.phones),
      updatedAt: scope.clock.now(),
    });
  }
}
