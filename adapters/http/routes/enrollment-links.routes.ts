import type { Application } from '../../../internal/application';
import type { EnrollmentGrant } from '../../../internal/direct-debit/enrollment-grant';
import type { Currency } from '../../../internal/shared/currency';
import { toIsoUtc } from '../../../internal/shared/calendar-date';
import type { PaymentPortal } from '../../../ports/payment-portal';
import { route } from '../route';
import { enrollmentLinkBody, enrollmentLinkSchema } from '../schemas/enrollment-link.schemas';

/** POST /enrollment-links → internal/direct-debit/commands/issue-enrollment-link.ts. */
export function enrollmentLinkRoutes(app: Application, portal: PaymentPortal) {
  return [
    route<{ externalClientId: string; currency?: Currency; expiresInSeconds?: number }>({
      method: 'post', path: '/enrollment-links', operationId: 'createEnrollmentLink', tag: 'Direct debit', summary: 'A signed, expiring URL of the hosted enrollment page for one user',
      description:
        'Send the URL to the user: the page registers a bank account (CLABE, CBU, CCI or account number, by currency) or a card for ' +
        'direct debit. The company needs direct debit enabled (else 422). Nothing is stored until the user completes the page.',
      idempotent: true,
      auth: 'facade', body: enrollmentLinkBody, response: enrollmentLinkSchema, status: 201, errors: [400, 401, 422],
      handle: async ({ body, scope }) => ({ data: presentEnrollmentLink(app.commands.issueEnrollmentLink.execute(body, scope), portal) }),
    }),
  ];
}

export function presentEnrollmentLink(grant: EnrollmentGrant, portal: PaymentPortal) {
  return { url: portal.enrollmentUrl(grant), externalClientId: grant.externalClientId, currency: grant.currency, expiresAt: toIsoUtc(grant.expiresAt) };
}
