import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../../internal/shared/page';
import type { JsonSchema } from '../validation';

/** Pieces shared by resource schemas; every schema is also published in /openapi.json. */
export const nonBlankString = (maxLength: number): JsonSchema => ({ type: 'string', minLength: 1, maxLength, pattern: '\\S' });

/** Identifiers that must not carry quote, double quote, backslash or semicolon, nor be blank. */
export const forbiddenCharsString = (maxLength: number): JsonSchema => ({
  // Some character that is neither forbidden nor blank (a bare \S would also match a forbidden one).
  type: 'string', minLength: 1, maxLength, pattern: '^[^\'"\\\\;]*[^\'"\\\\;\\s][^\'"\\\\;]*$',
});

export const pageQueryProperties = {
  // A page beyond 2^53 - 1 is not an exact number; any page past the last match is empty.
  page: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, default: 1 },
  limit: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE },
} as const;

export const dateTimeSchema: JsonSchema = { type: 'string', format: 'date-time', description: 'UTC, YYYY-MM-DDTHH:mm:ss.sssZ' };

export const errorEnvelopeSchema: JsonSchema = {
  type: 'object',
  required: ['error', 'requestId'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string' },
        message: { type: 'string' },
        details: {
          type: 'array',
          items: { type: 'object', properties: { field: { type: 'string' }, issue: { type: 'string' } } },
        },
      },
    },
    requestId: { type: 'string', pattern: '^req_[A-Za-z0-9]+$' },
  },
};

export const pageMetaSchema: JsonSchema = {
  type: 'object',
  required: ['page', 'limit', 'total', 'hasMore'],
  properties: {
    page: { type: 'integer' },
    limit: { type: 'integer' },
    total: { type: 'integer' },
    hasMore: { type: 'boolean' },
    capped: { type: 'boolean' },
  },
};
