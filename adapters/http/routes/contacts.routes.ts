import type { Application } from '../../../internal/application';
import type { CreateContactInput } from '../../../internal/contacts/commands/create-contact';
import type { UpdateContactInput } from '../../../internal/contacts/commands/update-contact';
import type { ListContactsInput } from '../../../internal/contacts/queries/list-contacts';
import type { PageRequest } from '../../../internal/shared/page';
import { presentContact } from '../presenters/contact.presenter';
import { pageMeta } from '../presenters/page.presenter';
import { route } from '../route';
import { contactSchema, createContactBody, listContactsQuery, updateContactBody } from '../schemas/contact.schemas';

/** /contacts → internal/contacts/{commands,queries}. */
export function contactRoutes(app: Application) {
  const { createContact, updateContact } = app.commands;
  const { getContact, listContacts } = app.queries;
  return [
    route<CreateContactInput>({
      method: 'post', path: '/contacts', operationId: 'createContact', tag: 'Contacts', summary: 'Create a contact',
      description: 'A reusable debtor keyed by your `externalClientId` (unique per organization: a repeat is 409). Undeclared fields are ignored.',
      auth: 'facade', body: createContactBody, response: contactSchema, status: 201, errors: [400, 401, 409],
      handle: async ({ body, scope }) => ({ data: presentContact(await createContact.execute(body, scope)) }),
    }),
    route<unknown, ListContactsInput & PageRequest>({
      method: 'get', path: '/contacts', operationId: 'listContacts', tag: 'Contacts', summary: 'List contacts (filters combine)',
      description: 'Newest first. Filters combine. `meta.total` counts up to 10,000 matches, then reads 10,000 with `capped: true`.',
      auth: 'facade', query: listContactsQuery, response: contactSchema, list: 'capped-page', errors: [400, 401],
      handle: async ({ query, scope }) => {
        const { page, limit, ...filter } = query;
        const result = await listContacts.execute(filter, { page, limit }, scope);
        return { data: result.items.map(presentContact), meta: pageMeta({ page, limit }, result, true) };
      },
    }),
    route({
      method: 'get', path: '/contacts/:id', operationId: 'getContact', tag: 'Contacts', summary: 'Retrieve a contact (con_ prefix optional)',
      description: 'By contactId, with or without its `con_` prefix.',
      params: { id: 'The contactId (`con_…`, the prefix optional)' },
      auth: 'facade', response: contactSchema, errors: [401, 404],
      handle: async ({ params, scope }) => ({ data: presentContact(await getContact.execute(params.id!, scope)) }),
    }),
    route<UpdateContactInput>({
      method: 'patch', path: '/contacts/:id', operationId: 'updateContact', tag: 'Contacts', summary: 'Update name, email or phones',
      description: 'Only name, email and phones, at least one (any other field is 400). Phones replace the list; the email cannot be removed. externalClientId never changes.',
      params: { id: 'The contactId (`con_…`, the prefix optional)' },
      idempotent: true,
      auth: 'facade', body: updateContactBody, response: contactSchema, errors: [400, 401, 404],
      handle: async ({ params, body, scope }) => ({ data: presentContact(await updateContact.execute(params.id!, body, scope)) }),
    }),
  ];
}
