import type { ContactRepository } from '../../../ports/contact-repository';
import { NotFoundError } from '../../shared/errors';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import { type Contact, contactCodeFromId } from '../contact';

/** GET /contacts/{id}, with or without the `con_` prefix. */
export class GetContact {
  constructor(private readonly deps: { contacts: ContactRepository }) {
    requireDeps('GetContact', deps);
  }

  async execute(id: string, scope: TenantScope): Promise<Contact> {
    const code = contactCodeFromId(id);
    const contact = code ? await this.deps.contacts.findByCode(scope.organizationId, code) : null;
    if (!contact) throw new NotFoundError('Contact');
    return contact;
  }
}
