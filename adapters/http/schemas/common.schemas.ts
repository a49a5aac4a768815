import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../../internal/shared/page';
import type { JsonSchema } from '../validation';
import { ERROR_CODES } from '../error-mapping';
import { named } from './named';

/** Pieces shared by resource schemas; every schema is also published in /openapi.json. */
export const nonBlankString = (maxLength: number): JsonSchema => ({ type: 'string', minLength: 1, maxLength, pattern: '\\S' });

/** Identifiers that must not carry quote, double quote, backslash or semicolon, nor be blank. */
export const forbiddenCharsString = (maxLength: number): JsonSchema => ({
  // Some character that is neither forbidden nor blank (a bare \S would also match a forbidden one).
  type: 'string', minLength: 1, maxLength, pattern: '^[^\'"\\\\;]*[^\'"\\\\;\\s][^\'"\\\\;]*$',
});

export const pageQueryProperties = {
  // A page beyond 2^53 - 1 is not an exact number; any page past the last match is empty.
  page: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, default: 1, description: 'Page number, from 1; a page past the last match is empty' },
  limit: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE, description: `Items per page, 1 to ${MAX_PAGE_SIZE}` },
} as const;

export const dateTimeSchema: JsonSchema = { type: 'string', format: 'date-time', description: 'UTC, YYYY-MM-DDTHH:mm:ss.sssZ' };

/** Convention 6: the company of a client with several companies (context, removed before validation). */
export const companyCodeProperty = {
  companyCode: {
    type: 'string',
    description: 'Clients with several companies: the company this request is for (context, not a field to store or modify). A client with one company may omit it.',
  },
} as const;

export const REQUEST_ID_PATTERN = '^req_[A-Za-z0-9]+$';
export const requestIdSchema: JsonSchema = { type: 'string', pattern: REQUEST_ID_PATTERN, description: 'This request, for tracing (also in the X-Request-Id header)' };

export const errorDetailSchema = named('ErrorDetail', {
  type: 'object',
  required: ['field', 'issue'],
  description: 'One problem of a 400 answer.',
  properties: {
    field: {
      type: 'string',
      description: 'The field as sent (`email`, `phones[0].type`); `body` for the body as a whole, `companyCode` for the company context, `Idempotency-Key` for that header',
    },
    issue: { type: 'string', description: 'What is wrong with it' },
    index: { type: 'integer', minimum: 0, description: 'Batch bodies only: the position of the item in `debts`' },
    externalRequestId: { type: ['string', 'null'], description: 'Batch bodies only: the externalRequestId of the item (null when it has none)' },
  },
  examples: [{ field: 'dueDate', issue: 'must match format "date"' }],
});

export const errorSchema = named('Error', {
  type: 'object',
  required: ['code', 'message'],
  properties: {
    code: { type: 'string', enum: [...ERROR_CODES], description: 'Stable, machine-readable' },
    message: { type: 'string', description: 'For people; may change' },
    details: { type: 'array', items: errorDetailSchema, description: 'Only on 400 INVALID_REQUEST: every offending field' },
  },
});

export const errorEnvelopeSchema = named('ErrorEnvelope', {
  type: 'object',
  required: ['error', 'requestId'],
  description: 'Every error answer: `{ error: { code, message, details? }, requestId }`.',
  properties: { error: errorSchema, requestId: requestIdSchema },
  examples: [{ error: { code: 'RESOURCE_NOT_FOUND', message: 'Debt not found' }, requestId: 'req_8QmZk2VbX1sN4pL7rT0yWc3d' }],
});

const pageMetaProperties = {
  page: { type: 'integer', minimum: 1, description: 'This page' },
  limit: { type: 'integer', minimum: 1, description: 'Items per page' },
  total: { type: 'integer', minimum: 0, description: 'Items matching the filters' },
  hasMore: { type: 'boolean', description: 'Whether a later page has items' },
};

export const pageMetaSchema = named('PageMeta', {
  type: 'object',
  required: ['page', 'limit', 'total', 'hasMore'],
  properties: pageMetaProperties,
  examples: [{ page: 1, limit: 50, total: 1, hasMore: false }],
});

/** The lists whose count stops at a cap (contacts, payment links). */
export const cappedPageMetaSchema = named('CappedPageMeta', {
  type: 'object',
  required: ['page', 'limit', 'total', 'hasMore', 'capped'],
  properties: {
    ...pageMetaProperties,
    total: { type: 'integer', minimum: 0, description: 'Items matching the filters, counted up to 10,000' },
    capped: { type: 'boolean', description: 'True when more than 10,000 items match (total then reads 10,000)' },
  },
  examples: [{ page: 1, limit: 50, total: 1, hasMore: false, capped: false }],
});

/** `{ data, requestId }` around `data` (for answers a route documents by hand). */
export function dataEnvelope(data: JsonSchema): JsonSchema {
  return { type: 'object', required: ['data', 'requestId'], properties: { data, requestId: requestIdSchema } };
}
