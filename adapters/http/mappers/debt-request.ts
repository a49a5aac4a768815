import type { PhoneInput } from '../../../internal/contacts/contact';
import { autopayProblem, debtorProblems } from '../../../internal/debts/debtor-rules';
import type { PaymentMethod } from '../../../internal/debts/debt';
import type { DebtDraft, DebtorRef, ProductRef } from '../../../internal/debts/debt-draft';
import type { Currency } from '../../../internal/shared/currency';
import type { ErrorDetail } from '../../../internal/shared/errors';
import { centsFromAmount } from '../../../internal/shared/money';
import { productNumberFromId } from '../../../internal/products/product';

/** A debt body as the schemas let it through (v2 item or legacy). */
export interface DebtBody {
  externalClientId?: string;
  contactData?: { externalClientId: string; name: string; email: string; phones?: PhoneInput[] };
  amount: number;
  dueDate: string;
  currency?: Currency;
  description?: string;
  productId?: string;
  externalProductId?: string;
  productName?: string;
  allowPartialPayments?: boolean;
  allowOverduePayment?: boolean;
  additionalData?: Record<string, unknown>;
  paymentMethods?: PaymentMethod[];
  autopay?: boolean;
}

export type DraftOrProblems = { draft: DebtDraft; problems?: undefined } | { draft?: undefined; problems: ErrorDetail[] };

/**
 * The rules between fields that a schema states poorly: the debtor and autopay rules every debt
 * creation shares (internal/debts/debtor-rules.ts), and at most one product reference. Safe on
 * any object, so a body the schema refused can still be told every problem at once.
 */
export function debtFieldRules(body: Record<string, unknown>): ErrorDetail[] {
  const problems = debtorProblems(body);
  const productRefs = (['productId', 'externalProductId', 'productName'] as const).filter((f) => body[f] !== undefined);
  if (productRefs.length > 1) problems.push({ field: productRefs[1]!, issue: `must not be sent with ${productRefs[0]}` });
  const autopay = autopayProblem(body);
  if (autopay) problems.push(autopay);
  return problems;
}

/** The draft of a body the schema accepted, or the problems `debtFieldRules` finds in it (a batch adds the item's index). */
export function debtDraftFrom(body: DebtBody, contract: 'v2' | 'legacy'): DraftOrProblems {
  const problems = debtFieldRules(body as unknown as Record<string, unknown>);
  if (problems.length > 0) return { problems };
  const hasClient = body.externalClientId !== undefined;

  const debtor: DebtorRef = hasClient ? { externalClientId: body.externalClientId! } : { contactData: body.contactData! };
  let product: ProductRef = null;
  if (body.productId !== undefined) product = { productNumber: productNumberFromId(body.productId)! };
  else if (body.externalProductId !== undefined) product = { externalProductId: body.externalProductId.trim() };
  else if (body.productName !== undefined) product = { productName: body.productName.trim() };
  return {
    draft: {
      debtor,
      product,
      amountCents: centsFromAmount(body.amount),
      dueDate: body.dueDate,
      currency: body.currency,
      description: body.description,
      allowPartialPayments: body.allowPartialPayments,
      allowOverduePayment: body.allowOverduePayment,
      additionalData: body.additionalData,
      paymentMethods: body.paymentMethods,
      evaluateAutopay: contract === 'v2' || body.autopay === true,
    },
  };
}

/** A JSON object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
