import type { UnitOfWork } from '../../../ports/unit-of-work';
import { eventOf } from '../../events/domain-event';
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

/** PATCH /contacts/{id}: name, email and phones, with contact.updated; the edge rejects every other field. */
export class UpdateContact {
  constructor(private readonly deps: { uow: UnitOfWork }) {
    requireDeps('UpdateContact', deps);
  }

  async execute(id: string, input: UpdateContactInput, scope: TenantScope): Promise<Contact> {
    const code = contactCodeFromId(id);
    return this.deps.uow.run(async ({ contacts, events }) => {
      const contact = code ? await contacts.findByCode(scope.organizationId, code) : null;
      if (!contact) throw new NotFoundError('Contact');
      const now = scope.clock.now();
      const updated = await contacts.update(scope.organizationId, contact.id, {
        name: input.name?.trim(),
        email: input.email,
        phones: input.phones && normalizePhones(input.phones),
        updatedAt: now,
      });
      await events.append([eventOf(scope, 'contact.updated', { kind: 'contact', contact: updated }, now)]);
      return updated;
    });
  }
}
