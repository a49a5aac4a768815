import type { ContactFilter, ContactRepository } from '../../../ports/contact-repository';
import { InvalidRequestError } from '../../shared/errors';
import type { Page, PageRequest } from '../../shared/page';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import { type Contact, contactCodeFromId, phoneDigits } from '../contact';

export interface ListContactsInput {
  name?: string;
  email?: string;
  phone?: string;
  /** The contact's identifier; today that is its externalClientId. */
  identifier?: string;
  externalClientId?: string;
  contactCode?: string;
}

/** GET /contacts: combinable filters, newest first, `capped` totals. */
export class ListContacts {
  constructor(private readonly deps: { contacts: ContactRepository }) {
    requireDeps('ListContacts', deps);
  }

  async execute(input: ListContactsInput, page: PageRequest, scope: TenantScope): Promise<Page<Contact>> {
    const identifier = input.identifier?.trim();
    const externalClientId = input.externalClientId?.trim();
    if (identifier !== undefined && externalClientId !== undefined && identifier !== externalClientId) {
      throw new InvalidRequestError('identifier and externalClientId must not differ', [
        { field: 'identifier', issue: 'conflicts with externalClientId' },
      ]);
    }
    const filter: ContactFilter = {
      name: input.name,
      email: input.email,
      externalClientId: externalClientId ?? identifier,
    };
    if (input.phone !== undefined) {
      filter.phoneDigits = phoneDigits(input.phone);
      if (!filter.phoneDigits) throw InvalidRequestError.field('phone', 'must contain digits');
    }
    if (input.contactCode !== undefined) {
      const code = contactCodeFromId(input.contactCode);
      if (!code) return { items: [], total: 0, capped: false };
      filter.code = code;
    }
    return this.deps.contacts.list(scope.organizationId, filter, page);
  }
}
