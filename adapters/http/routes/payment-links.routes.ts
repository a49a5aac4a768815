import type { Context } from 'koa';
import type { Application } from '../../../internal/application';
import { effectiveStatus } from '../../../internal/debts/debt';
import type { ListDebtsInput } from '../../../internal/debts/queries/list-debts';
import type { CreatePaymentLinkInput } from '../../../internal/payment-links/commands/create-payment-link';
import type { ListPaymentLinksInput } from '../../../internal/payment-links/queries/list-payment-links';
import { utcDateOf } from '../../../internal/shared/calendar-date';
import { InvalidRequestError } from '../../../internal/shared/errors';
import { centsFromAmount } from '../../../internal/shared/money';
import type { PageRequest } from '../../../internal/shared/page';
import { pageMeta } from '../presenters/page.presenter';
import { paymentLinkPresenter, presentLinkPayment } from '../presenters/payment-link.presenter';
import type { PaymentPortal } from '../../../ports/payment-portal';
import { route } from '../route';
import { listDebtsQuery } from '../schemas/debt.schemas';
import {
  createPaymentLinkBody, linkPaymentSchema, listPaymentLinksQuery, payPaymentLinkBody, paymentLinkSchema, updatePaymentLinkBody,
} from '../schemas/payment-link.schemas';
import { validateBody } from '../validation';
import { debtFilterFrom, type DebtQuery } from './debts.routes';

interface CreateBody {
  amount: number;
  description: string;
  expiresAt: string;
  currency?: CreatePaymentLinkInput['currency'];
  externalPaymentLinkId?: string;
  singleUse?: boolean;
  successUrl?: string;
  metadata?: Record<string, unknown>;
  identifierValue?: string;
  externalClientId?: string;
  contactData?: { externalClientId: string; name: string; email: string };
  productName?: string;
  additionalData?: Record<string, unknown>;
}

const LINK_ID = 'The paymentLinkId (`plk_…`)';

/** /payment-links → internal/payment-links/{commands,queries}. */
export function paymentLinkRoutes(app: Application, portal: PaymentPortal) {
  const present = paymentLinkPresenter(portal);
  const { createPaymentLink, updatePaymentLink, cancelPaymentLink } = app.commands;
  const { getPaymentLink, listPaymentLinks, listLinkPayments } = app.queries;
  return [
    route<CreateBody>({
      method: 'post', path: '/payment-links', operationId: 'createPaymentLink', tag: 'Payment links', summary: 'Create a payment link and its associated debt',
      description:
        'The link and its associated debt (due on the UTC date of expiresAt) in one step. Its key is externalPaymentLinkId, else the ' +
        'Idempotency-Key header (the body wins when both are sent); a repeated key is 409 and creates nothing; with neither, every ' +
        'request creates a new link. identifierValue follows the specification\'s rules 1-4; companies with private links get a short ' +
        '`/l/<code>` URL.',
      idempotencyKey: 'conflicts',
      auth: 'facade', body: createPaymentLinkBody, response: paymentLinkSchema, status: 201, errors: [400, 401, 409, 422],
      handle: async ({ body, ctx, scope }) => {
        if (body.externalClientId !== undefined && body.contactData !== undefined) {
          throw InvalidRequestError.field('contactData', 'must not be sent with externalClientId');
        }
        const input: CreatePaymentLinkInput = {
          amountCents: centsFromAmount(body.amount),
          description: body.description,
          expiresAt: new Date(body.expiresAt),
          currency: body.currency,
          externalPaymentLinkId: body.externalPaymentLinkId ?? idempotencyKey(ctx),
          singleUse: body.singleUse,
          successUrl: body.successUrl,
          metadata: body.metadata,
          identifierValue: body.identifierValue,
          debtor: body.externalClientId !== undefined ? { externalClientId: body.externalClientId } : body.contactData ? { contactData: body.contactData } : undefined,
          productName: body.productName?.trim(),
          additionalData: body.additionalData,
        };
        return { data: present(await createPaymentLink.execute(input, scope), scope) };
      },
    }),
    route<unknown, ListPaymentLinksInput & PageRequest>({
      method: 'get', path: '/payment-links', operationId: 'listPaymentLinks', tag: 'Payment links', summary: 'List payment links by externalPaymentLinkId descending',
      description: 'Ordered by externalPaymentLinkId, descending. `status` is the effective one. meta.total counts up to 10,000 (then capped).',
      auth: 'facade', query: listPaymentLinksQuery, response: paymentLinkSchema, list: 'capped-page', errors: [400, 401],
      handle: async ({ query, scope }) => {
        const { page, limit, ...filter } = query;
        const result = await listPaymentLinks.execute(filter, { page, limit }, scope);
        return { data: present.page(result.items, scope), meta: pageMeta({ page, limit }, result, true) };
      },
    }),
    route({
      method: 'get', path: '/payment-links/:id', operationId: 'getPaymentLink', tag: 'Payment links', summary: 'Retrieve a payment link',
      description: 'The status is the effective one (an ACTIVE link past expiresAt reads EXPIRED).',
      params: { id: LINK_ID },
      auth: 'facade', response: paymentLinkSchema, errors: [401, 404],
      handle: async ({ params, scope }) => ({ data: present(await getPaymentLink.execute(params.id!, scope), scope) }),
    }),
    route({
      method: 'patch', path: '/payment-links/:id', operationId: 'updatePaymentLink', tag: 'Payment links', summary: 'Update description, expiresAt or metadata of an ACTIVE link',
      description: 'A link that is not ACTIVE is 422 whatever the body says; then only description, expiresAt and metadata, at least one and none null (400).',
      params: { id: LINK_ID },
      idempotent: true,
      // The body schema is applied by the use case after the state check (a PAID, EXPIRED or
      // CANCELLED link is 422 whatever the body says); it is documented here all the same.
      auth: 'facade', handlerBody: updatePaymentLinkBody, response: paymentLinkSchema, errors: [400, 401, 404, 422],
      handle: async ({ params, body, scope }) => {
        const parse = () => {
          const valid = validateBody<{ description?: string; expiresAt?: string; metadata?: Record<string, unknown> }>(updatePaymentLinkBody, body ?? {});
          return { ...valid, expiresAt: valid.expiresAt === undefined ? undefined : new Date(valid.expiresAt) };
        };
        return { data: present(await updatePaymentLink.execute(params.id!, parse, scope), scope) };
      },
    }),
    route({
      method: 'post', path: '/payment-links/:id/cancel', operationId: 'cancelPaymentLink', tag: 'Payment links', summary: 'Cancel a link and its associated debt',
      description: 'No body. A link that is not ACTIVE is 422.',
      params: { id: LINK_ID },
      auth: 'facade', response: paymentLinkSchema, errors: [401, 404, 422],
      handle: async ({ params, scope }) => ({ data: present(await cancelPaymentLink.execute(params.id!, scope), scope) }),
    }),
    route<unknown, DebtQuery & PageRequest>({
      method: 'get', path: '/payment-links/:id/payments', operationId: 'listPaymentLinkPayments', tag: 'Payment links', summary: 'The associated debts of a link (payment records)',
      description: 'One record per associated debt (a reusable link gains one per payment), with the GET /debts filters.',
      params: { id: LINK_ID },
      auth: 'facade', query: listDebtsQuery, response: linkPaymentSchema, list: 'page', errors: [400, 401, 404],
      handle: async ({ params, query, scope }) => {
        const { page, limit } = query;
        const input: ListDebtsInput = debtFilterFrom(query);
        const result = await listLinkPayments.execute(params.id!, input, { page, limit }, scope);
        const today = utcDateOf(scope.clock.now());
        return { data: result.items.map((d) => presentLinkPayment(d, effectiveStatus(d, today))), meta: pageMeta({ page, limit }, result) };
      },
    }),
  ];
}

/** Sandbox helper: a payment through a link, by the same use case as every payment path. */
export function paymentLinkTestHelperRoutes(app: Application, portal: PaymentPortal) {
  const present = paymentLinkPresenter(portal);
  return [
    route<{ amount?: number }>({
      method: 'post', path: '/test-helpers/payment-links/:id/pay', operationId: 'payPaymentLink', tag: 'Sandbox test helpers', summary: 'Pay through a link (default: the link amount)',
      description: 'Sandbox only. A single-use link becomes PAID; a reusable one stays ACTIVE and gains a payment record; a link that is not ACTIVE is 422.',
      params: { id: LINK_ID },
      auth: 'facade', body: payPaymentLinkBody, response: paymentLinkSchema, status: 201, errors: [400, 401, 404, 422],
      handle: async ({ params, body, scope }) => {
        const amountCents = body.amount === undefined ? undefined : centsFromAmount(body.amount);
        return { data: present(await app.commands.payPaymentLink.execute(params.id!, amountCents, 'test-helper', scope), scope) };
      },
    }),
  ];
}

function idempotencyKey(ctx: Context): string | undefined {
  const key = ctx.get('idempotency-key');
  if (key === '') return undefined;
  if (key.length > 150) throw InvalidRequestError.field('Idempotency-Key', 'must be at most 150 characters');
  return key;
}
