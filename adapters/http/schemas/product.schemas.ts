import type { JsonSchema } from '../validation';
import { companyCodeProperty, dateTimeSchema, forbiddenCharsString, nonBlankString, pageQueryProperties } from './common.schemas';
import { named } from './named';

export const createProductBody: JsonSchema = named('CreateProductRequest', {
  type: 'object',
  required: ['name'],
  properties: {
    name: { ...nonBlankString(200), description: 'Unique per company, trimmed' },
    externalProductId: { ...forbiddenCharsString(200), description: "Your own id, trimmed; must not contain ' \" \\ or ;" },
    active: { type: 'boolean', description: 'Default true' },
    ...companyCodeProperty,
  },
  examples: [{ name: 'Tuition', externalProductId: 'SKU-TUI-01' }],
});

/** PATCH /products/{id}: `name` and `active` only, at least one. */
export const updateProductBody: JsonSchema = named('UpdateProductRequest', {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    name: nonBlankString(200),
    active: { type: 'boolean', description: 'false deactivates the product' },
    ...companyCodeProperty,
  },
  examples: [{ name: 'Tuition 2027' }],
});

export const listProductsQuery: JsonSchema = {
  type: 'object',
  properties: {
    ...pageQueryProperties,
    name: { type: 'string', minLength: 1, maxLength: 200, description: 'Exact name' },
    active: { type: 'string', enum: ['true', 'false'], description: 'Only active products are listed: false gives an empty list' },
  },
};

const productIdSchema = { type: 'string', pattern: '^prd_[0-9]+$', description: '`prd_` + number; paths also accept the bare number' };

export const productSchema: JsonSchema = named('Product', {
  type: 'object',
  required: ['productId', 'name', 'externalProductId', 'active', 'createdAt', 'updatedAt'],
  properties: {
    productId: productIdSchema,
    name: { type: 'string' },
    externalProductId: { type: ['string', 'null'] },
    active: { type: 'boolean' },
    createdAt: { ...dateTimeSchema, type: ['string', 'null'], description: 'Null when the product was created inactive' },
    updatedAt: { ...dateTimeSchema, type: ['string', 'null'], description: 'Null when the product was created inactive; PATCH does not move it (known limitation)' },
  },
  examples: [{
    productId: 'prd_12', name: 'Tuition', externalProductId: 'SKU-TUI-01', active: true,
    createdAt: '2026-11-25T16:04:05.123Z', updatedAt: '2026-11-25T16:04:05.123Z',
  }],
});

/** The product as debts, payment links and subscriptions embed it. */
export const embeddedProductSchema: JsonSchema = named('EmbeddedProduct', {
  type: 'object',
  required: ['productId', 'name', 'active', 'createdInline'],
  properties: {
    productId: productIdSchema,
    name: { type: 'string' },
    active: { type: 'boolean' },
    createdInline: { type: 'boolean', description: 'Whether this request created the product by name (always false for debts)' },
  },
});

/** The product as an adhesion embeds it. */
export const adhesionProductSchema: JsonSchema = named('AdhesionProduct', {
  type: 'object',
  required: ['productId', 'name', 'active'],
  properties: { productId: productIdSchema, name: { type: 'string' }, active: { type: 'boolean' } },
});
