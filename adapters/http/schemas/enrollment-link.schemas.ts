import { ENROLLMENT_LINK_SECONDS } from '../../../internal/direct-debit/enrollment-grant';
import { CURRENCIES } from '../../../internal/shared/currency';
import type { JsonSchema } from '../validation';
import { dateTimeSchema, forbiddenCharsString } from './common.schemas';

/** POST /enrollment-links: a signed, expiring URL of the hosted enrollment page for one user. */
export const enrollmentLinkBody: JsonSchema = {
  type: 'object',
  required: ['externalClientId'],
  additionalProperties: false,
  properties: {
    externalClientId: forbiddenCharsString(100),
    currency: { type: 'string', enum: [...CURRENCIES], description: 'which bank account the page asks for (CLABE, CBU, CCI, account number); default: the company currency, else MXN' },
    expiresInSeconds: { type: 'integer', minimum: ENROLLMENT_LINK_SECONDS.min, maximum: ENROLLMENT_LINK_SECONDS.max, default: ENROLLMENT_LINK_SECONDS.default },
  },
};

export const enrollmentLinkSchema: JsonSchema = {
  type: 'object',
  properties: {
    url: { type: 'string', format: 'uri' },
    externalClientId: { type: 'string' },
    currency: { type: 'string', enum: [...CURRENCIES] },
    expiresAt: dateTimeSchema,
  },
};
