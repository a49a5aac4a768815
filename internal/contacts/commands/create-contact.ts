import type { IdGenerator } from '../../../ports/id-generator';
import type { UnitOfWork } from '../../../ports/unit-of-work';
import { eventOf } from '../../events/domain-event';
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

/**
 * POST /contacts: a new contact, with its contact.created event in the same transaction; an
 * externalClientId already in the organization is a 409.
 */
export class CreateContact {
  constructor(private readonly deps: { uow: UnitOfWork; ids: IdGenerator }) {
    requireDeps('CreateContact', deps);
  }

  async execute(input: CreateContactInput, scope: TenantScope): Promise<Contact> {
    const phones = normalizePhones(input.phones ?? []);
    try {
      return await this.deps.uow.runGrouped(scope.organizationId, async ({ contacts, events }) => {
        const now = scope.clock.now();
        const contact = await contacts.insert({
          organizationId: scope.organizationId,
          code: this.deps.ids.alphanumeric(CONTACT_CODE_LENGTH),
          // Trimmed like every natural key, so "abc " and "abc" are one contact on every database.
          externalClientId: input.externalClientId.trim(),
          name: input.name.trim(),
          email: input.email,
          phones,
          createdAt: now,
        });
        await events.append([eventOf(scope, 'contact.created', { kind: 'contact', contact }, now)]);
        return contact;
      });
    } catch (error) {
      if (error instanceof ConflictError) {
        throw new ConflictError(`A contact with externalClientId ${input.externalClientId} already exists`);
      }
      throw error;
    }
  }
}
