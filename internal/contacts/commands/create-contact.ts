import type { ContactRepository } from '../../../ports/contact-repository';
import type { IdGenerator } from '../../../ports/id-generator';
import { ConflictError } from '../../shared/errors';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import { CONTACT_CODE_LENGTH, type Contact, normalizePhones, type PhoneInput } from '../contact';

export interface CreateContactInput {
  externalClientId: string;
  name: string;
  email: string;
  phones?: PhoneInput[];
}

/** POST /contacts: a new contact; an externalClientId already in the organization is a 409. */
export class CreateContact {
  constructor(private readonly deps: { contacts: ContactRepository; ids: IdGenerator }) {
    requireDeps('CreateContact', deps);
  }

  async execute(input: CreateContactInput, scope: TenantScope): Promise<Contact> {
    const phones = normalizePhones(input.phones ?? []);
    try {
      return await this.deps.contacts.insert({
        organizationId: scope.organizationId,
        code: this.deps.ids.alphanumeric(CONTACT_CODE_LENGTH),
        // Trimmed like every natural key, so "abc " and "abc" are one contact on every database.
        externalClientId: input.externalClientId.trim(),
        name: input.name.trim(),
        email: input.email,
        phones,
        createdAt: scope.clock.now(),
      });
    } catch (error) {
      if (error instanceof ConflictError) {
        throw new ConflictError(`A contact with externalClientId ${input.externalClientId} already exists`);
      }
      throw error;
    }
  }
}
