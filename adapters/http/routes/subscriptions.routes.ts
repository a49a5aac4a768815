import type { Application } from '../../../internal/application';
import type { PaymentMethod } from '../../../internal/debts/debt';
import type { ContactData } from '../../../internal/debts/debt-draft';
import type { CreateSubscriptionInput } from '../../../internal/subscriptions/commands/create-subscription';
import type { SubscriptionAction } from '../../../internal/subscriptions/commands/change-subscription-state';
import type { IntervalUnit } from '../../../internal/subscriptions/schedule';
import type { SubscriptionStatus } from '../../../internal/subscriptions/subscription';
import type { Currency } from '../../../internal/shared/currency';
import { utcDateOf } from '../../../internal/shared/calendar-date';
import { InvalidRequestError } from '../../../internal/shared/errors';
import { centsFromAmount } from '../../../internal/shared/money';
import type { PageRequest } from '../../../internal/shared/page';
import type { PaymentPortal } from '../../../ports/payment-portal';
import type { DebtPresenter } from '../presenters/debt.presenter';
import { pageMeta } from '../presenters/page.presenter';
import { subscriptionPresenter } from '../presenters/subscription.presenter';
import { route } from '../route';
import { debtSchema, listDebtsQuery } from '../schemas/debt.schemas';
import { createSubscriptionBody, listSubscriptionsQuery, subscriptionSchema, updateSubscriptionBody } from '../schemas/subscription.schemas';
import { debtFilterFrom, type DebtQuery } from './debts.routes';

interface CreateBody {
  externalSubscriptionId: string;
  externalClientId?: string;
  contactData?: ContactData;
  amount: number;
  currency?: Currency;
  intervalUnit: IntervalUnit;
  intervalCount: number;
  startDate: string;
  productName: string;
  totalCycles?: number;
  endDate?: string;
  billingDay?: { day: number; month?: number };
  enforcePaymentOrder?: boolean;
  allowOverduePayment?: boolean;
  allowPartialPayments?: boolean;
  autopay?: boolean;
  paymentMethods?: PaymentMethod[];
  description?: string;
  additionalData?: Record<string, unknown>;
}

interface UpdateBody {
  amount?: number;
  description?: string;
  enforcePaymentOrder?: boolean;
  allowOverduePayment?: boolean;
  autopay?: boolean;
  paymentMethods?: PaymentMethod[];
  additionalData?: Record<string, unknown>;
}

/** /subscriptions → internal/subscriptions/{commands,queries}. */
export function subscriptionRoutes(app: Application, portal: PaymentPortal, presentDebt: DebtPresenter) {
  const present = subscriptionPresenter(portal);
  const { createSubscription, updateSubscription, changeSubscriptionState } = app.commands;
  const { getSubscription, listSubscriptions, listSubscriptionDebts } = app.queries;
  const transition = (action: SubscriptionAction, summary: string) =>
    route({
      method: 'post', path: `/subscriptions/:id/${action}`, operationId: `${action}Subscription`, tag: 'Subscriptions', summary,
      auth: 'facade', response: subscriptionSchema, errors: [401, 404, 422],
      handle: async ({ params, scope }) => ({ data: present(await changeSubscriptionState.execute(action, params.id!, scope), scope) }),
    });
  return [
    route<CreateBody>({
      method: 'post', path: '/subscriptions', operationId: 'createSubscription', tag: 'Subscriptions', summary: 'Create a subscription; its cycles are generated asynchronously',
      auth: 'facade', body: createSubscriptionBody, response: subscriptionSchema, status: 201, errors: [400, 401, 409, 422],
      handle: async ({ body, scope }) => {
        const problems = [];
        if ((body.externalClientId === undefined) === (body.contactData === undefined)) {
          problems.push({ field: body.externalClientId === undefined ? 'externalClientId' : 'contactData', issue: 'exactly one of externalClientId or contactData is required' });
        }
        if (body.autopay === true && body.paymentMethods !== undefined) problems.push({ field: 'paymentMethods', issue: 'must not be sent with autopay true' });
        if (problems.length > 0) throw new InvalidRequestError(problems.map((p) => `${p.field} ${p.issue}`).join('; '), problems);
        const input: CreateSubscriptionInput = {
          externalSubscriptionId: body.externalSubscriptionId,
          debtor: body.externalClientId !== undefined ? { externalClientId: body.externalClientId } : { contactData: body.contactData! },
          amountCents: centsFromAmount(body.amount),
          currency: body.currency,
          schedule: {
            intervalUnit: body.intervalUnit,
            intervalCount: body.intervalCount,
            startDate: body.startDate,
            totalCycles: body.totalCycles,
            endDate: body.endDate,
            billingDay: body.billingDay,
          },
          productName: body.productName.trim(),
          enforcePaymentOrder: body.enforcePaymentOrder,
          allowOverduePayment: body.allowOverduePayment,
          allowPartialPayments: body.allowPartialPayments,
          autopay: body.autopay,
          paymentMethods: body.paymentMethods,
          description: body.description,
          additionalData: body.additionalData,
        };
        return { data: present(await createSubscription.execute(input, scope), scope) };
      },
    }),
    route<unknown, { status?: SubscriptionStatus; externalClientId?: string } & PageRequest>({
      method: 'get', path: '/subscriptions', operationId: 'listSubscriptions', tag: 'Subscriptions', summary: 'List subscriptions by externalSubscriptionId descending',
      auth: 'facade', query: listSubscriptionsQuery, response: subscriptionSchema, errors: [400, 401],
      handle: async ({ query, scope }) => {
        const { page, limit, ...filter } = query;
        const result = await listSubscriptions.execute(filter, { page, limit }, scope);
        return { data: result.items.map((s) => present(s, scope)), meta: pageMeta({ page, limit }, result) };
      },
    }),
    route({
      method: 'get', path: '/subscriptions/:id', operationId: 'getSubscription', tag: 'Subscriptions', summary: 'Retrieve a subscription (sub_ prefix optional)',
      auth: 'facade', response: subscriptionSchema, errors: [401, 404],
      handle: async ({ params, scope }) => ({ data: present(await getSubscription.execute(params.id!, scope), scope) }),
    }),
    route<UpdateBody>({
      method: 'patch', path: '/subscriptions/:id', operationId: 'updateSubscription', tag: 'Subscriptions', summary: 'Update an ACTIVE subscription; amount also reaches open debts',
      auth: 'facade', body: updateSubscriptionBody, response: subscriptionSchema, errors: [400, 401, 404, 422],
      handle: async ({ params, body, scope }) => {
        if (body.autopay === true && body.paymentMethods !== undefined) throw InvalidRequestError.field('paymentMethods', 'must not be sent with autopay true');
        const { amount, ...rest } = body;
        const input = { ...rest, amountCents: amount === undefined ? undefined : centsFromAmount(amount) };
        const { subscription, unsynced } = await updateSubscription.execute(params.id!, input, scope);
        const data = present(subscription, scope);
        if (unsynced === 0) return { data };
        const message = `The subscription was updated but ${unsynced} generated debt${unsynced === 1 ? '' : 's'} could not be synced`;
        return { status: 207, data, extra: { error: { code: 'PARTIAL_UPDATE', message } } };
      },
    }),
    transition('cancel', 'Cancel a subscription and its unpaid debts'),
    transition('pause', 'Pause an ACTIVE subscription (its unpaid debts are cancelled)'),
    transition('resume', 'Resume a PAUSED subscription (the remaining cycles are generated)'),
    route<unknown, DebtQuery & PageRequest>({
      method: 'get', path: '/subscriptions/:id/debts', operationId: 'listSubscriptionDebts', tag: 'Subscriptions', summary: 'The generated debts, cancelled excluded',
      auth: 'facade', query: listDebtsQuery, response: debtSchema, errors: [400, 401, 404],
      handle: async ({ params, query, scope }) => {
        const { page, limit } = query;
        const result = await listSubscriptionDebts.execute(params.id!, debtFilterFrom(query), { page, limit }, scope);
        const today = utcDateOf(scope.clock.now());
        return { data: result.items.map((d) => presentDebt(d, scope, { today })), meta: pageMeta({ page, limit }, result) };
      },
    }),
  ];
}
