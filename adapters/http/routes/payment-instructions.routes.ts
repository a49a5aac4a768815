import type { Application } from '../../../internal/application';
import type { InstructionMethod } from '../../../internal/payment-instructions/payment-instruction';
import type { UnappliedStatus } from '../../../internal/payment-instructions/unapplied-payment';
import { DomainError } from '../../../internal/shared/errors';
import { amountFromCents, centsFromAmount } from '../../../internal/shared/money';
import type { PageRequest } from '../../../internal/shared/page';
import type { PaymentPortal } from '../../../ports/payment-portal';
import type { MoneyReceivedObserver } from '../../metrics/payment-instruction-metrics';
import { paymentInstructionPresenter, presentUnappliedPayment } from '../presenters/payment-instruction.presenter';
import { pageMeta } from '../presenters/page.presenter';
import { route } from '../route';
import { dataEnvelope } from '../schemas/common.schemas';
import {
  applyUnappliedPaymentBody, createPaymentInstructionBody, listUnappliedPaymentsQuery, notificationReceiptSchema, paymentInstructionSchema,
  receivePaymentBody, sandboxNotificationBody, sandboxNotificationSentSchema, unappliedPaymentSchema,
} from '../schemas/payment-instruction.schemas';

const TAG = 'Cash and transfer';
const DEBT_ID = 'The debtId (`debt_…`) or the externalRequestId';
const INSTRUCTION_ID = 'The paymentInstructionId (`pin_…`), with or without its prefix';
const UNAPPLIED_ID = 'The unappliedPaymentId (`upy_…`), with or without its prefix';
const instructionExample = (paymentInstructionSchema.examples as unknown[])[0];

/** Delivers a provider notification to the core and reports it; the endpoint and the sandbox helper share it. */
export type NotificationDoor = (provider: string, headers: Record<string, string | undefined>, body: string, requestId: string | null) => ReturnType<Application['commands']['receiveProviderNotification']['execute']>;

export function notificationDoor(app: Application, observer?: MoneyReceivedObserver): NotificationDoor {
  return async (provider, headers, body, requestId) => {
    const receipt = await app.commands.receiveProviderNotification.execute({ provider, headers, body, requestId });
    observer?.notificationReceived(provider, receipt);
    return receipt;
  };
}

/** Payment instructions, unapplied payments and provider notifications → internal/payment-instructions. */
export function paymentInstructionRoutes(app: Application, portal: PaymentPortal, door: NotificationDoor) {
  const present = paymentInstructionPresenter(portal);
  const { createPaymentInstruction, applyUnappliedPayment, refundUnappliedPayment } = app.commands;
  return [
    route<{ method: InstructionMethod; amount?: number }>({
      method: 'post', path: '/debts/:id/payment-instructions', operationId: 'createPaymentInstruction', tag: TAG,
      summary: 'Give a debt a transfer account or a cash voucher (200: the PENDING one it has)',
      description:
        'TRANSFER: an account unique to this instruction (a CLABE for MXN, a CVU for ARS, a CCI for PEN, an account number for COP, CLP ' +
        'and USD), with its bank, beneficiary and reference. CASH: a voucher with a barcode (SVG) and a printable PDF, paid at a store. ' +
        'The money is confirmed when the provider notifies it (webhook `payment_instruction.paid`, `debt.paid`). Asking again for a method ' +
        'that has a PENDING instruction answers that one (200). `amount` defaults to the remaining amount; less only where the debt allows ' +
        'partial payments. 422 when the debt takes no payment now (paid, cancelled, overdue without overdue payments, its link not ' +
        'ACTIVE) or its paymentMethods do not include the method (TRANSFER or BANK_TRANSFER for TRANSFER, CASH for CASH).',
      params: { id: DEBT_ID },
      idempotent: true,
      auth: 'facade', body: createPaymentInstructionBody, response: paymentInstructionSchema, status: 201, errors: [400, 401, 404, 422],
      answers: {
        200: {
          description: 'The debt already has a PENDING instruction of that method: that one, unchanged',
          body: dataEnvelope(paymentInstructionSchema),
          examples: { existing: { summary: 'The PENDING instruction', value: { data: instructionExample, requestId: 'req_8QmZk2VbX1sN4pL7rT0yWc3d' } } },
        },
      },
      handle: async ({ params, body, scope }) => {
        const amountCents = body.amount === undefined ? undefined : centsFromAmount(body.amount);
        const { instruction, created } = await createPaymentInstruction.execute({ debtId: params.id!, method: body.method, amountCents }, scope);
        return { status: created ? 201 : 200, data: present(instruction, scope) };
      },
    }),
    route({
      method: 'get', path: '/debts/:id/payment-instructions', operationId: 'listPaymentInstructions', tag: TAG, summary: "A debt's payment instructions, newest first",
      description: 'Every instruction the debt was given, whatever its status, newest first (not paginated: a debt has few).',
      params: { id: DEBT_ID },
      auth: 'facade', response: paymentInstructionSchema, list: 'all', errors: [401, 404],
      handle: async ({ params, scope }) => ({ data: (await app.queries.listDebtPaymentInstructions.execute(params.id!, scope)).map((i) => present(i, scope)) }),
    }),
    route({
      method: 'get', path: '/payment-instructions/:id', operationId: 'getPaymentInstruction', tag: TAG, summary: 'Retrieve a payment instruction',
      description: 'The status is the effective one (a PENDING instruction past expiresAt reads EXPIRED).',
      params: { id: INSTRUCTION_ID },
      auth: 'facade', response: paymentInstructionSchema, errors: [401, 404],
      handle: async ({ params, scope }) => ({ data: present(await app.queries.getPaymentInstruction.execute(params.id!, scope), scope) }),
    }),
    route<unknown, { status?: UnappliedStatus } & PageRequest>({
      method: 'get', path: '/unapplied-payments', operationId: 'listUnappliedPayments', tag: TAG, summary: 'Money received that no debt took, newest first',
      description: 'Overpayments, money for instructions no longer PENDING and money the debt\'s rules refused, newest first (by receivedAt); `status` filters OPEN or RESOLVED.',
      auth: 'facade', query: listUnappliedPaymentsQuery, response: unappliedPaymentSchema, list: 'page', errors: [400, 401],
      handle: async ({ query, scope }) => {
        const { page, limit, status } = query;
        const result = await app.queries.listUnappliedPayments.execute({ status }, { page, limit }, scope);
        return { data: result.items.map(presentUnappliedPayment), meta: pageMeta({ page, limit }, result) };
      },
    }),
    route({
      method: 'get', path: '/unapplied-payments/:id', operationId: 'getUnappliedPayment', tag: TAG, summary: 'Retrieve an unapplied payment',
      description: 'The money, where it came from, why no debt took it, and how it was resolved.',
      params: { id: UNAPPLIED_ID },
      auth: 'facade', response: unappliedPaymentSchema, errors: [401, 404],
      handle: async ({ params, scope }) => ({ data: presentUnappliedPayment(await app.queries.getUnappliedPayment.execute(params.id!, scope)) }),
    }),
    route<{ debtId: string }>({
      method: 'post', path: '/unapplied-payments/:id/apply', operationId: 'applyUnappliedPayment', tag: TAG, summary: 'Apply an OPEN unapplied payment to a debt',
      description:
        'Its whole amount pays the debt (any debt of the company in the same currency) through the same payment rules as every payment: ' +
        'more than the remaining amount, a partial amount where not allowed, a final state or the payment order is 422, and nothing changes. ' +
        'It becomes RESOLVED (APPLIED). A RESOLVED one, or one being refunded, is 422.',
      params: { id: UNAPPLIED_ID },
      auth: 'facade', body: applyUnappliedPaymentBody, response: unappliedPaymentSchema, errors: [400, 401, 404, 422],
      handle: async ({ params, body, scope }) => ({ data: presentUnappliedPayment(await applyUnappliedPayment.execute(params.id!, body.debtId, scope)) }),
    }),
    route({
      method: 'post', path: '/unapplied-payments/:id/refund', operationId: 'refundUnappliedPayment', tag: TAG, summary: 'Refund an OPEN unapplied payment to the payer',
      description: 'No body. The provider sends the money back; it becomes RESOLVED (REFUNDED, with the provider\'s reference). A RESOLVED one is 422.',
      params: { id: UNAPPLIED_ID },
      auth: 'facade', response: unappliedPaymentSchema, errors: [401, 404, 422],
      handle: async ({ params, scope }) => ({ data: presentUnappliedPayment(await refundUnappliedPayment.execute(params.id!, scope)) }),
    }),
    route({
      method: 'post', path: '/provider-notifications/:provider', operationId: 'receiveProviderNotification', tag: TAG,
      summary: 'Money arrived (called by the payment provider, signed)',
      description:
        'For payment providers, not integrators: the only way money comes in. The body is the provider\'s own format, signed by it ' +
        '(the sandbox: `X-Sandbox-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`, refused 5 minutes away ' +
        'from now: 401). Idempotent on the provider\'s transaction id: a notification delivered again answers the first outcome and ' +
        'records nothing (the same id with other values is 409). The money pays the instruction\'s debt, or is kept as an unapplied ' +
        'payment, or both; an unknown instruction is kept as UNMATCHED for the operators.',
      params: { provider: 'The provider that sends it: `sandbox`' },
      idempotent: true,
      auth: 'none', handlerBody: sandboxNotificationBody, response: notificationReceiptSchema, errors: [400, 401, 404, 409],
      handle: async ({ params, ctx }) => {
        const raw = typeof ctx.state.rawBody === 'string' ? ctx.state.rawBody : '';
        const receipt = await door(params.provider!, ctx.headers as Record<string, string | undefined>, raw, ctx.state.requestId);
        return { data: receiptOf(receipt) };
      },
    }),
  ];
}

/** Sandbox helper: the sandbox provider notifies money for an instruction, through the notification endpoint's door. */
export function paymentInstructionTestHelperRoutes(app: Application, door: NotificationDoor) {
  return [
    route<{ amount?: number }>({
      method: 'post', path: '/test-helpers/payment-instructions/:id/receive', operationId: 'receiveSandboxPayment', tag: 'Sandbox test helpers',
      summary: 'The sandbox provider notifies money for an instruction (default: its amount)',
      description:
        'Sandbox only. Sends a notification signed by the sandbox provider through the same door as `POST /provider-notifications/sandbox` ' +
        '(signature check, idempotency, the payment rules), retried like a provider retries until it is recorded, then answers 202. ' +
        'Any amount and any status: money for an instruction no longer PENDING, or more than owed, is kept as an unapplied payment.',
      params: { id: INSTRUCTION_ID },
      auth: 'facade', body: receivePaymentBody, response: sandboxNotificationSentSchema, status: 202, errors: [400, 401, 404, 422],
      handle: async ({ params, body, scope, ctx }) => {
        const amountCents = body.amount === undefined ? undefined : centsFromAmount(body.amount);
        const notification = await app.commands.prepareSandboxNotification.execute(params.id!, amountCents, scope);
        await deliverLikeAProvider(() => door(notification.provider, notification.sign(new Date()), notification.body, ctx.state.requestId));
        return {
          data: {
            paymentInstructionId: notification.paymentInstructionId, provider: notification.provider, transactionId: notification.transactionId,
            amount: amountFromCents(notification.amountCents), currency: notification.currency,
          },
        };
      },
    }),
  ];
}

/** Attempts of a sandbox delivery, and the first wait between them (doubling). */
const DELIVERY_ATTEMPTS = 6;
const FIRST_RETRY_MS = 100;

/**
 * A provider delivers until it gets a 2xx: a failure that is not an answer of the rules (the
 * database dropped the connection, say) is retried with the same transaction id, signed anew.
 */
async function deliverLikeAProvider(deliver: () => Promise<unknown>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await deliver();
      return;
    } catch (error) {
      if (error instanceof DomainError || attempt >= DELIVERY_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, FIRST_RETRY_MS * 2 ** (attempt - 1)));
    }
  }
}

function receiptOf(receipt: Awaited<ReturnType<NotificationDoor>>) {
  const n = receipt.notification;
  return {
    transactionId: n.transactionId, replayed: receipt.replayed, outcome: n.outcome,
    appliedAmount: amountFromCents(n.appliedCents), unappliedAmount: amountFromCents(n.unappliedCents), currency: n.currency,
  };
}
