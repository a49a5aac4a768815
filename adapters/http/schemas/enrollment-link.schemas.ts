import { ENROLLMENT_LINK_SECONDS } from '../../../internal/direct-debit/enrollment-grant';
import { CURRENCIES } from '../../../internal/shared/currency';
import type { JsonSchema } from '../validation';
import { companyCodeProperty, dateTimeSchema, forbiddenCharsString } from './common.schemas';
import { named } from './named';

/** POST /enrollment-links: a signed, expiring URL of the hosted enrollment page for one user. */
export const enrollmentLinkBody: JsonSchema = named('CreateEnrollmentLinkRequest', {
  type: 'object',
  required: ['externalClientId'],
  additionalProperties: false,
  properties: {
    externalClientId: { ...forbiddenCharsString(100), description: "The user the page enrolls; must not contain ' \" \\ or ;" },
    currency: { type: 'string', enum: [...CURRENCIES], description: 'which bank account the page asks for (CLABE, CBU, CCI, account number); default: the company currency, else MXN' },
    expiresInSeconds: {
      type: 'integer', minimum: ENROLLMENT_LINK_SECONDS.min, maximum: ENROLLMENT_LINK_SECONDS.max, default: ENROLLMENT_LINK_SECONDS.default,
      description: 'How long the URL works',
    },
    ...companyCodeProperty,
  },
  examples: [{ externalClientId: 'client-0001', currency: 'MXN', expiresInSeconds: 86400 }],
});

export const enrollmentLinkSchema: JsonSchema = named('EnrollmentLink', {
  type: 'object',
  required: ['url', 'externalClientId', 'currency', 'expiresAt'],
  properties: {
    url: { type: 'string', format: 'uri', description: 'Send it to the user as is: it is signed and expires' },
    externalClientId: { type: 'string' },
    currency: { type: 'string', enum: [...CURRENCIES] },
    expiresAt: dateTimeSchema,
  },
  examples: [{ url: 'https://api.collections.example/enroll/eyJ2IjoxLCJjbyI6IkFDTUUifQ.Tq8xZ3', externalClientId: 'client-0001', currency: 'MXN', expiresAt: '2026-11-26T16:04:05.000Z' }],
});
