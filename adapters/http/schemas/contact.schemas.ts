import { PHONE_TYPES } from '../../../internal/contacts/contact';
import type { JsonSchema } from '../validation';
import { dateTimeSchema, nonBlankString, pageQueryProperties } from './common.schemas';

export const phoneSchema: JsonSchema = {
  type: 'object',
  required: ['number', 'type'],
  properties: {
    number: { ...nonBlankString(40), pattern: '\\d' },
    type: { type: 'string', enum: [...PHONE_TYPES] },
    primary: { type: 'boolean' },
    description: { type: 'string', maxLength: 100 },
  },
};

const name = nonBlankString(200);
const email = { type: 'string', format: 'email', maxLength: 254 };

/** Inline debtor data of debts, payment links and subscriptions; strict where the endpoint is. */
export const contactDataSchema = (strict: boolean): JsonSchema => ({
  type: 'object',
  required: ['externalClientId', 'name', 'email'],
  ...(strict ? { additionalProperties: false } : {}),
  properties: {
    externalClientId: nonBlankString(100),
    name,
    email,
    phones: { type: 'array', items: phoneSchema, maxItems: 20 },
  },
});

/** POST /contacts: undeclared fields are ignored (convention 7). */
export const createContactBody: JsonSchema = {
  type: 'object',
  required: ['externalClientId', 'name', 'email'],
  properties: {
    externalClientId: nonBlankString(100),
    name,
    email,
    phones: { type: 'array', items: phoneSchema, maxItems: 20 },
  },
};

/** PATCH /contacts/{id}: only these fields, at least one; phones replace the list and cannot be empty. */
export const updateContactBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    name,
    email,
    phones: { type: 'array', items: phoneSchema, minItems: 1, maxItems: 20 },
  },
};

export const listContactsQuery: JsonSchema = {
  type: 'object',
  properties: {
    ...pageQueryProperties,
    name: { type: 'string', minLength: 1, maxLength: 200 },
    email: { type: 'string', minLength: 1, maxLength: 254 },
    phone: { type: 'string', minLength: 1, maxLength: 40 },
    identifier: { type: 'string', minLength: 1, maxLength: 100 },
    externalClientId: { type: 'string', minLength: 1, maxLength: 100 },
    contactCode: { type: 'string', minLength: 1, maxLength: 100 },
  },
};

export const contactSchema: JsonSchema = {
  type: 'object',
  properties: {
    contactId: { type: 'string', pattern: '^con_[A-Za-z0-9]+$' },
    externalClientId: { type: 'string' },
    name: { type: 'string' },
    email: { type: ['string', 'null'] },
    phones: { type: 'array', items: phoneSchema },
    active: { type: 'boolean' },
    createdAt: dateTimeSchema,
    updatedAt: dateTimeSchema,
  },
};
