import { phonesProblem } from '../contacts/contact';
import type { ErrorDetail } from '../shared/errors';

/** The debtor and autopay fields of a request that creates debts: a debt's, a subscription's. */
export interface DebtorAndAutopayFields {
  externalClientId?: unknown;
  contactData?: unknown;
  autopay?: unknown;
  paymentMethods?: unknown;
}

/**
 * The rules between the debtor fields, owned here for debts and subscriptions alike: exactly one
 * debtor (a contact by externalClientId, or contactData inline) and at most one primary phone in
 * contactData. Safe on any object, so a body its schema refused can still be told every problem
 * at once.
 */
export function debtorProblems(body: DebtorAndAutopayFields): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const hasClient = body.externalClientId !== undefined;
  if (hasClient === (body.contactData !== undefined)) {
    problems.push({
      field: hasClient ? 'contactData' : 'externalClientId',
      issue: hasClient ? 'must not be sent with externalClientId' : 'exactly one of externalClientId or contactData is required',
    });
  }
  const phones = isRecord(body.contactData) && Array.isArray(body.contactData.phones) ? body.contactData.phones.filter(isRecord) : [];
  const phone = phonesProblem(phones, 'contactData.phones');
  if (phone) problems.push(phone);
  return problems;
}

/**
 * paymentMethods restrict how a debtor may pay; autopay true collects by direct debit: never
 * both in one request (`autopay`: the autopay the request leaves in force).
 */
export function autopayProblem(body: DebtorAndAutopayFields): ErrorDetail | null {
  return body.autopay === true && body.paymentMethods !== undefined ? { field: 'paymentMethods', issue: 'must not be sent with autopay true' } : null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
