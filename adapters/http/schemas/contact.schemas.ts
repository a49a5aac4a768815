import { PHONE_TYPES } from '../../../internal/contacts/contact';
import type { JsonSchema } from '../validation';
import { companyCodeProperty, dateTimeSchema, nonBlankString, pageQueryProperties } from './common.schemas';
import { named } from './named';

const phoneType = { type: 'string', enum: [...PHONE_TYPES] };

export const phoneSchema: JsonSchema = named('PhoneInput', {
  type: 'object',
  required: ['number', 'type'],
  properties: {
    number: { ...nonBlankString(40), pattern: '\\d', description: 'Must contain a digit' },
    type: phoneType,
    primary: { type: 'boolean', description: 'Default false; at most one phone is primary' },
    description: { type: 'string', maxLength: 100, description: 'Default: the type' },
  },
});

const phones = { type: 'array', items: phoneSchema, maxItems: 20 };
const name = nonBlankString(200);
const email = { type: 'string', format: 'email', maxLength: 254 };

const contactDataProperties = {
  externalClientId: { ...nonBlankString(100), description: 'The contact to use, or to create when new' },
  name,
  email,
  phones,
};
const contactDataExample = { externalClientId: 'client-0003', name: 'María López', email: 'maria@example.mx', phones: [{ number: '+52 55 1234 5678', type: 'MOBILE', primary: true }] };

/** Inline debtor data of POST /v2/debts: undeclared fields are a 400. */
const strictContactData = named('StrictContactData', {
  type: 'object',
  required: ['externalClientId', 'name', 'email'],
  additionalProperties: false,
  description: 'The debtor inline: an existing contact by externalClientId, or a new one created with the debt. Undeclared fields are refused.',
  properties: contactDataProperties,
  examples: [contactDataExample],
});

/** Inline debtor data of the legacy debts, payment links and subscriptions: undeclared fields are ignored. */
const contactData = named('ContactData', {
  type: 'object',
  required: ['externalClientId', 'name', 'email'],
  description: 'The debtor inline: an existing contact by externalClientId, or a new one created with the resource.',
  properties: contactDataProperties,
  examples: [contactDataExample],
});

export const contactDataSchema = (strict: boolean): JsonSchema => (strict ? strictContactData : contactData);

/** POST /contacts: undeclared fields are ignored (convention 7). */
export const createContactBody: JsonSchema = named('CreateContactRequest', {
  type: 'object',
  required: ['externalClientId', 'name', 'email'],
  properties: {
    externalClientId: { ...nonBlankString(100), description: 'Your id of the contact, unique per organization, not modifiable' },
    name,
    email,
    phones,
    ...companyCodeProperty,
  },
  examples: [contactDataExample],
});

/** PATCH /contacts/{id}: only these fields, at least one; phones replace the list and cannot be empty. */
export const updateContactBody: JsonSchema = named('UpdateContactRequest', {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  description: 'At least one field; phones replace the whole list.',
  properties: {
    name,
    email: { ...email, description: 'Cannot be removed' },
    phones: { type: 'array', items: phoneSchema, minItems: 1, maxItems: 20 },
    ...companyCodeProperty,
  },
  examples: [{ email: 'maria.lopez@example.mx' }],
});

export const listContactsQuery: JsonSchema = {
  type: 'object',
  properties: {
    ...pageQueryProperties,
    name: { type: 'string', minLength: 1, maxLength: 200, description: 'Case- and accent-insensitive substring' },
    email: { type: 'string', minLength: 1, maxLength: 254, description: 'Exact, case-insensitive' },
    phone: { type: 'string', minLength: 1, maxLength: 40, description: 'Compares digits only' },
    identifier: { type: 'string', minLength: 1, maxLength: 100, description: "The contact's identifier (today its externalClientId)" },
    externalClientId: { type: 'string', minLength: 1, maxLength: 100, description: 'Exact' },
    contactCode: { type: 'string', minLength: 1, maxLength: 100, description: 'The contactId, with or without its con_ prefix' },
  },
};

export const phoneOutputSchema: JsonSchema = named('Phone', {
  type: 'object',
  required: ['number', 'type', 'primary', 'description'],
  properties: {
    number: { type: 'string' },
    type: phoneType,
    primary: { type: 'boolean' },
    description: { type: 'string', description: 'The type when none was sent' },
  },
});

const contactIdSchema = { type: 'string', pattern: '^con_[A-Za-z0-9]+$', description: '`con_` + alphanumeric; paths also accept it without the prefix' };

export const contactSchema: JsonSchema = named('Contact', {
  type: 'object',
  required: ['contactId', 'externalClientId', 'name', 'email', 'phones', 'active', 'createdAt', 'updatedAt'],
  properties: {
    contactId: contactIdSchema,
    externalClientId: { type: 'string' },
    name: { type: 'string' },
    email: { type: ['string', 'null'] },
    phones: { type: 'array', items: phoneOutputSchema },
    active: { type: 'boolean' },
    createdAt: dateTimeSchema,
    updatedAt: dateTimeSchema,
  },
  examples: [{
    contactId: 'con_4fT9kQ2mZ8xW',
    externalClientId: 'client-0003',
    name: 'María López',
    email: 'maria@example.mx',
    phones: [{ number: '+52 55 1234 5678', type: 'MOBILE', primary: true, description: 'MOBILE' }],
    active: true,
    createdAt: '2026-11-25T16:04:05.123Z',
    updatedAt: '2026-11-25T16:04:05.123Z',
  }],
});

/** The debtor as debts and subscriptions embed it. */
export const embeddedContactSchema: JsonSchema = named('EmbeddedContact', {
  type: 'object',
  required: ['contactId', 'externalClientId', 'createdInline'],
  properties: {
    contactId: contactIdSchema,
    externalClientId: { type: 'string', description: 'The primary identifier, also when the contact was referenced by a secondary one' },
    createdInline: { type: 'boolean', description: 'Whether this request created the contact from contactData' },
  },
});
