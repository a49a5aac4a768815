import type { JsonSchema } from '../validation';
import { dateTimeSchema, forbiddenCharsString, nonBlankString, pageQueryProperties } from './common.schemas';

export const createProductBody: JsonSchema = {
  type: 'object',
  required: ['name'],
  properties: {
    name: nonBlankString(200),
    externalProductId: forbiddenCharsString(200),
    active: { type: 'boolean' },
  },
};

/** PATCH /products/{id}: `name` and `active` only, at least one. */
export const updateProductBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    name: nonBlankString(200),
    active: { type: 'boolean' },
  },
};

export const listProductsQuery: JsonSchema = {
  type: 'object',
  properties: {
    ...pageQueryProperties,
    name: { type: 'string', minLength: 1, maxLength: 200 },
    active: { type: 'string', enum: ['true', 'false'] },
  },
};

export const productSchema: JsonSchema = {
  type: 'object',
  properties: {
    productId: { type: 'string', pattern: '^prd_[0-9]+$' },
    name: { type: 'string' },
    externalProductId: { type: ['string', 'null'] },
    active: { type: 'boolean' },
    createdAt: { ...dateTimeSchema, type: ['string', 'null'] },
    updatedAt: { ...dateTimeSchema, type: ['string', 'null'] },
  },
};
